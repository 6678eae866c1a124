"""The evaluation harness (`notillm-local eval|bench`) and its data; serving never imports it."""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"


def data_path(name: str) -> Path:
    """A file of the shipped evaluation and training data (eval/data/)."""
    return DATA_DIR / name
