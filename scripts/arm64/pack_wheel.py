"""Pack an installed distribution back into a wheel, so a later `pip install` (with
`--find-links DIR` or PIP_FIND_LINKS) takes it instead of compiling the sdist again.

    python scripts/arm64/pack_wheel.py llama-cpp-python DIR

run_in_root.sh keeps the llama-cpp-python that scripts/install.sh compiled under emulation (the
slow part: tens of minutes) this way. Only files under site-packages are packed (the
distribution's RECORD lists them); the wheel's RECORD is written anew with fresh hashes.
"""

from __future__ import annotations

import base64
import hashlib
import sys
import zipfile
from importlib import metadata
from pathlib import Path

SKIP_IN_DIST_INFO = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def pack(dist_name: str, out_dir: Path) -> Path:
    dist = metadata.distribution(dist_name)
    files = dist.files or []
    site = Path(str(dist.locate_file(""))).resolve()
    info_dir = next(str(f).split("/")[0] for f in files if str(f).split("/")[0].endswith(".dist-info"))
    wheel_meta = (site / info_dir / "WHEEL").read_text(encoding="utf-8")
    tags = [ln.split(":", 1)[1].strip() for ln in wheel_meta.splitlines() if ln.startswith("Tag:")]
    if not tags:
        raise SystemExit(f"{dist_name}: no wheel tag in {info_dir}/WHEEL")
    # py2-none-any + py3-none-any -> py2.py3-none-any (a compressed tag set)
    split = [t.split("-") for t in tags]
    tag = "-".join(".".join(dict.fromkeys(s[i] for s in split)) for i in range(3))
    name = dist.metadata["Name"].replace("-", "_")
    wheel = out_dir / f"{name}-{dist.version}-{tag}.whl"
    out_dir.mkdir(parents=True, exist_ok=True)
    record: list[str] = []
    tmp = wheel.with_suffix(".whl.partial")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for rel in sorted(str(f) for f in files):
            parts = rel.split("/")
            if rel.startswith("..") or "__pycache__" in parts:
                continue  # scripts outside site-packages, byte-code: pip recreates them
            if parts[0] == info_dir and parts[-1] in SKIP_IN_DIST_INFO:
                continue
            path = site / rel
            if not path.is_file():
                continue
            data = path.read_bytes()
            zf.writestr(rel, data)
            record.append(f"{rel},{_record_hash(data)},{len(data)}")
        record.append(f"{info_dir}/RECORD,,")
        zf.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    tmp.replace(wheel)
    return wheel


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    wheel = pack(argv[0], Path(argv[1]))
    print(f"wrote {wheel} ({wheel.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
