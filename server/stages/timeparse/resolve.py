"""Pass 3b, one-off rules: clock readings and days -> the delivery and expiry instants.

Duration, until, relative delay, window and whole day. A clock time names several instants
around now (a.m./p.m., today/tomorrow); the resolver picks the first that makes the rule
valid, using only ``now`` and its fixed UTC offset. Recurring rules reuse these helpers
(recurring.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from notillm_local.stages.timeparse.dates import _at, _tz
from notillm_local.stages.timeparse.model import _Clock, _DayRef, _Length, _Plan, _Token
from notillm_local.stages.timeparse.plan import _is_today
from notillm_local.stages.timeparse.results import TimeAxis, TimeOutcome, _Fail


def _candidates(clock: _Clock, now: datetime, day: _DayRef | None = None) -> list[datetime]:
    """Every instant the clock time can name around now, sorted."""
    tz = now.tzinfo
    assert tz is not None
    today = now.date()
    ref = day or clock.day
    bases = ref.dates(today) if ref else [today + timedelta(days=k) for k in range(-2, 3)]
    named_day = ref is not None
    out: set[datetime] = set()
    for base in bases:
        for minutes, shift in clock.readings():
            # With no day named, the search band already covers every date.
            for s in clock.shifts(shift, now.hour) if named_day else (0,):
                out.add(_at(base + timedelta(days=s), minutes, tz, clock.second))
    return sorted(out)


def _point_day_ref(tok: _Token) -> _DayRef:
    assert tok.day is not None
    return tok.day


def _first_after(tok: _Token, moment: datetime, now: datetime) -> datetime:
    """The first instant the end token names strictly after ``moment``."""
    if tok.kind in ("day", "weekday"):
        ref = _point_day_ref(tok)
        for base in ref.dates(now.date()):
            end = _at(ref.end_of(base), 0, _tz(now))
            if end > moment:
                return end
        raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over")
    assert tok.clock is not None
    for cand in _candidates(tok.clock, now):
        if cand > moment:
            return cand
    if tok.clock.day is None:
        # Unnamed day: look further ahead than the default search band.
        later = _candidates(tok.clock, moment)
        for cand in later:
            if cand > moment:
                return cand
    raise _Fail(TimeOutcome.INVALID_TIME, "that time has already passed")


def _start_candidates(tok: _Token, now: datetime) -> list[datetime]:
    if tok.kind in ("day", "weekday"):
        ref = _point_day_ref(tok)
        if ref.offset == 0:
            return [now]  # "오늘부터" starts now
        starts = [_at(b, 0, _tz(now)) for b in ref.dates(now.date())]
        if ref.multi_day:
            # A week, weekend or month already under way starts now ("이번 주말", Clarifications).
            starts = [max(s, now) for s in starts]
        return starts
    assert tok.clock is not None
    return _candidates(tok.clock, now)


def _window_end(start_tok: _Token, start: datetime, end_tok: _Token, now: datetime) -> datetime:
    """End of a one-off window, resolved against its start."""
    clock, sclock = end_tok.clock, start_tok.clock
    if (
        clock is None
        or clock.day is not None
        or sclock is None
        or sclock.day is None
        or clock.ambiguous
    ):
        return _first_after(end_tok, start, now)
    # Both on an explicitly named day: the end is on that day unless it crosses midnight the
    # natural way (p.m. -> a.m.); "오늘 오후 5시부터 오후 3시까지" is an error, not 22 hours.
    end = _first_after(end_tok, start, start)
    start_day = _DayRef(offset=(start.date() - now.date()).days)
    same_day = [c for c in _candidates(clock, now, start_day) if c > start]
    if same_day:
        return same_day[0]
    end_minutes = clock.readings()[0][0]
    if start.hour >= 12 and end_minutes < 12 * 60:
        return end
    raise _Fail(
        TimeOutcome.INVALID_TIME, "the end comes before the start on the same day", TimeAxis.WINDOW
    )


def _one(items: list[_Token], what: str) -> _Token | None:
    if len(items) > 1:
        raise _Fail(TimeOutcome.CONFLICT, f"more than one {what}")
    return items[0] if items else None


def _length(tok: _Token) -> _Length:
    assert tok.length is not None
    if tok.length.is_zero:
        raise _Fail(TimeOutcome.INVALID_TIME, "a length of zero")
    return tok.length


def _resolve_once(plan: _Plan, now: datetime) -> tuple[TimeAxis, datetime, datetime]:
    """One-off rules: duration, until, relative delay, window, whole day."""
    _promote_ats(plan)
    start_tok = _one(plan.starts, "start")
    end_tok = _one(plan.ends, "end")
    len_tok = _one(plan.lengths, "length")
    delay_tok = _one(plan.delays, "delay")
    if end_tok and len_tok:
        raise _Fail(TimeOutcome.CONFLICT, "both an end time and a length")
    if start_tok and delay_tok:
        raise _Fail(TimeOutcome.CONFLICT, "both a start time and a delay")
    _adopt_lone_day(plan, start_tok, end_tok)
    if start_tok and _is_today(start_tok):
        start_tok, plan.has_now = None, True
    if start_tok and plan.has_now:
        raise _Fail(TimeOutcome.CONFLICT, "starts both now and later")
    if delay_tok:
        return _relative(delay_tok, end_tok, len_tok, now)
    if start_tok:
        return _window(start_tok, end_tok, len_tok, now)
    if len_tok:
        return _duration(plan, len_tok, now)
    if end_tok:
        return TimeAxis.UNTIL_ABSOLUTE, now, _first_after(end_tok, now, now)
    return _whole_day(plan, now)


def _adopt_lone_day(plan: _Plan, start_tok: _Token | None, end_tok: _Token | None) -> None:
    """ "내일 카톡 3시까지": a day said apart from the time still dates it."""
    for tok in (start_tok, end_tok):
        if plan.lone_days and tok is not None and tok.clock is not None and tok.clock.day is None:
            tok.clock.day = _point_day_ref(plan.lone_days.pop(0))
            return


def _promote_ats(plan: _Plan) -> None:
    """A bare time ("오후 3시에") is a start when an end or a length goes with it."""
    if not plan.ats:
        return
    if len(plan.ats) > 1:
        raise _Fail(TimeOutcome.CONFLICT, "more than one time without 부터/까지")
    at = plan.ats[0]
    if plan.starts:
        raise _Fail(TimeOutcome.CONFLICT, "more than one start")
    if not (plan.ends or plan.lengths):
        if plan.lone_time_ends and not plan.starts:
            plan.ends.append(at)
            plan.ats.clear()
            return
        raise _Fail(TimeOutcome.NO_TIME, "a time without 부터/까지 or a length", TimeAxis.WINDOW)
    plan.starts.append(at)
    plan.ats.clear()
    if plan.lone_days and at.clock is not None and at.clock.day is None:
        at.clock.day = _point_day_ref(plan.lone_days.pop(0))


def _relative(
    delay_tok: _Token, end_tok: _Token | None, len_tok: _Token | None, now: datetime
) -> tuple[TimeAxis, datetime, datetime]:
    delivery = _length(delay_tok).add_to(now)
    if len_tok:
        return TimeAxis.RELATIVE_DELAY, delivery, _length(len_tok).add_to(delivery)
    if end_tok:
        return TimeAxis.RELATIVE_DELAY, delivery, _first_after(end_tok, delivery, now)
    raise _Fail(TimeOutcome.NO_TIME, "a delay without a length or an end", TimeAxis.RELATIVE_DELAY)


def _window(
    start_tok: _Token, end_tok: _Token | None, len_tok: _Token | None, now: datetime
) -> tuple[TimeAxis, datetime, datetime]:
    if not end_tok and not len_tok:
        raise _Fail(TimeOutcome.NO_TIME, "a start without an end or a length", TimeAxis.WINDOW)
    last: datetime | None = None
    for start in _start_candidates(start_tok, now):
        if end_tok:
            end = _window_end(start_tok, start, end_tok, now)
        else:
            assert len_tok is not None
            end = _length(len_tok).add_to(start)
        last = end
        if end - start >= timedelta(days=1) and start.date() < now.date():
            continue  # a multi-day window said today starts today, not days ago
        if (
            start < now
            and start_tok.clock is not None
            and start_tok.clock.ambiguous
            and end - start > timedelta(hours=12)
        ):
            # "9시 반부터 내일 아침 7시까지" at 19:45: a bare start hour already past that would
            # make the window half a day long is its evening reading, still ahead.
            continue
        if end > now:
            return TimeAxis.WINDOW, start, end
    if last is not None and last <= now:
        raise _Fail(TimeOutcome.INVALID_TIME, "that window is already over", TimeAxis.WINDOW)
    raise _Fail(TimeOutcome.INVALID_TIME, "no such window", TimeAxis.WINDOW)


def _duration(plan: _Plan, len_tok: _Token, now: datetime) -> tuple[TimeAxis, datetime, datetime]:
    future_days = [t for t in plan.lone_days if not _is_today(t)]
    if future_days:
        raise _Fail(
            TimeOutcome.NO_TIME, "a length on a later day needs a start time", TimeAxis.WINDOW
        )
    return TimeAxis.DURATION, now, _length(len_tok).add_to(now)


def _whole_day(plan: _Plan, now: datetime) -> tuple[TimeAxis, datetime, datetime]:
    """Only a day named: 오늘 = the rest of today, another day = that whole day."""
    if len(plan.lone_days) > 1:
        raise _Fail(TimeOutcome.CONFLICT, "more than one day")
    if not plan.lone_days:
        if plan.whole_day:
            return TimeAxis.UNTIL_ABSOLUTE, now, _at(now.date() + timedelta(days=1), 0, _tz(now))
        raise _Fail(TimeOutcome.NO_TIME, "no length, end or day was named")
    tok = plan.lone_days[0]
    if plan.loose_dayparts:
        # "오늘 밤에": the part of the day has no hours; asking beats guessing them.
        raise _Fail(TimeOutcome.NO_TIME, "a part of the day without hours")
    if _is_today(tok):
        return TimeAxis.UNTIL_ABSOLUTE, now, _at(now.date() + timedelta(days=1), 0, _tz(now))
    ref = _point_day_ref(tok)
    for base in ref.dates(now.date()):
        start = _at(base, 0, _tz(now))
        end = _at(ref.end_of(base), 0, _tz(now))
        if ref.multi_day:
            start = max(start, now)  # "이번 주말" said on Sunday runs from now (Clarifications)
        if end > now:
            return TimeAxis.WINDOW, start, end
    raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over", TimeAxis.WINDOW)
