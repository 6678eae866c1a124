"""The dev set is well-formed, covers every tag value, and shares no prompt with training data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from notillm_local.contract.schemas import (
    Condition,
    DialogIntent,
    FailReason,
    HandleRequest,
    PendingAction,
    TargetFixed,
)
from notillm_local.eval import DATA_DIR
from notillm_local.eval.scoring import parse_instant

DATA = DATA_DIR
DEV = DATA / "dev.jsonl"
EXAMPLES = DATA / "examples.jsonl"
TRAINING_FILES = ["train.jsonl", "gate_train.jsonl"]
TAG_VALUES = {
    "intent": {"mute", "allow", "reject"},
    "time": {"duration", "until_absolute", "relative_delay", "daily", "weekly"},
    "target": {"all", "single_app", "multi_app", "content", "app_and_content"},
}
MIN_PER_TAG_VALUE = 5
MIN_DEV_CASES = 200
MIN_PENDING = 40
MIN_TRAIN_CASES = 100


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _norm(text: str) -> str:
    return " ".join(text.split())


def _texts(rows: list[dict[str, Any]]) -> set[str]:
    """Every user text in a file: case prompts (and pending originals) or gate `text` rows."""
    out: set[str] = set()
    for row in rows:
        inp = row.get("input")
        if isinstance(inp, dict):
            out.add(_norm(inp["prompt"]))
        elif isinstance(row.get("text"), str):
            out.add(_norm(row["text"]))
        elif isinstance(row.get("prompt"), str):
            out.add(_norm(row["prompt"]))
    return out


@pytest.fixture(scope="module")
def dev() -> list[dict[str, Any]]:
    return _load(DEV)


def _examples() -> list[dict[str, Any]]:
    return _load(EXAMPLES)


def test_dev_size_and_unique_ids(dev: list[dict[str, Any]]) -> None:
    assert len(dev) >= MIN_DEV_CASES
    ids = [c["id"] for c in dev]
    assert len(ids) == len(set(ids))


def test_every_dev_case_is_contract_format(dev: list[dict[str, Any]]) -> None:
    for case in dev:
        cid = case["id"]
        assert set(case) == {"id", "input", "expected", "tags"}, cid
        req = HandleRequest.model_validate(case["input"])
        assert req.prompt == case["input"]["prompt"], cid
        assert case["input"]["pending"] == (case["input"]["pendingOriginal"] is not None), cid
        exp = case["expected"]
        assert isinstance(exp["ok"], bool), cid
        assert exp.get("dialogIntent") in {d.value for d in DialogIntent}, cid
        if "pendingAction" in exp:
            PendingAction(exp["pendingAction"])
            assert case["input"]["pending"], cid
        if exp["ok"]:
            assert "failReason" not in exp, cid
            tf, cond = exp["targetFixed"], exp["condition"]
            assert set(tf) <= set(TargetFixed.model_fields), cid
            assert set(cond) <= set(Condition.model_fields), cid
            if tf.get("all"):
                assert tf["name"] == tf["content"] == tf["packages"] == [], cid
            if "name" in tf and "packages" in tf:
                assert len(tf["name"]) == len(tf["packages"]), cid
            now = parse_instant(case["input"]["currentTime"])
            offset = now.utcoffset() if now else None
            for key in ("delivery", "expires"):
                if key in cond:
                    t = parse_instant(cond[key])
                    assert t is not None and t.utcoffset() == offset, (cid, key)
            if "delivery" in cond and "expires" in cond:
                assert parse_instant(cond["expires"]) > parse_instant(cond["delivery"]), cid
                assert parse_instant(cond["expires"]) > now, cid
            if cond.get("recurrence") == "weekly":
                assert cond["days_of_week"] and all(1 <= d <= 7 for d in cond["days_of_week"]), cid
        else:
            FailReason(exp["failReason"])
            assert "targetFixed" not in exp and "condition" not in exp, cid
            if exp["failReason"] == "incomplete":
                assert exp.get("needsSupplement") is True, cid
        for key, value in case["tags"].items():
            if key in TAG_VALUES:
                assert value in TAG_VALUES[key], (cid, key, value)


def test_tag_coverage(dev: list[dict[str, Any]]) -> None:
    for key, values in TAG_VALUES.items():
        counts = Counter(c["tags"].get(key) for c in dev)
        for value in values:
            assert counts[value] >= MIN_PER_TAG_VALUE, (key, value, counts[value])


def test_pending_cases(dev: list[dict[str, Any]]) -> None:
    pending = [c for c in dev if c["input"]["pending"]]
    assert len(pending) >= MIN_PENDING
    actions = Counter(c["expected"].get("pendingAction") for c in pending)
    for action in PendingAction:
        assert actions[action.value] >= 5, (action, actions[action.value])


def test_no_prompt_shared_with_training_files(dev: list[dict[str, Any]]) -> None:
    scored = _texts(dev) | _texts(_examples())
    checked = 0
    for name in TRAINING_FILES:
        path = DATA / name
        if not path.exists():
            continue
        checked += 1
        shared = scored & _texts(_load(path))
        assert not shared, f"{name} shares prompts with dev/examples: {sorted(shared)[:10]}"
    assert checked >= 1, "no training file found"


def test_dev_and_examples_are_distinct(dev: list[dict[str, Any]]) -> None:
    assert not _texts(dev) & _texts(_examples())


def test_train_file_is_contract_format() -> None:
    train = _load(DATA / "train.jsonl")
    assert len(train) >= MIN_TRAIN_CASES
    for case in train:
        HandleRequest.model_validate(case["input"])
        assert isinstance(case["expected"]["ok"], bool)
