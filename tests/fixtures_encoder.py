"""The real ONNX encoder for tests, exported once per machine into the cache.

Import the fixture from tests/conftest.py: `from fixtures_encoder import encoder  # noqa: F401`.
The first run on a fresh cache exports the encoder (about half a minute, needs the `export`
extra); later runs only load it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from notillm_local.export.prepare import ensure_encoder
from notillm_local.models.encoder import OnnxSentenceEncoder
from notillm_local.settings import Settings


def encoder_cache_dir() -> Path:
    return Path(os.environ.get("NOTILLM_CACHE_DIR", "~/.cache/notillm-local")).expanduser()


@pytest.fixture(scope="session")
def encoder() -> Iterator[OnnxSentenceEncoder]:
    path = ensure_encoder(Settings(cache_dir=encoder_cache_dir()), progress=True)
    yield OnnxSentenceEncoder(path).load()


@pytest.fixture(scope="session")
def reference_encoder(encoder: OnnxSentenceEncoder) -> OnnxSentenceEncoder:
    """The same export with onnxruntime's graph optimisations off: a second numerical path.

    Every op runs as exported (DynamicQuantizeLinear, MatMulInteger, Erf, LayerNormalization
    one by one) instead of the fused int8 kernels serving uses; tests/test_encoder_stability.py
    compares the decisions both paths lead to.
    """
    return OnnxSentenceEncoder(encoder.model_dir, optimise_graph=False).load()
