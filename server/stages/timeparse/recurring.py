"""Pass 3b, recurring rules: daily and weekly windows, and the occurrence in force now.

A recurring rule keeps its window as minutes of the day (overnight windows end the next
day); its delivery and expiry are the occurrence in force now, else the next one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from notillm_local.domain import TimeCondition
from notillm_local.stages.timeparse.dates import _at, _tz
from notillm_local.stages.timeparse.model import _Clock, _Plan, _Token
from notillm_local.stages.timeparse.plan import _is_today
from notillm_local.stages.timeparse.resolve import _length, _one, _promote_ats
from notillm_local.stages.timeparse.results import TimeAxis, TimeOutcome, _Fail


def _resolve_recurring(plan: _Plan, now: datetime) -> TimeCondition:
    weekly = bool(plan.days) or plan.weekly
    axis = TimeAxis.WEEKLY if weekly else TimeAxis.DAILY
    if weekly and not plan.days:
        raise _Fail(TimeOutcome.NO_TIME, "a weekly rule without days", axis)
    if plan.delays:
        raise _Fail(TimeOutcome.CONFLICT, "a delay in a recurring rule", axis)
    not_before = _not_before(plan, now)
    plan.starts = [t for t in plan.starts if t.kind not in ("day", "weekday")]
    _promote_ats(plan)
    start_tok = _one(plan.starts, "start")
    end_tok = _one(plan.ends, "end")
    len_tok = _one(plan.lengths, "length")
    if end_tok and len_tok:
        raise _Fail(TimeOutcome.CONFLICT, "both an end time and a length", axis)
    start_min, length_min = _recurring_window(start_tok, end_tok, len_tok, weekly, axis)
    days = tuple(sorted(plan.days)) if weekly else ()
    delivery, expires = _occurrence(now, start_min, length_min, set(days) or None, not_before)
    end_min = (start_min + length_min) % (24 * 60)
    return TimeCondition(delivery, expires, axis.value, days, _hhmm(start_min), _hhmm(end_min))


def _recurring_window(
    start_tok: _Token | None,
    end_tok: _Token | None,
    len_tok: _Token | None,
    weekly: bool,
    axis: TimeAxis,
) -> tuple[int, int]:
    """(start minute of day, length in minutes) of a daily/weekly window."""
    if start_tok is None and end_tok is None and len_tok is None:
        if weekly:
            return 0, 24 * 60  # weekdays without hours: the whole day
        raise _Fail(TimeOutcome.NO_TIME, "a daily rule without hours", axis)
    if start_tok is None or start_tok.clock is None or (end_tok is None and len_tok is None):
        raise _Fail(TimeOutcome.NO_TIME, "a recurring rule needs a start and an end", axis)
    if start_tok.clock.second or (end_tok is not None and end_tok.clock and end_tok.clock.second):
        raise _Fail(TimeOutcome.UNCLEAR, "seconds in a recurring window", axis)
    start_min = start_tok.clock.fixed_minutes()
    if len_tok is not None:
        length = _length(len_tok)
        minutes = length.seconds // 60
        if length.months or minutes > 24 * 60 or length.seconds % 60:
            raise _Fail(TimeOutcome.INVALID_TIME, "a daily window longer than a day", axis)
        return start_min, minutes
    assert end_tok is not None
    if end_tok.clock is None:
        raise _Fail(TimeOutcome.NO_TIME, "a recurring rule needs an end time", axis)
    return start_min, _recurring_length(start_min, end_tok.clock, axis)


def _recurring_length(start_min: int, end: _Clock, axis: TimeAxis) -> int:
    """The end hour is its first reading after the start (overnight windows end next day)."""
    if end.hour == 24 or (end.named == "자정" and start_min == 0):
        return (24 * 60 - start_min) or 24 * 60
    gaps = [(minutes - start_min) % (24 * 60) for minutes, _ in end.readings()]
    positive = [g for g in gaps if g > 0]
    if not positive:
        raise _Fail(TimeOutcome.INVALID_TIME, "a window of length zero", axis)
    return min(positive)


def _not_before(plan: _Plan, now: datetime) -> datetime | None:
    """ "내일부터 매일 ...": the first occurrence starts on or after that day."""
    for tok in plan.lone_days + plan.starts:
        if tok.kind == "day" and tok.day is not None and not _is_today(tok):
            return _at(tok.day.dates(now.date())[0], 0, _tz(now))
    return None


def _occurrence(
    now: datetime,
    start_min: int,
    length_min: int,
    days: set[int] | None,
    not_before: datetime | None,
) -> tuple[datetime, datetime]:
    """The occurrence in force now, else the next one."""
    today = now.date()
    for k in range(-1, 380):
        day = today + timedelta(days=k)
        if days is not None and day.isoweekday() not in days:
            continue
        start = _at(day, start_min, _tz(now))
        end = start + timedelta(minutes=length_min)
        if end > now and (not_before is None or start >= not_before):
            return start, end
    raise _Fail(TimeOutcome.INVALID_TIME, "no occurrence found")


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"
