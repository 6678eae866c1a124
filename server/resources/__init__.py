"""Files that ship inside the package: grammars, the app catalog and word tables, the trained
gate, the LoRA adapter and its manifest, the model catalog.

Read through `path()` so that an installed wheel, an editable install and a checkout all find
the same files; the large model files (the GGUF, the exported encoder) live in the cache dir.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def path(*parts: str) -> Path:
    """A file shipped in this package, as a real path (llama.cpp and onnxruntime need one).

    Wheels and editable installs unpack packages as plain directories, so the resource is a
    file on disk; a zipped install is not supported and fails here with a clear message.
    """
    found = Path(str(files(__name__).joinpath(*parts)))
    if not found.exists():
        raise FileNotFoundError(f"packaged resource missing: {'/'.join(parts)} (looked in {found})")
    return found
