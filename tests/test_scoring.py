"""The scorer against hand-made right and wrong answers (CONTRACT.md, docs/eval.md)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from notillm_local.contract.schemas import HandleResponse
from notillm_local.eval.scoring import (
    expected_dialog_intent,
    extract_rule_correctness,
    parse_instant,
    route_correctness,
)

EXPECTED: dict[str, Any] = {
    "ok": True,
    "dialogIntent": "extract",
    "targetFixed": {
        "mute": True,
        "all": False,
        "name": ["카카오톡", "메시지"],
        "content": ["스팸", "광고"],
        "packages": ["com.kakao.talk", "com.samsung.android.messaging"],
    },
    "condition": {
        "delivery": "2026-08-14T21:30:00+09:00",
        "expires": "2026-08-14T23:30:00+09:00",
        "recurrence": "weekly",
        "days_of_week": [1, 3, 5],
        "window_start": "22:00",
        "window_end": "06:00",
        "activity": "driving",
    },
}


def right_answer() -> dict[str, Any]:
    return {
        "ok": True,
        "dialogIntent": "extract",
        "pendingAction": None,
        "needsSupplement": False,
        "failReason": None,
        "message": "아무 말",
        "targetFixed": {
            "mute": True,
            "all": False,
            "name": ["메시지", "카카오톡"],  # other order
            "content": ["광고", "스팸"],
            "packages": ["com.samsung.android.messaging", "com.kakao.talk"],
        },
        "condition": {
            "delivery": "2026-08-14T12:30:00+00:00",  # same instant, other offset
            "expires": "2026-08-14T23:30:00+09:00",
            "recurrence": "weekly",
            "days_of_week": [5, 1, 3],
            "window_start": "22:00",
            "window_end": "06:00",
            "activity": "driving",
            "location": "work",  # not in expected: not scored
        },
        "meta": {
            "engine": "local",
            "llmCalls": 1,
            "hostedCalls": 0,
            "fallbackUsed": False,
            "latencyMs": 1.0,
            "costUsd": 0.0,
            "model": "m",
        },
    }


def test_right_answer_scores_one() -> None:
    score, diffs = extract_rule_correctness(EXPECTED, right_answer())
    assert (score, diffs) == (1, [])
    assert route_correctness(EXPECTED, right_answer()) == (1, [])


def test_pydantic_answer_is_accepted() -> None:
    answer = HandleResponse.model_validate(right_answer())
    assert extract_rule_correctness(EXPECTED, answer)[0] == 1
    assert route_correctness(EXPECTED, answer)[0] == 1


@pytest.mark.parametrize(
    ("path", "wrong"),
    [
        ("ok", False),
        ("dialogIntent", "pending"),
        ("targetFixed.mute", False),
        ("targetFixed.all", True),
        ("targetFixed.name", ["카카오톡"]),
        ("targetFixed.name", ["카카오톡", "메시지", "Slack"]),
        ("targetFixed.content", ["스팸"]),
        ("targetFixed.content", ["스팸", "광고", "메세지"]),
        ("targetFixed.packages", ["com.kakao.talk"]),
        ("condition.delivery", "2026-08-14T21:31:00+09:00"),
        ("condition.delivery", "2026-08-14T21:30:00"),  # no offset: never an instant
        ("condition.delivery", "not a time"),
        ("condition.expires", "2026-08-14T23:30:00+00:00"),  # same wall time, other instant
        ("condition.expires", None),
        ("condition.recurrence", "daily"),
        ("condition.days_of_week", [1, 3]),
        ("condition.days_of_week", [1, 3, 5, 7]),
        ("condition.window_start", "22:30"),
        ("condition.window_end", None),
        ("condition.activity", None),
    ],
)
def test_each_field_mismatch_is_detected(path: str, wrong: Any) -> None:
    answer = right_answer()
    node = answer
    *parents, leaf = path.split(".")
    for p in parents:
        node = node[p]
    node[leaf] = wrong
    score, diffs = extract_rule_correctness(EXPECTED, answer)
    assert score == 0
    assert [d.field for d in diffs] == [path]
    assert diffs[0].got == wrong


def test_missing_key_in_answer_is_a_mismatch() -> None:
    answer = right_answer()
    del answer["condition"]["window_start"]
    score, diffs = extract_rule_correctness(EXPECTED, answer)
    assert score == 0 and diffs[0].field == "condition.window_start"


def test_null_sections_when_ok_expected() -> None:
    answer = right_answer()
    answer.update(ok=False, failReason="incomplete", targetFixed=None, condition=None)
    score, diffs = extract_rule_correctness(EXPECTED, answer)
    assert score == 0
    assert {d.field for d in diffs} == {"ok", "targetFixed", "condition"}


def test_keys_left_out_are_not_scored() -> None:
    expected = {
        "ok": True,
        "targetFixed": {"name": ["카카오톡"]},
        "condition": {"recurrence": "none"},
    }
    answer = right_answer()
    answer["targetFixed"].update(name=["카카오톡"], mute=False, content=["뭐든"])
    answer["condition"].update(recurrence="none", delivery="garbage")
    answer["dialogIntent"] = "pending"
    assert extract_rule_correctness(expected, answer) == (1, [])


def test_fail_case_scores_top_level_fields_only() -> None:
    expected = {
        "ok": False,
        "failReason": "incomplete",
        "needsSupplement": True,
        "targetFixed": {"name": ["X"]},
    }  # ignored: ok=false
    answer = {
        "ok": False,
        "dialogIntent": "extract",
        "failReason": "incomplete",
        "needsSupplement": True,
        "targetFixed": None,
        "condition": None,
    }
    assert extract_rule_correctness(expected, answer) == (1, [])
    for field, wrong in (
        ("failReason", "app_unresolved"),
        ("needsSupplement", False),
        ("ok", True),
    ):
        bad = dict(answer, **{field: wrong})
        score, diffs = extract_rule_correctness(expected, bad)
        assert score == 0 and [d.field for d in diffs] == [field]


def test_pending_action_scored_when_given() -> None:
    expected = {
        "ok": False,
        "failReason": "cancelled",
        "needsSupplement": False,
        "pendingAction": "CANCEL",
    }
    answer = {
        "ok": False,
        "dialogIntent": "pending",
        "pendingAction": "CANCEL",
        "failReason": "cancelled",
        "needsSupplement": False,
    }
    assert extract_rule_correctness(expected, answer)[0] == 1
    score, diffs = extract_rule_correctness(expected, dict(answer, pendingAction="UNRESOLVED"))
    assert score == 0 and diffs[0].field == "pendingAction"
    score, _ = extract_rule_correctness(expected, dict(answer, pendingAction=None))
    assert score == 0


def test_set_fields_ignore_duplicates_but_not_members() -> None:
    expected = {"ok": True, "targetFixed": {"name": ["카카오톡"]}}
    answer = right_answer()
    answer["targetFixed"]["name"] = ["카카오톡", "카카오톡"]
    assert extract_rule_correctness(expected, answer)[0] == 1
    answer["targetFixed"]["name"] = "카카오톡"  # a string is not a list
    assert extract_rule_correctness(expected, answer)[0] == 0


def test_instants_across_offsets() -> None:
    assert parse_instant("2026-08-14T21:30:00+09:00") == parse_instant("2026-08-14T12:30:00Z")
    assert parse_instant("2026-08-14T21:30:00+09:00") == parse_instant("2026-08-14T08:30:00-04:00")
    assert parse_instant("2026-08-14T21:30:00") is None
    expected = {"ok": True, "condition": {"expires": "2026-08-15T00:00:00+09:00"}}
    answer = right_answer()
    answer["condition"]["expires"] = "2026-08-14T15:00:00Z"
    assert extract_rule_correctness(expected, answer)[0] == 1
    answer["condition"]["expires"] = "2026-08-14T15:00:01Z"
    assert extract_rule_correctness(expected, answer)[0] == 0


def test_route_derivation() -> None:
    assert expected_dialog_intent({"ok": False, "failReason": "chitchat"}) == "reject"
    assert expected_dialog_intent({"ok": False, "failReason": "incomplete"}) == "extract"
    assert expected_dialog_intent({"ok": True}) == "extract"
    assert expected_dialog_intent({"ok": False, "pendingAction": "CANCEL"}) == "pending"
    assert expected_dialog_intent({"ok": True}, {"pending": True}) == "pending"
    assert expected_dialog_intent({"ok": True, "dialogIntent": "reject"}) == "reject"


def test_route_mismatch_reports_dialog_intent() -> None:
    expected = {"ok": False, "failReason": "chitchat", "dialogIntent": "reject"}
    answer = copy.deepcopy(right_answer())
    score, diffs = route_correctness(expected, answer)
    assert score == 0
    assert diffs[0].field == "dialogIntent" and diffs[0].expected == "reject"
    assert diffs[0].got == "extract"
