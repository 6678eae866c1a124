"""What ``parse_time`` returns, and the failure that carries a non-OK outcome up to it.

The public result types are what the rest of the service imports (through the package); they
sit apart so that every stage of the parser can raise ``_Fail`` with an outcome and an axis
without importing the parser itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from notillm_local.domain import TimeCondition


class TimeOutcome(StrEnum):
    OK = "ok"
    NO_TIME = "no_time"
    CONFLICT = "conflict"
    INVALID_TIME = "invalid_time"
    # Time words were found that the parser cannot read exactly ("다음 달 첫째 주", "격주",
    # "설날까지", "다음 월요일" said early in the week): the service asks instead of guessing.
    UNCLEAR = "unclear"


class TimeAxis(StrEnum):
    DURATION = "duration"
    UNTIL_ABSOLUTE = "until_absolute"
    RELATIVE_DELAY = "relative_delay"
    DAILY = "daily"
    WEEKLY = "weekly"
    WINDOW = "window"  # a one-off window, "오후 3시부터 5시까지"


@dataclass(frozen=True)
class TimeSpan:
    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text}


@dataclass(frozen=True)
class TimeResult:
    """What ``parse_time`` read.

    ``spans`` cover every character the parser consumed (markers and English words included), so
    text outside them is not time. ``unread`` lists words inside or beside a time expression that
    look like part of it but were not read; when it is not empty the outcome is never OK.
    """

    outcome: TimeOutcome
    condition: TimeCondition | None
    axis: TimeAxis | None
    spans: tuple[TimeSpan, ...]
    reason: str | None
    unread: tuple[TimeSpan, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "axis": self.axis.value if self.axis is not None else None,
            "condition": self.condition.to_contract() if self.condition is not None else None,
            "spans": [s.to_json() for s in self.spans],
            "unread": [s.to_json() for s in self.unread],
            "reason": self.reason,
        }


class _Fail(Exception):
    def __init__(self, outcome: TimeOutcome, reason: str, axis: TimeAxis | None = None) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason
        self.axis = axis
