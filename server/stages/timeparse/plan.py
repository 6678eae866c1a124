"""Pass 3a, plan: sort the attached tokens by role (starts, ends, lengths, delays, days).

The plan is what the resolvers read; deciding here which bare time is an end ("3시부터 5시")
or which day is a lone day keeps the resolvers about instants only.
"""

from __future__ import annotations

from notillm_local.stages.timeparse.model import _Length, _Plan, _Role, _Token
from notillm_local.stages.timeparse.vocabulary import _DAY


def _plan(tokens: list[_Token], recurring: bool) -> _Plan:
    plan = _Plan()
    last_start: _Token | None = None
    for tok in tokens:
        if tok.used:
            continue
        kind = tok.kind
        if kind == "now":
            plan.has_now = True
        elif kind == "daily":
            plan.daily = True
        elif kind == "weekly":
            plan.weekly = True
        elif kind == "wholeday":
            plan.whole_day = True
        elif kind == "days":
            plan.days |= tok.days
        elif kind == "daypart":
            if tok.role is _Role.EVERY:
                plan.daily = True
            else:
                plan.loose_dayparts += 1
        elif kind == "weekday" and recurring:
            assert tok.day is not None and tok.day.weekday is not None
            plan.days.add(tok.day.weekday)
        elif kind == "dur":
            _plan_duration(plan, tok)
        else:
            last_start = _plan_point(plan, tok, last_start)
    return plan


def _plan_duration(plan: _Plan, tok: _Token) -> None:
    if tok.role is _Role.DELAY:
        plan.delays.append(tok)
    else:
        plan.lengths.append(tok)


def _plan_point(plan: _Plan, tok: _Token, last_start: _Token | None) -> _Token | None:
    """Clock times and day words: start, end, or said bare (decided later)."""
    if tok.kind in ("day", "weekday") and tok.role is _Role.AT:
        if (
            last_start is not None
            and last_start.kind in ("day", "weekday")
            and not plan.ends
            and not _is_today(tok)
        ):
            # "8월 8일부터 8월 13일" without 까지: the day after a starting day is the end.
            plan.ends.append(tok)
            return None
        plan.lone_days.append(tok)
        return last_start
    if tok.role is _Role.START:
        plan.starts.append(tok)
        return tok
    if tok.role is _Role.END:
        plan.ends.append(tok)
        return None
    if last_start is not None and not plan.ends:
        # "3시부터 5시" without 까지: a bare time after a start is the end.
        plan.ends.append(tok)
        return None
    plan.ats.append(tok)
    return last_start


def _is_today(tok: _Token) -> bool:
    return tok.kind == "day" and tok.day is not None and tok.day.offset == 0


def _fold_today_whole_day(plan: _Plan) -> None:
    """ "오늘 하루" / "내일 하루" name a day, not a 24-hour length."""
    if (
        plan.lone_days
        and len(plan.lengths) == 1
        and plan.lengths[0].word == "하루"
        and plan.lengths[0].length == _Length(seconds=_DAY)
        and not plan.starts
        and not plan.ends
    ):
        plan.lengths.clear()
        plan.whole_day = True
