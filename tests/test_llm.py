"""The local model wrapper: loading, prefix reuse, grammar-held decoding, the request queue."""

from __future__ import annotations

import ctypes
import logging
import threading
from pathlib import Path

import numpy as np
import pytest

from notillm_local.engines.grammars import GrammarSet
from notillm_local.engines.local import GenerationStats, LocalModel, route_native_logs
from notillm_local.errors import DeadlineExceeded, ExtractionError, ModelLoadError, Overloaded
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
    # The full mask every step: no shortlist, so nothing to fall back from.
    assert first.full_vocab_fallbacks == 0
    # The closing newline (and whatever else the grammar forces once the colour's first piece
    # is chosen) is the grammar's, not the model's: taken without a model pass of its own.
    assert first.forced_tokens >= 1
    assert first.generated_tokens + first.forced_tokens >= 2


def test_a_grammar_object_can_be_used_again(local_model) -> None:
    prefix = local_model.bos() + local_model.tokenize("질문: 하늘은 무슨 색인가?\n답:")
    g = local_model.grammar('root ::= " " ("파랑" | "빨강") "\\n"')
    with local_model.turn(timeout_s=30, max_waiting=2):
        a = local_model.generate(prefix, g, max_tokens=8)
        b = local_model.generate(prefix, g, max_tokens=8)
    assert a == b


def test_tokens_the_grammar_forces_are_not_asked_of_the_model(local_model) -> None:
    """After the one choice, the grammar leaves nothing to choose: the rest is taken in one
    batch, without a model pass per token, and the answer is the grammar's text exactly."""
    prefix = local_model.bos() + local_model.tokenize("질문: 어느 쪽?\n답:")
    g = local_model.grammar('root ::= " " ("가" | "나") " 다른 기기에서도 전화/문자하기" "\\n"')
    stats = GenerationStats()
    with local_model.turn(timeout_s=30, max_waiting=2):
        out = local_model.generate(prefix, g, max_tokens=32, stats=stats)
    assert out.strip() in {"가 다른 기기에서도 전화/문자하기", "나 다른 기기에서도 전화/문자하기"}
    assert stats.generated_tokens <= 2  # the choice (its space may be a token of its own)
    assert stats.forced_tokens >= 4


def test_too_few_tokens_is_an_extraction_error(local_model) -> None:
    prefix = local_model.bos() + local_model.tokenize("질문: 하늘은 무슨 색인가?\n답:")
    g = local_model.grammar('root ::= " " "다른 기기에서도 전화/문자하기" "\\n"')
    with local_model.turn(timeout_s=30, max_waiting=2), pytest.raises(ExtractionError):
        local_model.generate(prefix, g, max_tokens=2)


def _reference_decode(model: LocalModel, prompt: list[int], grammar: str, max_tokens: int) -> str:
    """Greedy under llama.cpp's own GBNF engine, asked about the whole vocabulary each step."""
    g = model.llama_cpp_grammar(grammar)
    every = np.arange(model._n_vocab, dtype=np.int32)
    model.feed(prompt)
    out = b""
    try:
        for _ in range(max_tokens):
            logits = model._last_logits()
            allowed = g.allowed(every)
            tok = int(np.argmax(np.where(allowed, logits, -np.inf)))
            g.accept(tok)
            out += model.piece(tok)
            text = out.decode("utf-8", errors="ignore")
            if text.endswith("\n"):
                return text[:-1]
            model._append(tok)
    finally:
        g.close()
    raise AssertionError("reference decode did not finish")


def test_decoder_matches_llama_cpp_grammar_over_the_whole_vocabulary(local_model) -> None:
    """llguidance's full mask picks what llama.cpp's engine would, asked about every token."""
    grammars = GrammarSet.load()
    m = local_model
    labels = ["카카오톡", "메시지", "Instagram", "YouTube", "Slack", "전화"]
    cases = [
        ("지금부터 2시간 카톡이랑 인스타 알림 받지마\n의도: 끄기\n앱:", grammars.apps_for(labels)),
        ("슬랙 빼고 다 꺼줘\n의도:", grammars.intent),
        ("택배 알림만 받을래\n의도: 허용\n앱: 없음\n키워드:",
         grammars.keywords_for(["택배", "알림만", "받을래"])),
    ]
    with m.turn(timeout_s=60, max_waiting=2):
        for text, grammar in cases:
            prompt = m.bos() + m.tokenize("문장: " + text)
            ours = m.generate(prompt, m.grammar(grammar), max_tokens=24)
            assert ours == _reference_decode(m, prompt, grammar, 24), text


def test_prompt_words_never_reach_stderr(local_model, capfd, caplog) -> None:
    """Words no engine can take are left out of the grammar; nothing native prints them."""
    caplog.set_level(logging.DEBUG)
    grammars = GrammarSet.load()
    m = local_model
    words = ["비밀\x00문자", "\ud800x", "택배", "ctl\x1bword"]
    prompt = m.bos() + m.tokenize("문장: 택배 알림만 받을래\n의도: 허용\n앱: 없음\n키워드:")
    with m.turn(timeout_s=60, max_waiting=2):
        out = m.generate(prompt, m.grammar(grammars.keywords_for(words)), max_tokens=16)
    assert out.strip() in {"택배", "없음"}
    assert capfd.readouterr().err == ""
    assert "비밀" not in caplog.text


def test_llama_cpp_logs_go_to_python_logging_without_text(local_model, capfd, caplog) -> None:
    import llama_cpp

    caplog.set_level(logging.DEBUG, logger="notillm_local.engines.local")
    # A grammar without the asked-for root: llama.cpp reports it through its log callback.
    smpl = llama_cpp.llama_sampler_init_grammar(
        local_model._vocab, 'secret ::= "비밀"'.encode(), b"root"
    )
    assert not smpl
    assert capfd.readouterr().err == ""
    assert "llama.cpp error withheld" in caplog.text
    assert "root" not in caplog.text
    caplog.clear()
    route_native_logs(privacy=False)
    try:
        llama_cpp.llama_sampler_init_grammar(
            local_model._vocab, 'secret ::= "비밀"'.encode(), b"root"
        )
    finally:
        route_native_logs(privacy=True)
    assert "does not contain a 'root' symbol" in caplog.text
    assert capfd.readouterr().err == ""
    assert ctypes  # the callback is a ctypes function kept alive by the module


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
