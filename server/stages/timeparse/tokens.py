"""Token builders: one per named group of the scan pattern, from a match to tokens.

Each builder checks what the pattern alone cannot (a month is 1..12, a number word goes with
its unit, "25시" is a bad clock time) and returns the tokens, or nothing to let the scan move
on. ``_BUILDERS`` maps the pattern's group names to them; the lexer (lex.py) drives the scan.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from notillm_local.stages.timeparse.model import _Clock, _DayRef, _Length, _Role, _Token
from notillm_local.stages.timeparse.numbers import (
    _UNIT_RANK,
    _glue_safe,
    _half_of,
    _hour_value,
    _left_ok,
    _length_of,
    _minute_value,
    _number,
    _plus,
    _unit_accepts,
    _unit_accepts_marked,
    _unit_key,
)
from notillm_local.stages.timeparse.vocabulary import (
    _DAY,
    _DUR_NEXT,
    _DUR_SPECIAL,
    _EN_DAYS,
    _EN_DAYSETS,
    _EN_MERIDIEM,
    _EN_MERIDIEM_SHORT,
    _EN_NAMED,
    _LEN_FOLLOW,
    _ORDINAL,
    _PAST_LENGTH,
    _SINO,
    _WEEKDAY,
)


def _tok_now(text: str, m: re.Match[str]) -> list[_Token]:
    return [_Token("now", m.start(), m.end(), word=m.group(0))]


_Builder = Callable[[str, "re.Match[str]"], "list[_Token]"]


def _tok_simple(kind: str) -> _Builder:
    def build(text: str, m: re.Match[str]) -> list[_Token]:
        return [_Token(kind, m.start(), m.end(), word=m.group(0))]

    return build


def _tok_past(text: str, m: re.Match[str]) -> list[_Token]:
    tok = _Token("past", m.start(), m.end(), word=m.group(0))
    if _PAST_LENGTH.fullmatch(m.group(0)):
        tok.role = _Role.PAST  # "지난 2주" is a past length, the rule's time whatever follows
    return [tok]


def _tok_dayset(text: str, m: re.Match[str]) -> list[_Token]:
    word = " ".join(m.group(0).split())
    weekend = _EN_DAYSETS.get(word, word) == "주말"
    days = frozenset(range(6, 8)) if weekend else frozenset(range(1, 6))
    return [_Token("days", m.start(), m.end(), days=days, word=word)]


def _day_token(m: re.Match[str], ref: _DayRef) -> list[_Token]:
    return [_Token("day", m.start(), m.end(), day=ref, word=m.group(0))]


def _tok_weekend(text: str, m: re.Match[str]) -> list[_Token]:
    return _day_token(m, _DayRef(week=0, weekend=True))


def _tok_weekref(text: str, m: re.Match[str]) -> list[_Token]:
    week = 1 if m.group("wk_w") in ("다음", "오는") else 0
    wd = m.group("wk_wd")
    return _day_token(m, _DayRef(week=week, weekday=_WEEKDAY[wd] if wd else None))


def _tok_nextwd(text: str, m: re.Match[str]) -> list[_Token]:
    # 오는 X요일 is the coming one; 다음 X요일 may also mean next week's (asked when it differs).
    ref = _DayRef(
        weekday=_WEEKDAY[m.group("nw_wd")],
        after_today=True,
        next_week_only=m.group("nw_w") == "다음",
    )
    return _day_token(m, ref)


def _tok_ordwd(text: str, m: re.Match[str]) -> list[_Token]:
    nth = _ORDINAL[re.sub(r"\s+", "", m.group("ow_n"))]
    wd = _WEEKDAY[m.group("ow_wd")]
    if m.group("ow_rel"):
        ref = _DayRef(month_rel=0 if m.group("ow_rel") == "이번" else 1, nth=nth, weekday=wd)
        return _day_token(m, ref)
    month = int(m.group("ow_m"))
    if not 1 <= month <= 12:
        return []
    year = int(m.group("ow_y")) if m.group("ow_y") else None
    return _day_token(m, _DayRef(month=month, year=year, nth=nth, weekday=wd))


def _tok_monthref(text: str, m: re.Match[str]) -> list[_Token]:
    rel = 0 if m.group("mr_w") == "이번" or m.group("mr_t") == "이달" else 1
    mday = int(m.group("mr_d")) if m.group("mr_d") else None
    if mday is not None and not 1 <= mday <= 31:
        return []
    return _day_token(m, _DayRef(month_rel=rel, mday=mday))


def _tok_yearref(text: str, m: re.Match[str]) -> list[_Token]:
    rel = 0 if m.group("yr_0") else 1 if m.group("yr_1") else 2
    return _day_token(m, _DayRef(year_rel=rel))


def _tok_monthname(text: str, m: re.Match[str]) -> list[_Token]:
    month = int(m.group("mn_m"))
    if not 1 <= month <= 12:
        return []
    year = int(m.group("mn_y")) if m.group("mn_y") else None
    return _day_token(m, _DayRef(month=month, year=year, month_after=bool(m.group("mn_nx"))))


def _tok_wdrange(text: str, m: re.Match[str]) -> list[_Token]:
    values = _weekday_chars(re.sub(r"부터|에서|까지|사이", " ", m.group(0)))
    first, last = values[0], values[-1]
    days, d = [first], first
    while d != last:
        d = d % 7 + 1
        days.append(d)
    return [_Token("days", m.start(), m.end(), days=frozenset(days), word=m.group(0))]


def _weekday_chars(word: str) -> list[int]:
    cleaned = re.sub(r"요일|욜|와|과|이랑|랑|하고|및", " ", word)
    return [_WEEKDAY[c] for c in cleaned if c in _WEEKDAY]


def _tok_wdlist(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    if word in ("금일", "수일") or word.startswith(("금일", "수일")):
        return []  # 금일 = today, 수일 = a few days
    values = _weekday_chars(word)
    if len(set(values)) != len(values) or values != sorted(values):
        return []  # "일 수" in "할 수 있어" is no weekday list
    return [_Token("days", m.start(), m.end(), days=frozenset(values), word=word)]


def _tok_wdone(text: str, m: re.Match[str]) -> list[_Token]:
    wd = _WEEKDAY[m.group(0)[0]]
    return [_Token("weekday", m.start(), m.end(), day=_DayRef(weekday=wd), word=m.group(0))]


def _date_token(m: re.Match[str], year: str | None, month: str, mday: str) -> list[_Token]:
    mon, day = int(month), int(mday)
    if not (1 <= mon <= 12 and 1 <= day <= 31):
        return []
    ref = _DayRef(month_day=(mon, day), year=int(year) if year else None)
    return _day_token(m, ref)


def _tok_date(text: str, m: re.Match[str]) -> list[_Token]:
    return _date_token(m, m.group("dt_y"), m.group("mon"), m.group("mday"))


def _tok_ymd(text: str, m: re.Match[str]) -> list[_Token]:
    return _date_token(m, m.group("ymd_y"), m.group("ymd_m"), m.group("ymd_d"))


def _tok_md(text: str, m: re.Match[str]) -> list[_Token]:
    return _date_token(m, None, m.group("md_m"), m.group("md_d"))


_DAYWORD_OFFSET = {
    "오늘": 0,
    "금일": 0,
    "당일": 0,
    "내일": 1,
    "낼": 1,
    "다음날": 1,
    "이튿날": 1,
    "모레": 2,
    "내일모레": 2,
    "글피": 3,
}


def _tok_dayword(text: str, m: re.Match[str]) -> list[_Token]:
    word = re.sub(r"\s+", "", m.group(0))
    word = _EN_DAYS.get(word, word)
    ref = _DayRef(offset=_DAYWORD_OFFSET[word])
    return [_Token("day", m.start(), m.end(), day=ref, word=word)]


def _tok_tonight(text: str, m: re.Match[str]) -> list[_Token]:
    # "tonight" = 오늘 밤: a day word (empty span) and the day part that carries the span.
    day = _Token("day", m.start(), m.start(), day=_DayRef(offset=0), word="오늘")
    part = _Token("daypart", m.start(), m.end(), daypart="밤", word="밤")
    return [day, part]


def _tok_ampm(text: str, m: re.Match[str]) -> list[_Token]:
    hour_text = m.group("ap_h") or m.group("ap_h2")
    minute_text = m.group("ap_m") or m.group("ap_m2")
    word = " ".join((m.group("ap") or m.group("ap2")).split())
    daypart = _EN_MERIDIEM.get(word) or _EN_MERIDIEM_SHORT[word]
    hour = int(hour_text)
    if not 1 <= hour <= 12:
        return []  # "0am", "15pm" are no clock readings
    clock = _Clock(hour, int(minute_text or 0), daypart=daypart)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=m.group(0))]


def _tok_hhmm(text: str, m: re.Match[str]) -> list[_Token]:
    hour, minute = int(m.group("hh")), int(m.group("mm"))
    second = int(m.group("ss") or 0)
    if hour == 24 and (minute or second):
        return []
    clock = _Clock(hour, minute, second=second)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=m.group(0))]


_CLOCK_GLUE = re.compile(r"\s*(?:까지|부터|에|반|전|쯤|정각|~)")


def _tok_hrange(text: str, m: re.Match[str]) -> list[_Token]:
    a, b = _hour_value(m.group("ra")), _hour_value(m.group("rb"))
    if a is None or b is None or not _left_ok(text, m.start(), m.group("ra")):
        return []
    mid = m.start("rb")
    first = _Token(
        "clock", m.start(), mid, role=_Role.START, clock=_Clock(a, 0), word=text[m.start() : mid]
    )
    second = _Token("clock", mid, m.end(), clock=_Clock(b, 0), word=text[mid : m.end()])
    second.ranged = True
    return [first, second]


def _tok_clock(text: str, m: re.Match[str]) -> list[_Token]:
    hour = _hour_value(m.group("ch"))
    glued_ok = _CLOCK_GLUE.match(text, m.end()) is not None
    if not _left_ok(text, m.start(), m.group("ch"), glued_ok):
        return []
    minute = 30 if m.group("chalf") else _minute_value(m.group("cm"))
    second = _minute_value(m.group("cs"))
    if hour is None or minute is None or second is None or (hour == 24 and (minute or second)):
        if m.group("ch").isdigit() and all(
            (g or "0").isdigit() for g in (m.group("cm"), m.group("cs"))
        ):
            # "25시까지", "3시 75분": a clock time that does not exist is invalid, not absent.
            return [_Token("bad", m.start(), m.end(), word=m.group(0))]
        return []
    if m.group("cbefore"):
        # "3시 10분 전" is 2:50. Stay on the 12-hour dial when the hour was said that way.
        if not minute or second:
            return []
        total = hour * 60 - minute
        hour, minute = divmod(total % (24 * 60), 60)
        if hour == 0 and m.group("ch") not in ("0", "00"):
            hour = 12
    clock = _Clock(hour, minute, second=second)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=m.group(0))]


def _tok_named(text: str, m: re.Match[str]) -> list[_Token]:
    word = " ".join(m.group(0).split())
    word = _EN_NAMED.get(word, word)
    clock = _Clock(12 if word == "정오" else 0, 0, named=word)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=word)]


def _tok_halfhour(text: str, m: re.Match[str]) -> list[_Token]:
    return [_Token("dur", m.start(), m.end(), length=_Length(seconds=1800), word=m.group(0))]


def _tok_durspecial(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    tok = _Token(
        "dur", m.start(), m.end(), length=_Length(seconds=_DUR_SPECIAL[word] * _DAY), word=word
    )
    _extend_duration(text, tok, "일")
    return [tok]


def _dur_token(
    text: str, m: re.Match[str], number: str, raw_unit: str, prefixed: bool = False
) -> list[_Token]:
    unit = _unit_key(raw_unit)
    english = unit != raw_unit
    parsed = _number(number)
    if parsed is None or (english and parsed[1] != "digit"):
        return []
    marked = _LEN_FOLLOW.match(text, m.end()) is not None
    if not _unit_accepts(unit, parsed[1], number) and not (
        (prefixed or marked) and _unit_accepts_marked(unit, parsed[1])
    ):
        return []
    if not _left_ok(text, m.start(), number, prefixed or _glue_safe(unit, parsed[1], number)):
        return []
    tok = _Token("dur", m.start(), m.end(), length=_length_of(parsed[0], unit), word=m.group(0))
    if unit == "일" and parsed[1] != "native" and parsed[0] == int(parsed[0]):
        if 1 <= parsed[0] <= 31:
            tok.mday = int(parsed[0])
    _extend_duration(text, tok, unit)
    if tok.end != m.end():
        tok.mday = None  # "2일 3시간" is a length only
    return [tok]


def _tok_dur(text: str, m: re.Match[str]) -> list[_Token]:
    return _dur_token(text, m, m.group("dn"), m.group("du"))


def _tok_nextlen(text: str, m: re.Match[str]) -> list[_Token]:
    # "다음 3시간": a length from now (docs/time.md, decision next-n-units).
    made = _dur_token(text, m, m.group("nl_n"), m.group("nl_u"), prefixed=True)
    for tok in made:
        tok.mday = None
    return made


def _tok_dursmall(text: str, m: re.Match[str]) -> list[_Token]:
    # "일분 안에", "이분 동안": 일/이/구 only count as numbers before a length marker.
    value = _SINO[m.group("ds_n")]
    tok = _Token("dur", m.start(), m.end(), length=_length_of(value, m.group("ds_u")))
    tok.word = m.group(0)
    if m.group("ds_u") in ("년", "개월"):
        _extend_duration(text, tok, m.group("ds_u"))  # "일년하고도두달"
    return [tok]


def _extend_duration(text: str, tok: _Token, unit: str) -> None:
    """Glue "1시간 30분", "2일 3시간", "1시간 반" into one length (larger unit first)."""
    assert tok.length is not None
    while True:
        m = _DUR_NEXT.match(text, tok.end)
        if m is None:
            return
        if m.group("half"):
            tok.length = _plus(tok.length, _half_of(unit))
            tok.end = m.end()
            return
        parsed = _number(m.group("dn"))
        nxt = _unit_key(m.group("du"))
        if (
            parsed is None
            or _UNIT_RANK[nxt] >= _UNIT_RANK[unit]
            or not _unit_accepts(nxt, parsed[1], m.group("dn"))
            or (nxt != m.group("du") and parsed[1] != "digit")
        ):
            return
        tok.length = _plus(tok.length, _length_of(parsed[0], nxt))
        tok.end, unit = m.end(), nxt


def _tok_daypart(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    return [_Token("daypart", m.start(), m.end(), daypart=word, word=word)]


_BUILDERS: dict[str, _Builder] = {
    "past": _tok_past,
    "now": _tok_now,
    "wholeday": _tok_simple("wholeday"),
    "daily": _tok_simple("daily"),
    "weekly": _tok_simple("weekly"),
    "weekend": _tok_weekend,
    "dayset": _tok_dayset,
    "weekref": _tok_weekref,
    "nextwd": _tok_nextwd,
    "ordwd": _tok_ordwd,
    "monthref": _tok_monthref,
    "yearref": _tok_yearref,
    "wdrange": _tok_wdrange,
    "wdlist": _tok_wdlist,
    "wdspaced": _tok_wdlist,
    "wdcompact": _tok_wdlist,
    "wdone": _tok_wdone,
    "ymd": _tok_ymd,
    "date": _tok_date,
    "md": _tok_md,
    "monthname": _tok_monthname,
    "dayword": _tok_dayword,
    "tonight": _tok_tonight,
    "ampm": _tok_ampm,
    "hhmm": _tok_hhmm,
    "hrange": _tok_hrange,
    "clock": _tok_clock,
    "named": _tok_named,
    "nextlen": _tok_nextlen,
    "durspecial": _tok_durspecial,
    "halfhour": _tok_halfhour,
    "dur": _tok_dur,
    "dursmall": _tok_dursmall,
    "daypart": _tok_daypart,
}
