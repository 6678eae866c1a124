"""Pass 2, attach: bind day words, day parts and dates to the times they go with.

Between lexing and planning, tokens are read together: "내일 밤 10시" is one clock time on one
day, "15일 오후 3시" makes "15일" a day of the month, "19일 화요일" checks the date's weekday,
"내일 아침까지" anchors a day part used as an end, and a past word that dates the rule's time
("어제 밤 10시까지") makes it invalid. Each step only rewrites tokens; roles are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from notillm_local.stages.timeparse.model import _Clock, _DayRef, _Role, _Token
from notillm_local.stages.timeparse.results import TimeOutcome, _Fail
from notillm_local.stages.timeparse.vocabulary import _END_MARKS, _REMARK_AFTER


def _gap_is_blank(text: str, a: int, b: int) -> bool:
    return a <= b and text[a:b].strip(" \t,") in ("", "의")


def _attach(text: str, tokens: list[_Token], recurring: bool) -> list[_Token]:
    """Bind day words and day parts to the clock time right after them."""
    pending_day: _Token | None = None
    pending_dp: _Token | None = None
    for tok in tokens:
        if tok.kind == "clock" and tok.clock is not None:
            head = tok.start
            if pending_dp is not None and _gap_is_blank(text, pending_dp.end, head):
                tok.clock.daypart = pending_dp.daypart
                pending_dp.used = pending_dp.role is _Role.AT
                head = pending_dp.start
            if pending_day is not None and _gap_is_blank(text, pending_day.end, head):
                tok.clock.day = pending_day.day
                pending_day.used = True
            pending_day = pending_dp = None
        elif tok.kind == "daypart" and tok.role in (_Role.AT, _Role.EVERY):
            if pending_day is not None and not _gap_is_blank(text, pending_day.end, tok.start):
                pending_day = None
            pending_dp = tok
        elif (
            tok.kind in ("day", "weekday")
            and tok.role is _Role.AT
            and not (recurring and tok.kind == "weekday")
        ):
            pending_day, pending_dp = tok, None
        else:
            pending_day = pending_dp = None
    return tokens


def _bind_hrange_dayparts(tokens: list[_Token]) -> None:
    """ "오후 3~5시": the day part said once applies to both ends of the range."""
    for a, b in zip(tokens, tokens[1:], strict=False):
        if (
            a.kind == b.kind == "clock"
            and b.ranged
            and a.end == b.start
            and a.clock
            and b.clock
            and a.clock.daypart
            and b.clock.daypart is None
        ):
            b.clock.daypart = a.clock.daypart
            b.clock.day = b.clock.day or a.clock.day


def _is_mday_length(tok: _Token) -> bool:
    """A bare "N일" that may still turn out to be a day of the month."""
    return tok.kind == "dur" and tok.mday is not None and tok.mark == ""


def _loose_month_day(tok: _Token) -> int | None:
    """ "15일" / "15일까지" with no month of its own, or None."""
    if _is_mday_length(tok) or (tok.kind == "dur" and tok.mday and tok.mark in _END_MARKS):
        return tok.mday
    ref = tok.day
    if tok.kind == "day" and ref is not None and ref.mday is not None and ref.month_rel is None:
        return ref.mday
    return None


def _bind_days(text: str, tokens: list[_Token]) -> list[_Token]:
    """Read a day of the month where the context says so, and a date's own weekday.

    "19일 화요일", "2월 18일 월요일": the weekday checks the date (a mismatch is a conflict).
    "7월 13일부터 15일": a bare "N일" after a date that starts a window is the end day.
    """
    out: list[_Token] = []
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            _is_mday_length(tok)
            and nxt is not None
            and nxt.kind in ("clock", "daypart")
            and _gap_is_blank(text, tok.end, nxt.start)
        ):
            # "15일 오후 3시까지": a bare "N일" that dates a clock time is a day of the month.
            assert tok.mday is not None
            tok.kind, tok.length, tok.role = "day", None, _Role.AT
            tok.day, tok.mday = _DayRef(mday=tok.mday), None
        prev = out[-1] if out else None
        if (
            prev is not None
            and tok.kind == "weekday"
            and _gap_is_blank(text, prev.end, tok.start)
            and (_is_mday_length(prev) or (prev.kind == "day" and prev.role is _Role.AT))
            and (prev.mday is not None or (prev.day is not None and prev.day.month_day))
        ):
            assert tok.day is not None and tok.day.weekday is not None
            base = _DayRef(mday=prev.mday) if prev.kind == "dur" else prev.day
            assert base is not None
            prev.kind, prev.length, prev.mday = "day", None, None
            prev.day = replace(base, check_weekday=tok.day.weekday)
            prev.end, prev.role, prev.mark = tok.end, tok.role, tok.mark
            continue
        mday = _loose_month_day(tok)
        if (
            mday is not None
            and prev is not None
            and prev.kind == "day"
            and prev.role is _Role.START
            and prev.day is not None
            and prev.day.month_day is not None
        ):
            start_month, start_day = prev.day.month_day
            month = start_month if mday >= start_day else start_month % 12 + 1
            tok.kind, tok.length, tok.mday = "day", None, None
            tok.day = _DayRef(month_day=(month, mday), year=prev.day.year)
            tok.role = _Role.END if tok.mark in _END_MARKS else _Role.AT
        out.append(tok)
    return out


def _is_recurring(tokens: Sequence[_Token]) -> bool:
    kinds = {t.kind for t in tokens}
    if kinds & {"daily", "weekly", "days"}:
        return True
    return any(t.role is _Role.EVERY for t in tokens)


def _drop_end_weekdays(text: str, tokens: list[_Token]) -> None:
    """ "매주 금요일 오후 6시부터 토요일 오전 10시까지": the window starts on Friday only; the
    weekday before the end time says where the window ends, which the overnight rule gives."""
    for i, tok in enumerate(tokens):
        if tok.kind != "weekday" or tok.used:
            continue
        nxt = i + 1
        while nxt < len(tokens) and tokens[nxt].kind == "daypart":
            nxt += 1
        if (
            nxt < len(tokens)
            and tokens[nxt].kind == "clock"
            and tokens[nxt].role is _Role.END
            and any(t.role is _Role.START for t in tokens[:i])
            and _gap_is_blank(text, tok.end, tokens[i + 1].start)
        ):
            tok.used = True


# "내일 아침까지": an end named by a part of the day alone. Asking "until when?" after the
# user said it is worse than the moment people mean by it, so each part has an anchor.
_DP_END_ANCHOR: dict[str, _Clock] = {
    "오전": _Clock(hour=12, minute=0, named="정오"),
    "점심": _Clock(hour=12, minute=0, named="정오"),
    "낮": _Clock(hour=12, minute=0, named="정오"),
    "새벽": _Clock(hour=6, minute=0, daypart="새벽"),
    "아침": _Clock(hour=8, minute=0, daypart="아침"),
    "오후": _Clock(hour=18, minute=0),
    "저녁": _Clock(hour=18, minute=0),
    "밤": _Clock(hour=22, minute=0),
}


def _anchor_daypart_ends(tokens: list[_Token]) -> None:
    for tok in tokens:
        if tok.kind == "daypart" and tok.role is _Role.END and tok.daypart in _DP_END_ANCHOR:
            anchor = _DP_END_ANCHOR[tok.daypart]
            tok.kind = "clock"
            tok.clock = _Clock(anchor.hour, anchor.minute, anchor.daypart, anchor.named)


def _adjacent(text: str, a: _Token, b: _Token) -> bool:
    first, second = (a, b) if a.start <= b.start else (b, a)
    return _gap_is_blank(text, first.end, second.start)


# "지난주말 동안", "지난주 내내": the whole of a past stretch is the rule's time.
_DURING_MARKS = frozenset({"동안", "내내"})


def _drop_past(text: str, tokens: list[_Token]) -> list[_Token]:
    """A past time as the rule's time is invalid ("어제 밤 10시까지", "지난주부터", "7일 전").

    A past length ("지난 2주", "7일 전") or a past word with 까지/부터/동안, or right before a
    clock time or a time with such a marker, is the rule's time. A past day said in passing
    ("어제 카톡 몇 개 왔어?", "어제처럼 2시간만") is talk about the past, not a rule: dropped.
    """
    past = [t for t in tokens if t.kind == "past"]
    if not past:
        return tokens
    if any(t.role is not _Role.AT or t.mark in _DURING_MARKS for t in past) or any(
        _dates_a_time(text, tokens, i) for i, t in enumerate(tokens) if t.kind == "past"
    ):
        raise _Fail(TimeOutcome.INVALID_TIME, "a time in the past")
    return [t for t in tokens if t.kind != "past"]


def _drop_remarks(text: str, tokens: list[_Token]) -> list[_Token]:
    """A clock time that is said about now, not as the rule's time ("새벽 2시 반인데 잠이 안 와,
    9시까지 꺼줘"): the time glued to 인데/이니까/이네 and the day part or day right before it."""
    dropped: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.kind != "clock" or tok.role is not _Role.AT or tok.mark:
            continue
        if not _REMARK_AFTER.match(text, tok.end):
            continue
        dropped.add(i)
        j = i - 1
        while j >= 0 and tokens[j].role is _Role.AT and not tokens[j].mark and _adjacent(
            text, tokens[j], tokens[j + 1]
        ):
            dropped.add(j)
            j -= 1
    return [t for i, t in enumerate(tokens) if i not in dropped] if dropped else tokens


def _dates_a_time(text: str, tokens: list[_Token], i: int) -> bool:
    """Whether the past word at ``i`` goes with the time after it ("어제 밤 10시까지")."""
    prev = tokens[i]
    for tok in tokens[i + 1 :]:
        if not _adjacent(text, prev, tok):
            return False
        if tok.kind != "daypart" or tok.role is not _Role.AT:
            return tok.role is not _Role.AT or tok.kind == "clock"
        prev = tok
    return False
