"""CONTRACT.md's two scores, with the reasons a case failed.

`extract_rule_correctness` is 1 only when every field present in `expected` matches the answer;
a key left out of `expected` is not scored. `route_correctness` compares `dialogIntent`.
Both return the score and a list of `FieldDiff` so that a report can say what differed.

Scoring decisions not spelled out in CONTRACT.md (see docs/eval.md):
- `name`, `content`, `packages` and `days_of_week` compare as sets (duplicates ignored).
- `delivery` and `expires` compare as instants: the same moment in another offset matches;
  a string that is not ISO 8601 with an offset never matches.
- `targetFixed` and `condition` are scored only when `expected.ok` is true, as the contract
  says; an expected `ok=false` case is scored on `ok` and the top-level fields it gives.
- Any other top-level key present in `expected` (e.g. `dialogIntent`) must equal the answer's.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

logger = logging.getLogger(__name__)

SET_KEYS = frozenset({"name", "content", "packages", "days_of_week"})
INSTANT_KEYS = frozenset({"delivery", "expires"})
# Scored under their own rules below; every other top-level key is compared exactly.
_STRUCTURED_KEYS = frozenset({"ok", "targetFixed", "condition", "meta", "message"})


@dataclass(frozen=True)
class FieldDiff:
    """One field that differed: a dotted path, what the case expected, what the answer had."""

    field: str
    expected: Any
    got: Any

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _enum_value(v: Any) -> Any:
    # Answers may come as pydantic models with str Enums; compare their wire values.
    return getattr(v, "value", v)


def answer_dict(answer: Any) -> dict[str, Any]:
    """The answer as plain JSON-like data (accepts a pydantic model or a dict)."""
    if isinstance(answer, Mapping):
        return dict(answer)
    dump = getattr(answer, "model_dump", None)
    if dump is None:
        raise TypeError(f"cannot score an answer of type {type(answer).__name__}")
    return dict(dump(mode="json"))


def parse_instant(value: Any) -> datetime | None:
    """An aware datetime, or None when the value is not ISO 8601 with an offset."""
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else None
    if not isinstance(value, str):
        return None
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo is not None and dt.utcoffset() is not None else None


def _as_set(value: Any) -> frozenset[Any] | None:
    if not isinstance(value, list | tuple | set | frozenset):
        return None
    try:
        return frozenset(_enum_value(v) for v in value)
    except TypeError:  # unhashable members: never equal to a well-formed expectation
        return None


def _field_matches(key: str, expected: Any, got: Any) -> bool:
    if key in SET_KEYS:
        exp_set = _as_set(expected)
        return exp_set is not None and exp_set == _as_set(got)
    if key in INSTANT_KEYS:
        if expected is None or got is None:
            return expected is None and got is None
        exp_dt, got_dt = parse_instant(expected), parse_instant(got)
        return exp_dt is not None and got_dt is not None and exp_dt == got_dt
    return _enum_value(expected) == _enum_value(got)


def _diff_section(
    section: str, expected: Mapping[str, Any], got: Mapping[str, Any] | None
) -> list[FieldDiff]:
    if got is None:
        return [FieldDiff(section, dict(expected), None)]
    diffs: list[FieldDiff] = []
    for key, exp_value in expected.items():
        got_value = got.get(key)
        if key not in got or not _field_matches(key, exp_value, got_value):
            diffs.append(FieldDiff(f"{section}.{key}", exp_value, got_value))
    return diffs


def rule_diffs(expected: Mapping[str, Any], answer: Any) -> list[FieldDiff]:
    """Every field present in `expected` that the answer does not match."""
    got = answer_dict(answer)
    diffs: list[FieldDiff] = []
    exp_ok = expected.get("ok")
    if "ok" in expected and got.get("ok") is not exp_ok:
        diffs.append(FieldDiff("ok", exp_ok, got.get("ok")))
    for key, exp_value in expected.items():
        if key in _STRUCTURED_KEYS:
            continue
        got_value = got.get(key)
        if not _field_matches(key, exp_value, got_value):
            diffs.append(FieldDiff(key, exp_value, _enum_value(got_value)))
    if exp_ok is True:
        for section in ("targetFixed", "condition"):
            exp_section = expected.get(section)
            if isinstance(exp_section, Mapping):
                got_section = got.get(section)
                diffs.extend(
                    _diff_section(
                        section,
                        exp_section,
                        got_section if isinstance(got_section, Mapping) else None,
                    )
                )
    return diffs


def extract_rule_correctness(
    expected: Mapping[str, Any], answer: Any
) -> tuple[int, list[FieldDiff]]:
    """1 when every field present in `expected` matches the answer, else 0; plus the diffs."""
    diffs = rule_diffs(expected, answer)
    return (0 if diffs else 1), diffs


def expected_dialog_intent(
    expected: Mapping[str, Any], case_input: Mapping[str, Any] | None = None
) -> str:
    """The dialogIntent a case expects, derived when the case does not give one.

    A pending turn (input.pending, or an expected pendingAction) is "pending" whatever it
    resolves to, since the answer's pendingAction carries the detail; chitchat is "reject";
    everything else, ok or not (incomplete, app_unresolved, invalid_time ...), is "extract".
    """
    given = expected.get("dialogIntent")
    if given is not None:
        return str(_enum_value(given))
    if expected.get("pendingAction") is not None or (case_input or {}).get("pending") is True:
        return "pending"
    if expected.get("failReason") == "chitchat":
        return "reject"
    return "extract"


def route_correctness(
    expected: Mapping[str, Any], answer: Any, case_input: Mapping[str, Any] | None = None
) -> tuple[int, list[FieldDiff]]:
    """1 when the answer's dialogIntent equals the expected (or derived) one, else 0."""
    want = expected_dialog_intent(expected, case_input)
    got = _enum_value(answer_dict(answer).get("dialogIntent"))
    if got == want:
        return 1, []
    return 0, [FieldDiff("dialogIntent", want, got)]
