"""The local model wrapper: loading, prefix reuse, grammar-held decoding, the request queue."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from notillm_local.engines.local import GenerationStats, LocalModel
from notillm_local.errors import DeadlineExceeded, ModelLoadError, Overloaded
from notillm_local.models.catalog import load_catalog, sha256_of, verify


def test_missing_and_corrupt_files_raise_model_load_error(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError):
        LocalModel(tmp_path / "missing.gguf")
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf at all")
    with pytest.raises(ModelLoadError):
        LocalModel(bad)


def test_catalog_hash_check_catches_a_changed_file(tmp_path: Path, gguf_path: Path) -> None:
    entry = load_catalog()["gemma-3-270m-q4_k_m"]
    verify(gguf_path, entry)  # the real file passes
    fake = tmp_path / entry.file
    with fake.open("wb") as fh:
        fh.truncate(entry.size)  # right size, wrong bytes
    with pytest.raises(ModelLoadError, match="sha256"):
        verify(fake, entry)
    assert sha256_of(gguf_path) == entry.sha256


def test_generation_follows_the_grammar_and_reuses_the_prefix(local_model) -> None:
    prefix = local_model.bos() + local_model.tokenize("질문: 하늘은 무슨 색인가?\n답:")
    g = local_model.grammar('root ::= " " ("파랑" | "빨강" | "초록") "\\n"')
    with local_model.turn(timeout_s=30, max_waiting=2):
        first = GenerationStats()
        out = local_model.generate(prefix, g, max_tokens=8, stats=first)
        second = GenerationStats()
        g2 = local_model.grammar('root ::= " " ("파랑" | "빨강" | "초록") "\\n"')
        out2 = local_model.generate(prefix, g2, max_tokens=8, stats=second)
    assert out.strip() in {"파랑", "빨강", "초록"}
    assert out2 == out  # greedy: same prompt, same answer
    assert second.reused_tokens >= len(prefix) - 1
    assert second.prompt_tokens <= 1


def test_queue_is_bounded_and_has_a_deadline(local_model) -> None:
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with local_model.turn(timeout_s=5, max_waiting=4):
            held.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(5)
    try:
        with pytest.raises(DeadlineExceeded), local_model.turn(timeout_s=0.2, max_waiting=4):
            pass
        with pytest.raises(Overloaded), local_model.turn(timeout_s=0.2, max_waiting=0):
            pass
    finally:
        release.set()
        t.join()
    with local_model.turn(timeout_s=1, max_waiting=1):
        pass  # free again
