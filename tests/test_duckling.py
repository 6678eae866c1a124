"""Duckling's Korean time corpus as a test of the time module (scripts/duckling_compare.py).

Every phrase of Duckling's Korean time and duration corpora (tests/data/duckling_ko/) is put in
a command frame and parsed at Duckling's reference time. No phrase may be read as a different
time than Duckling's unless a decision in docs/time.md says so, and most in-scope phrases must be
read exactly as Duckling reads them.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "duckling_ko"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def compare() -> ModuleType:
    return _load("duckling_compare", ROOT / "scripts" / "duckling_compare.py")


@pytest.fixture(scope="module")
def rows(compare: ModuleType) -> list:
    return compare.compare()  # type: ignore[no-any-return]


def test_corpus_is_the_converted_haskell() -> None:
    converter = _load("duckling_ko_converter", ROOT / "scripts" / "data" / "duckling_ko.py")
    assert (DATA / "corpus.jsonl").read_text(encoding="utf-8") == converter.build()
    assert (DATA / "LICENSE").read_text(encoding="utf-8").startswith("BSD License")


def test_no_phrase_is_read_as_a_different_time(rows: list) -> None:
    different = [(r.id, r.frame, r.got) for r in rows if r.klass == "different"]
    assert different == []


def test_most_in_scope_phrases_read_as_duckling_reads_them(rows: list, compare: ModuleType) -> None:
    summary = compare.summary(rows)
    assert summary["scope"]["in"] >= 100
    assert summary["same_share_in"] >= 0.85, summary


def test_past_phrases_are_refused(rows: list) -> None:
    past = [r for r in rows if r.scope == "past"]
    assert past and all(r.klass == "refused" for r in past)
    assert all(r.got["outcome"] in ("invalid_time", "no_time", "unclear") for r in past)


def test_every_decision_is_documented_and_used(rows: list) -> None:
    doc = (ROOT / "docs" / "time.md").read_text(encoding="utf-8")
    decisions = json.loads((DATA / "decisions.json").read_text(encoding="utf-8"))["decisions"]
    used = {r.decision for r in rows if r.decision}
    for decision in decisions:
        assert f"`{decision['name']}`" in doc, decision["name"]
        for pid in decision["expect"]:
            assert pid in doc, pid
        assert decision["name"] in used, decision["name"]


def test_every_phrase_is_classified_once(rows: list, compare: ModuleType) -> None:
    ids = [r.id for r in rows]
    assert (
        len(ids)
        == len(set(ids))
        == len((DATA / "corpus.jsonl").read_text(encoding="utf-8").splitlines())
    )
    assert {r.klass for r in rows} <= set(compare.CLASSES)
    assert {r.scope for r in rows} <= set(compare.SCOPES)
