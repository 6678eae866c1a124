"""``parse_time``: runs the passes (lex, attach, plan, resolve) and builds the result.

Also where the result is checked (the end after the start, at most 366 days) and where a
``_Fail`` raised by any pass becomes a non-OK ``TimeResult``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

from notillm_local.domain import TimeCondition
from notillm_local.stages.timeparse.attach import (
    _anchor_daypart_ends,
    _attach,
    _bind_days,
    _bind_hrange_dayparts,
    _drop_end_weekdays,
    _drop_past,
    _drop_remarks,
    _is_recurring,
)
from notillm_local.stages.timeparse.lex import _lex, _scan_text
from notillm_local.stages.timeparse.model import _Token
from notillm_local.stages.timeparse.plan import _fold_today_whole_day, _plan
from notillm_local.stages.timeparse.recurring import _resolve_recurring
from notillm_local.stages.timeparse.resolve import _resolve_once
from notillm_local.stages.timeparse.results import (
    TimeAxis,
    TimeOutcome,
    TimeResult,
    TimeSpan,
    _Fail,
)
from notillm_local.stages.timeparse.unread import _said_about_now, _unread

# The package's logger, named as it was when the parser was one module.
logger = logging.getLogger(__name__.rpartition(".")[0])

_MAX_SPAN = timedelta(days=366)


def _spans(text: str, tokens: Iterable[_Token]) -> tuple[TimeSpan, ...]:
    """Token spans, merged where only blanks separate them."""
    merged: list[list[int]] = []
    for tok in sorted(tokens, key=lambda t: t.start):
        start, end = tok.start, tok.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            continue
        if merged and text[merged[-1][1] : start].strip() == "":
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple(TimeSpan(s, e, text[s:e]) for s, e in merged)


def _normalise_now(now: datetime) -> datetime:
    offset = now.utcoffset()
    if offset is None:
        raise ValueError("now must be timezone-aware")
    # A fixed offset: wall-clock arithmetic must not follow a DST zone's rules.
    return now.astimezone(timezone(offset)).replace(microsecond=0)


def _check(delivery: datetime, expires: datetime, axis: TimeAxis) -> None:
    if expires <= delivery:
        raise _Fail(TimeOutcome.INVALID_TIME, "the end is not after the start", axis)
    if expires - delivery > _MAX_SPAN:
        raise _Fail(TimeOutcome.INVALID_TIME, "longer than 366 days", axis)


def _interpret(
    text: str, tokens: list[_Token], now: datetime, lone_time_ends: bool = False
) -> tuple[TimeAxis, TimeCondition]:
    tokens = _bind_days(text, tokens)
    recurring = _is_recurring(tokens)
    if not recurring:
        _anchor_daypart_ends(tokens)
    else:
        _drop_end_weekdays(text, tokens)
    tokens = _attach(text, tokens, recurring)
    _bind_hrange_dayparts(tokens)
    plan = _plan(tokens, recurring)
    plan.lone_time_ends = lone_time_ends
    if recurring:
        cond = _resolve_recurring(plan, now)
        axis = TimeAxis.WEEKLY if cond.recurrence == "weekly" else TimeAxis.DAILY
        _check(cond.delivery, cond.expires, axis)
        return axis, cond
    _fold_today_whole_day(plan)
    axis, delivery, expires = _resolve_once(plan, now)
    _check(delivery, expires, axis)
    return axis, TimeCondition(delivery, expires)


def parse_time(text: str, now: datetime, lone_time_ends: bool = False) -> TimeResult:
    """Parse the time part of a Korean notification command (CONTRACT.md, "Time axes").

    `lone_time_ends`: a clock time with no 부터/까지 and no length is the end ("내일 아침 9시"
    answering "until when?"); otherwise it is no time."""
    now = _normalise_now(now)
    scan = _scan_text(text)
    tokens = _lex(scan)
    spans = _spans(text, tokens)
    unread = tuple(TimeSpan(a, b, text[a:b]) for a, b in _unread(scan, tokens))
    if not tokens and not unread:
        return TimeResult(TimeOutcome.NO_TIME, None, None, spans, "no time expression")
    try:
        if any(t.kind == "bad" for t in tokens):
            raise _Fail(TimeOutcome.INVALID_TIME, "not a clock time")
        past_then_unread = any(
            t.kind == "past" and not scan[t.end : u.start].strip()
            for t in tokens for u in unread if u.start >= t.end
        )
        if past_then_unread:
            # "작년 여름부터", "작년크리스마스까지": whatever the word after it is, a day of last
            # year (or last week) is in the past.
            raise _Fail(TimeOutcome.INVALID_TIME, "a time in the past")
        tokens = _drop_remarks(scan, _drop_past(scan, tokens))
        tokens, left = _said_about_now(scan, tokens, [(u.start, u.end) for u in unread])
        unread = tuple(u for u in unread if (u.start, u.end) in left)
        if not tokens and not unread:
            return TimeResult(TimeOutcome.NO_TIME, None, None, spans, "only a past day named")
        if unread:
            raise _Fail(TimeOutcome.UNCLEAR, "a word next to the time was not read")
        axis, cond = _interpret(scan, tokens, now, lone_time_ends)
    except _Fail as fail:
        logger.debug("time parse -> %s: %s", fail.outcome.value, fail.reason)
        return TimeResult(fail.outcome, None, fail.axis, spans, fail.reason, unread)
    return TimeResult(TimeOutcome.OK, cond, axis, spans, None)
