"""The LoRA adapter: its training data never holds an evaluation prompt; the shipped file is the
one its manifest names and, on top of the base GGUF, answers a command in the grammar."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from notillm_local.engines.grammars import GrammarSet
from notillm_local.engines.local import LocalModel
from notillm_local.export.adapter_data import (
    ADAPTER_PREFIX,
    EVAL_FILES,
    KST,
    Labeller,
    build_examples,
    eval_prompts,
    one_line,
)
from notillm_local.models.catalog import adapters_dir, sha256_of, shipped_adapter_path
from notillm_local.settings import ExtractorMode
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.extract import SlotExtractor, _keyword_candidates
from notillm_local.stages.slots import RuleSlotReader
from notillm_local.stages.timeparse import parse_time

ADAPTERS_DIR = adapters_dir()
MANIFEST = ADAPTERS_DIR / "manifest.json"


def _manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def shipped_set():
    """The training set exactly as the shipped adapter was trained on it (manifest's n, seed)."""
    cmd = _manifest()["training_data"]
    n = int(cmd.split("n_synthetic=")[1].split(",")[0])
    seed = int(cmd.split("seed=")[1].split(")")[0])
    return build_examples(n, seed=seed)


def test_eval_prompts_cover_every_evaluation_set() -> None:
    banned = eval_prompts()
    for path in EVAL_FILES:
        assert path.is_file(), path
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            inp = row.get("input", row)
            text = inp.get("prompt") or inp.get("text")
            assert one_line(text) in banned
            if inp.get("pendingOriginal"):
                assert one_line(inp["pendingOriginal"]) in banned


def test_no_evaluation_prompt_is_in_the_training_data(shipped_set) -> None:
    banned = eval_prompts()
    assert len(banned) > 300
    leaked = {e.sentence for e in shipped_set.examples} & banned
    assert not leaked, sorted(leaked)[:10]
    # Nor with different spacing: the prompt goes into the record one-lined either way.
    squashed = {b.replace(" ", "") for b in banned}
    assert not [e.sentence for e in shipped_set.examples if e.sentence.replace(" ", "") in squashed]


def test_generator_is_deterministic() -> None:
    a = build_examples(150, seed=11)
    b = build_examples(150, seed=11)
    assert a.examples == b.examples
    assert build_examples(150, seed=12).examples != a.examples


def test_every_answer_is_one_the_grammars_admit(shipped_set) -> None:
    lab = Labeller()
    labels = set(lab.installed.labels)
    for e in shipped_set.examples:
        assert e.intent in ("끄기", "허용")
        if e.apps not in ("없음", "기타"):
            apps = e.apps.split(", ")
            assert 1 <= len(apps) <= 3 and set(apps) <= labels, e
        if e.keywords != "없음":
            kws = e.keywords.split(", ")
            # The keyword grammar offers the prompt's own words (time words included: the
            # extractor blanks only time spans, which never hold a keyword).
            assert 1 <= len(kws) <= 3 and set(kws) <= set(_keyword_candidates(e.sentence)), e


def test_shipped_adapter_matches_its_manifest() -> None:
    m = _manifest()
    path = ADAPTERS_DIR / m["file"]
    assert path.stat().st_size == m["size"] <= 20 * 1024 * 1024
    assert sha256_of(path) == m["sha256"]
    assert shipped_adapter_path() == path
    assert (ADAPTERS_DIR / "prefix.txt").read_text(encoding="utf-8") == ADAPTER_PREFIX
    assert "Gemma Terms of Use" in m["licence"]


@pytest.mark.slow
def test_adapter_loads_on_the_base_model_and_answers_in_the_grammar(gguf_path: Path, table_mapper) -> None:
    sentence = "3시간 동안 인스타 알림 꺼줘"
    assert one_line(sentence) not in eval_prompts()
    model = LocalModel(gguf_path, n_ctx=512, lora_path=shipped_adapter_path())
    try:
        installed = InstalledIndex.of(Labeller().catalog)
        ex = SlotExtractor(
            RuleSlotReader(table_mapper), model, GrammarSet.load(), ExtractorMode.MODEL,
            prefix=(ADAPTERS_DIR / "prefix.txt").read_text(encoding="utf-8"),
        )
        tr = parse_time(sentence, datetime(2026, 3, 10, 9, 0, tzinfo=KST))
        spans = [(sp.start, sp.end) for sp in tr.spans]
        reading = ex.read(sentence, spans, installed)
        out = ex.decide(sentence, spans, reading, installed, timeout_s=60)
        assert out.llm_calls == 1 and out.stats is not None and out.stats.generated_tokens > 0
        assert out.reading.mute is True
        assert [m.app.label for m in out.reading.apps] == ["Instagram"]
        assert out.reading.content == []
    finally:
        model.close()
