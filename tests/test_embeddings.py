"""The int8 ONNX encoder: golden values, normalisation, and refusal of broken model files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from notillm_local.errors import ModelLoadError
from notillm_local.export.encoder import (
    MANIFEST_FILE,
    MODEL_FILE,
    WEIGHT_ABS_MAX,
    max_matmul_weight,
    sha256_file,
    weights_hash,
)
from notillm_local.export.prepare import ensure_encoder
from notillm_local.models.encoder import OnnxSentenceEncoder
from notillm_local.settings import Settings

GOLDEN = json.loads((Path(__file__).parent / "data" / "encoder_golden.json").read_text("utf-8"))
# Another CPU runs other kernels. With weights within +-64 the int8 sums are the same on every
# CPU; float rounding still moves long texts a little. The tolerances are twice the spread
# measured between AVX2 and AVX-512-VNNI kernels (0.0029 on the first 8 dims, 0.0036 on pair
# cosines, 513 texts; the golden file's "tolerance" block and docs/encoder.md). The full-range
# export this replaced drifted 0.0156 on these very sentences, which these tolerances catch.
DIM_TOL = float(GOLDEN["tolerance"]["first8_abs"])
COS_TOL = float(GOLDEN["tolerance"]["cosine_abs"])


def test_identity_matches_golden(encoder: OnnxSentenceEncoder) -> None:
    assert encoder.model_id == GOLDEN["model_id"]
    assert encoder.dim == 384


@pytest.mark.parametrize("kind", ["query", "passage"])
def test_first_dims_match_golden(encoder: OnnxSentenceEncoder, kind: str) -> None:
    golden = GOLDEN[f"{kind}_first8"]
    vecs = encoder.embed(list(golden), kind)  # type: ignore[arg-type]
    for row, (text, want) in zip(vecs, golden.items(), strict=True):
        np.testing.assert_allclose(row[:8], want, atol=DIM_TOL, err_msg=text)


def test_pairwise_cosines_match_golden(encoder: OnnxSentenceEncoder) -> None:
    for pair in GOLDEN["query_cosines"]:
        a, b = encoder.embed([pair["a"], pair["b"]])
        assert float(a @ b) == pytest.approx(pair["cos"], abs=COS_TOL), pair


def test_int8_weights_cannot_saturate_without_vnni(encoder: OnnxSentenceEncoder) -> None:
    # AVX2 adds pairs of u8 x s8 products into int16 (vpmaddubsw) and saturates above 32767;
    # 2 * 255 * 64 fits, 2 * 255 * 127 does not (issue 14: 2 of 8 golden dims off on AVX2).
    assert max_matmul_weight(encoder.model_dir / MODEL_FILE) <= WEIGHT_ABS_MAX
    assert 2 * 255 * WEIGHT_ABS_MAX <= 32767


def test_vectors_are_unit_length_and_batch_invariant(encoder: OnnxSentenceEncoder) -> None:
    texts = ["안녕", "지금부터 2시간 카톡 알림 받지마", "매일 밤 10시부터 아침 6시까지 모든 알림 꺼줘"]
    batch = encoder.embed(texts)
    assert batch.shape == (3, 384) and batch.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    # padding in a batch must not change a text's vector
    for text, row in zip(texts, batch, strict=True):
        assert float(encoder.embed([text])[0] @ row) > 0.9999
    assert encoder.embed([]).shape == (0, 384)


def test_query_and_passage_prefixes_differ(encoder: OnnxSentenceEncoder) -> None:
    q = encoder.embed(["카카오톡"], "query")[0]
    p = encoder.embed(["카카오톡"], "passage")[0]
    assert 0.8 < float(q @ p) < 0.9999


def test_plausible_ranking(encoder: OnnxSentenceEncoder) -> None:
    # the hosted seed's failure: 플레이스토어 must be nearer Play 스토어 than the AI-settings app
    w, good, bad = encoder.embed(["플레이스토어", "Play 스토어", "퍼스널 데이터 인텔리전스"])
    assert float(w @ good) > float(w @ bad) + 0.05


def _copy_small(src: Path, dst: Path) -> Path:
    """A copy of the encoder dir with the big model file linked rather than copied."""
    dst.mkdir()
    for f in src.iterdir():
        if f.name == MODEL_FILE:
            (dst / f.name).symlink_to(f.resolve())
        else:
            shutil.copy2(f, dst / f.name)
    return dst


def test_missing_directory_raises(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="manifest missing"):
        OnnxSentenceEncoder(tmp_path / "nope").load()


def test_missing_file_raises(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    d = _copy_small(encoder.model_dir, tmp_path / "enc")
    (d / "tokenizer.json").unlink()
    with pytest.raises(ModelLoadError, match="missing"):
        OnnxSentenceEncoder(d).load()


def test_hash_mismatch_raises(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    d = _copy_small(encoder.model_dir, tmp_path / "enc")
    cfg = d / "encoder_config.json"
    raw = bytearray(cfg.read_bytes())
    raw[-2] = ord(" ") if raw[-2] != ord(" ") else ord("\t")  # same size, other bytes
    cfg.write_bytes(bytes(raw))
    with pytest.raises(ModelLoadError, match="manifest hash"):
        OnnxSentenceEncoder(d).load()


def test_corrupt_model_raises(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    # garbage whose hash the manifest agrees with: onnxruntime itself must refuse it
    d = _copy_small(encoder.model_dir, tmp_path / "enc")
    (d / MODEL_FILE).unlink()
    (d / MODEL_FILE).write_bytes(b"not an onnx model" * 64)
    manifest = json.loads((d / MANIFEST_FILE).read_text("utf-8"))
    manifest["files"][MODEL_FILE] = {
        "sha256": sha256_file(d / MODEL_FILE), "bytes": (d / MODEL_FILE).stat().st_size
    }
    manifest["weights_hash"] = weights_hash(manifest["files"])
    (d / MANIFEST_FILE).write_text(json.dumps(manifest), "utf-8")
    with pytest.raises(ModelLoadError, match="failed to load"):
        OnnxSentenceEncoder(d).load()


def test_ensure_encoder_reuses_and_refuses(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    assert ensure_encoder(Settings(encoder_path=encoder.model_dir)) == encoder.model_dir
    with pytest.raises(ModelLoadError):
        ensure_encoder(Settings(encoder_path=tmp_path / "absent"))
