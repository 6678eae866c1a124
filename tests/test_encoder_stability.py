"""Routing must not depend on which kernels computed the encoder's vectors (issue 14).

Two numerical paths over the same export, on whatever CPU runs the tests:

- fast: the serving session. onnxruntime's graph optimisations fuse each int8 MatMul with its
  activation quantisation and scaling (DynamicQuantizeMatMul, MatMulIntegerToFloat), and fuse
  Gelu and SkipLayerNormalization.
- reference: the same model.onnx with graph optimisations off, every op run as exported
  (DynamicQuantizeLinear, MatMulInteger, Cast, Mul, Erf, LayerNormalization one by one).

Their vectors differ by up to 0.018 (docs/encoder.md): other float rounding moves a few
activations across an int8 rounding step, and the next layers carry that on. That is the kind
of difference another CPU's float kernels make (the int8 sums themselves are the same on every
CPU since weights stay within +-64; AVX2 vs AVX-512-VNNI measured 0.0067 at most), and well
under the 0.044 the full-range weights drifted on AVX2. The chitchat gate's decisions on its
held-out set and the app matcher's answers on its alias pairs must come out identical on both
paths.
"""

from __future__ import annotations

import numpy as np
import pytest

from notillm_local.eval import data_path
from notillm_local.export.app_matcher_fit import read_alias_pairs, read_catalog
from notillm_local.models.encoder import OnnxSentenceEncoder
from notillm_local.stages.app_embed import EmbeddingAppMatcher
from notillm_local.stages.gate import LogisticChitchatGate, default_gate_path, read_labelled
from tests.fixtures_encoder import reference_encoder  # noqa: F401  (session fixture)

HELDOUT = data_path("gate_heldout.jsonl")
# The paths must really differ (else this file tests nothing) and still agree closely (else
# the reference path is broken). Measured: max |diff| 0.018, min cosine 0.9972 (docs/encoder.md).
MIN_PATH_DIFF = 1e-4
MIN_PATH_COSINE = 0.99


@pytest.fixture(scope="module")
def heldout() -> tuple[list[str], np.ndarray]:
    return read_labelled(HELDOUT)


def test_reference_is_a_second_path(
    encoder: OnnxSentenceEncoder, reference_encoder: OnnxSentenceEncoder,  # noqa: F811
    heldout: tuple[list[str], np.ndarray],
) -> None:
    texts = heldout[0][:40]
    fast, ref = encoder.embed(texts), reference_encoder.embed(texts)
    assert float(np.abs(fast - ref).max()) > MIN_PATH_DIFF, "both sessions computed the same"
    assert float((fast * ref).sum(axis=1).min()) > MIN_PATH_COSINE


def test_gate_decisions_identical(
    encoder: OnnxSentenceEncoder, reference_encoder: OnnxSentenceEncoder,  # noqa: F811
    heldout: tuple[list[str], np.ndarray],
) -> None:
    texts, _ = heldout
    fast = LogisticChitchatGate(default_gate_path(), encoder)
    ref = LogisticChitchatGate(default_gate_path(), reference_encoder)
    p_fast, p_ref = fast.p_command(texts), ref.p_command(texts)
    flipped = [
        (t, round(float(a), 4), round(float(b), 4))
        for t, a, b in zip(texts, p_fast, p_ref, strict=True)
        if (a >= fast.threshold) != (b >= fast.threshold)
    ]
    margin = float(np.abs(p_fast - fast.threshold).min())
    shift = float(np.abs(p_fast - p_ref).max())
    assert not flipped, (
        f"threshold {fast.threshold:.4f}; closest p is {margin:.4f} from it, the paths move p "
        f"by up to {shift:.4f}: {flipped}"
    )


def test_matcher_answers_identical(
    encoder: OnnxSentenceEncoder, reference_encoder: OnnxSentenceEncoder,  # noqa: F811
) -> None:
    catalog = read_catalog()
    pairs = read_alias_pairs()
    fast, ref = EmbeddingAppMatcher(encoder), EmbeddingAppMatcher(reference_encoder)
    differing = []
    for word, _ in pairs:
        a, b = fast.match(word, catalog), ref.match(word, catalog)
        got_a, got_b = (a.app.label if a else None), (b.app.label if b else None)
        if got_a != got_b:
            differing.append((word, got_a, a.score if a else None, got_b, b.score if b else None))
    assert len(pairs) >= 150
    assert not differing, differing
