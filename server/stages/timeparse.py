"""Korean time expressions -> exact rule times, in code (no model, no network).

Follows the "Time axes" section of CONTRACT.md. The parser works in three passes:

1. lex: one left-to-right regex scan finds time tokens (numbers with units, clock times,
   day words, weekdays, recurrence words) together with the marker that follows each one
   (까지, 부터, 동안, 뒤 ...), which decides the token's role;
2. attach: day words and day parts ("내일", "밤") bind to the clock time right after them;
3. interpret: the roles decide the axis, and the resolver turns clock readings into instants
   using only ``now`` and its fixed UTC offset (never the process time zone).

Decisions the contract leaves open are documented in docs/time.md.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from enum import Enum, StrEnum
from typing import Any

logger = logging.getLogger(__name__)

__all__ = [
    "TimeAxis",
    "TimeCondition",
    "TimeOutcome",
    "TimeResult",
    "TimeSpan",
    "parse_time",
]


# --------------------------------------------------------------------------- public types


class TimeOutcome(StrEnum):
    OK = "ok"
    NO_TIME = "no_time"
    CONFLICT = "conflict"
    INVALID_TIME = "invalid_time"


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
class TimeCondition:
    delivery: datetime
    expires: datetime
    recurrence: str = "none"
    days_of_week: tuple[int, ...] = ()
    window_start: str | None = None
    window_end: str | None = None

    def to_contract(self) -> dict[str, Any]:
        return {
            "delivery": self.delivery.isoformat(timespec="seconds"),
            "expires": self.expires.isoformat(timespec="seconds"),
            "recurrence": self.recurrence,
            "days_of_week": list(self.days_of_week),
            "window_start": self.window_start,
            "window_end": self.window_end,
            "activity": None,
            "location": None,
        }


@dataclass(frozen=True)
class TimeResult:
    outcome: TimeOutcome
    condition: TimeCondition | None
    axis: TimeAxis | None
    spans: tuple[TimeSpan, ...]
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "axis": self.axis.value if self.axis is not None else None,
            "condition": self.condition.to_contract() if self.condition is not None else None,
            "spans": [s.to_json() for s in self.spans],
            "reason": self.reason,
        }


# --------------------------------------------------------------------------- vocabulary

_DAY = 86_400
_MAX_SPAN = timedelta(days=366)
_HANGUL = re.compile(r"[가-힣]")

_NATIVE_UNITS = {
    "한": 1,
    "두": 2,
    "세": 3,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
}
_NATIVE_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50}
_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_WEEKDAY = {"월": 1, "화": 2, "수": 3, "목": 4, "금": 5, "토": 6, "일": 7}

_NATIVE_RE = (
    r"(?:(?:열|스물|스무|서른|마흔|쉰)\s?(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉)?"
    r"|한|두|세|네|다섯|여섯|일곱|여덟|아홉)"
)
_SINO_MULTI_RE = (
    r"(?:[이삼사오육칠팔구]?백(?:[이삼사오육칠팔구]?십)?[일이삼사오육칠팔구]?"
    r"|[이삼사오육칠팔구]?십[일이삼사오육칠팔구]?)"
)
# 일/이/구 alone are words ("이 분" = this person, "구분" = a distinction).
_SINO_ONE_RE = r"[삼사오육칠팔]"
_NUM_RE = rf"(?:\d{{1,4}}(?:\.\d+)?|{_SINO_MULTI_RE}|{_NATIVE_RE}|{_SINO_ONE_RE})"
_UNIT_RE = r"(?:시간|분|초|일(?!요일|욜)|주일|주(?![말중년])|달|개월|년)"
_DUR_SPECIAL = {
    "하루": 1,
    "이틀": 2,
    "사흘": 3,
    "나흘": 4,
    "닷새": 5,
    "엿새": 6,
    "이레": 7,
    "열흘": 10,
    "보름": 15,
    "일주일": 7,
}

# A day part only counts when a boundary, a particle or an hour follows ("낮춰줘" is no time).
_DP_FOLLOW = r"(?=$|[^가-힣]|에|엔|부터|까지|동안|마다|내내|중|열|한|두|세|네|다|여|일|아)"
_WD = "[월화수목금토일]"
_WD_FOLLOW = (
    r"(?=$|[^가-힣]|에|엔|마다|만|은|는|부터|까지|동안|내내|밤|아침|저녁|오전|오후|새벽"
    r"|낮|점심)"
)
_HOUR_RE = rf"(?:\d{{1,2}}|{_NATIVE_RE})"
_MIN_RE = rf"(?:\d{{1,2}}|{_SINO_MULTI_RE}|{_SINO_ONE_RE})"
# Only a marker, a particle or a boundary may follow 시 ("한시적으로", "시작" are no times).
_CLOCK_FOLLOW = r"(?=$|[^가-힣]|[까부에반정쯤경께전이지후만사넘])"

_MASTER = re.compile(
    "|".join(
        [
            r"(?P<now>지금\s*부터|지금으로\s*부터|이제\s*부터|앞으로|지금)",
            r"(?P<wholeday>하루\s*종일|온\s*종일|종일|하루\s*내내)",
            r"(?P<daily>매일\s*매일|매일같이|매일|날마다)",
            r"(?P<weekly>매주|주마다)",
            r"(?P<dayset>평일|주중|주말)",
            rf"(?P<wdrange>(?<![가-힣]){_WD}(?:요일|욜)?\s*(?:~|-|부터|에서)\s*{_WD}(?:요일|욜)?"
            rf"(?:\s*까지|\s*사이)?)",
            rf"(?P<wdlist>(?<![가-힣]){_WD}(?:요일|욜)?(?:\s*(?:[,·/、]|와|과|랑|이랑|하고|및)\s*"
            rf"{_WD}(?:요일|욜)?)+{_WD_FOLLOW})",
            rf"(?P<wdspaced>(?<![가-힣]){_WD}(?:\s+{_WD}){{2,6}}{_WD_FOLLOW})",
            rf"(?P<wdcompact>(?<![가-힣]){_WD}{{2,7}}(?:요일|욜)?{_WD_FOLLOW})",
            rf"(?P<wdone>{_WD}(?:요일|욜))",
            r"(?P<date>(?<!\d)(?P<mon>\d{1,2})\s*월\s*(?P<mday>\d{1,2})\s*일(?!\s*(?:간|동안)))",
            r"(?P<dayword>내일\s*모레|모레|오늘|금일|당일|내일|글피|다음\s*날|이튿날"
            r"|낼(?=\s*(?:아침|오전|오후|저녁|밤|새벽|점심|낮|\d|까지|부터|하루)))",
            r"(?P<hhmm>(?<![\d:])(?P<hh>[01]?\d|2[0-4])\s*:\s*(?P<mm>[0-5]\d)(?!\d))",
            rf"(?P<hrange>(?<![\d.:])(?P<ra>{_HOUR_RE})\s*[~\-]\s*(?P<rb>{_HOUR_RE})\s*시(?!간)"
            rf"{_CLOCK_FOLLOW})",
            rf"(?P<clock>(?<![\d.:])(?P<ch>{_HOUR_RE})\s*시(?!간)(?:\s*(?P<cm>{_MIN_RE})\s*분|\s*(?P<chalf>반))?"
            rf"{_CLOCK_FOLLOW})",
            r"(?P<named>정오|자정)",
            r"(?P<durspecial>일주일|하루|이틀|사흘|나흘|닷새|엿새|이레|열흘|보름)",
            rf"(?P<dur>(?<![\d.:])(?P<dn>{_NUM_RE})\s*(?P<du>{_UNIT_RE}))",
            rf"(?P<daypart>(?:오전|오후|아침|점심|저녁|새벽|낮|밤){_DP_FOLLOW})",
        ]
    )
)

_DUR_NEXT = re.compile(
    rf"\s*(?:(?P<dn>{_NUM_RE})\s*(?P<du>{_UNIT_RE})|(?P<half>반)"
    r"(?=$|[^가-힣]|동안|만|정도|쯤|까지|뒤|후|간|있다|지나|이따|부터|에))"
)
_FILLER = re.compile(
    r"\s*(?:정각|정도|가량|쯤)|(?:경|께)(?=$|[^가-힣]|까|부|에|동|만)|여(?=$|[^가-힣]|동|간)"
)
_MARKER = re.compile(
    r"\s*(?P<mk>까지만|까지|전까지|이전까지|전에|이전|에서\s*부터|부터|에서|이후로|이후부터|이후"
    r"|넘어서|지나서|지나고|지난\s*후|뒤부터|뒤에|뒤|후부터|후에|후|있다가|있다|이따가|동안|내내"
    r"|간|만|사이에|사이|마다|에는|에|~|-|–|〜)"
)
_AFTER_DELAY = re.compile(r"\s*(?P<mk>까지|부터|동안)")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”|「[^」]*」|『[^』]*』|`[^`]*`")
_LEFT_WORDS = (
    "오전",
    "오후",
    "아침",
    "낮",
    "점심",
    "저녁",
    "밤",
    "새벽",
    "오늘",
    "내일",
    "모레",
    "부터",
    "앞으로",
    "지금",
    "매일",
    "요일",
    "욜",
    "마다",
    "까지",
    "에서",
)

_END_MARKS = {"까지만", "까지", "전까지", "이전까지", "전에", "이전", "사이에", "사이"}
_START_MARKS = {
    "에서부터",
    "부터",
    "에서",
    "이후로",
    "이후부터",
    "이후",
    "넘어서",
    "지나서",
    "지나고",
    "지난후",
    "후부터",
    "후에",
    "후",
    "~",
    "-",
    "–",
    "〜",
}
_DELAY_MARKS = {
    "뒤부터",
    "뒤에",
    "뒤",
    "후부터",
    "후에",
    "후",
    "있다가",
    "있다",
    "이따가",
    "지나서",
    "지나고",
    "지난후",
}
_LEN_MARKS = {"동안", "내내", "간", "만", "까지만", "까지"}

_DP_HOURS: dict[str, frozenset[int]] = {
    "오전": frozenset(range(0, 12)),
    "오후": frozenset(range(12, 24)),
    "새벽": frozenset(range(0, 7)),
    "아침": frozenset(range(5, 12)),
    "점심": frozenset(range(11, 15)),
    "낮": frozenset(range(11, 18)),
    "저녁": frozenset(range(17, 22)),
    "밤": frozenset([*range(19, 24), *range(0, 5)]),
}
_DP_MORNING = frozenset({"오전", "새벽", "아침"})


# --------------------------------------------------------------------------- internal types


class _Role(Enum):
    AT = "at"
    START = "start"
    END = "end"
    LEN = "len"
    DELAY = "delay"
    EVERY = "every"


@dataclass(frozen=True)
class _Length:
    seconds: int = 0
    months: int = 0

    def add_to(self, moment: datetime) -> datetime:
        return _add_months(moment, self.months) + timedelta(seconds=self.seconds)

    @property
    def is_zero(self) -> bool:
        return self.seconds == 0 and self.months == 0


@dataclass(frozen=True)
class _DayRef:
    offset: int | None = None  # 오늘=0, 내일=1 ...
    weekday: int | None = None  # ISO 1..7
    month_day: tuple[int, int] | None = None

    def dates(self, today: date) -> list[date]:
        if self.offset is not None:
            return [today + timedelta(days=self.offset)]
        if self.weekday is not None:
            return [
                today + timedelta(days=k)
                for k in range(-1, 14)
                if (today + timedelta(days=k)).isoweekday() == self.weekday
            ]
        assert self.month_day is not None
        return _month_day_dates(today, *self.month_day)


@dataclass
class _Clock:
    hour: int  # as said (1..12 for ambiguous hours, else 0..24)
    minute: int
    daypart: str | None = None
    named: str | None = None  # 정오 / 자정
    day: _DayRef | None = None

    @property
    def ambiguous(self) -> bool:
        return self.daypart is None and self.named is None and 1 <= self.hour <= 12

    @property
    def explicit(self) -> bool:
        return not self.ambiguous

    def readings(self) -> list[tuple[int, int]]:
        """(minute of day, day shift) pairs; shift 1 = the night after the named day."""
        m = self.minute
        if self.named == "정오":
            return [(12 * 60, 0)]
        if self.named == "자정" or self.hour == 24:
            return [(m, 1)]
        if self.hour > 12 or self.hour == 0:
            return [(self.hour * 60 + m, 0)]
        am, pm = self.hour % 12, self.hour % 12 + 12
        if self.daypart is None:
            return [(am * 60 + m, 0), (pm * 60 + m, 0)]
        return [(self._daypart_hour(am, pm) * 60 + m, 0)]

    def _daypart_hour(self, am: int, pm: int) -> int:
        assert self.daypart is not None
        allowed = _DP_HOURS[self.daypart]
        for hour in (am, pm):
            if hour in allowed:
                return hour
        return am if self.daypart in _DP_MORNING else pm

    def shifts(self, shift: int) -> tuple[int, ...]:
        if self.daypart == "밤" and self.hour in (12, 1, 2, 3, 4):
            return (1,)
        if self.daypart == "새벽" and self.day is not None and self.day.offset == 0:
            # "오늘 새벽 3시" said late at night means the coming early morning too.
            return (0, 1)
        return (shift,)

    def fixed_minutes(self) -> int:
        """One reading for recurring windows: an ambiguous hour reads as a.m., 12 as noon."""
        if self.ambiguous:
            return (12 if self.hour == 12 else self.hour) * 60 + self.minute
        return self.readings()[0][0]


@dataclass
class _Token:
    kind: str
    start: int
    end: int
    role: _Role = _Role.AT
    clock: _Clock | None = None
    day: _DayRef | None = None
    days: frozenset[int] = frozenset()
    length: _Length | None = None
    daypart: str | None = None
    word: str = ""
    used: bool = False


@dataclass
class _Plan:
    """The roles found in the sentence, before resolution."""

    starts: list[_Token] = field(default_factory=list)
    ends: list[_Token] = field(default_factory=list)
    lengths: list[_Token] = field(default_factory=list)
    delays: list[_Token] = field(default_factory=list)
    ats: list[_Token] = field(default_factory=list)
    days: set[int] = field(default_factory=set)
    lone_days: list[_Token] = field(default_factory=list)
    has_now: bool = False
    loose_dayparts: int = 0
    daily: bool = False
    weekly: bool = False
    whole_day: bool = False


class _Fail(Exception):
    def __init__(self, outcome: TimeOutcome, reason: str, axis: TimeAxis | None = None) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason
        self.axis = axis


# --------------------------------------------------------------------------- numbers


def _native_value(word: str) -> int | None:
    word = word.replace(" ", "")
    for tens_word, tens in _NATIVE_TENS.items():
        if word.startswith(tens_word):
            rest = word[len(tens_word) :]
            if not rest:
                return tens
            unit = _NATIVE_UNITS.get(rest)
            return None if unit is None else tens + unit
    return _NATIVE_UNITS.get(word)


def _sino_value(word: str) -> int | None:
    total, current = 0, 0
    for ch in word:
        if ch in _SINO:
            current = _SINO[ch]
        elif ch in ("십", "백"):
            total += (current or 1) * (10 if ch == "십" else 100)
            current = 0
        else:
            return None
    return total + current


def _number(word: str) -> tuple[float, str] | None:
    """Value and kind ("digit", "native", "sino") of a number word."""
    word = word.strip()
    if word[:1].isdigit():
        return float(word), "digit"
    native = _native_value(word)
    if native is not None:
        return float(native), "native"
    sino = _sino_value(word)
    if sino is not None:
        return float(sino), "sino"
    return None


_UNIT_SECONDS = {"초": 1, "분": 60, "시간": 3600, "일": _DAY, "주": 7 * _DAY, "주일": 7 * _DAY}
_UNIT_MONTHS = {"달": 1, "개월": 1, "년": 12}
_UNIT_RANK = {"년": 6, "개월": 5, "달": 5, "주": 4, "주일": 4, "일": 3, "시간": 2, "분": 1, "초": 0}


def _unit_accepts(unit: str, kind: str, text: str) -> bool:
    """Which number words go with which unit: "두 분" are people, "삼십 분" is time."""
    if kind == "digit":
        return True
    if kind == "native":
        return unit in ("시간", "달", "주", "주일")
    multi = len(text.replace(" ", "")) > 1
    return unit in ("분", "초") or (multi and unit in ("시간", "일"))


def _length_of(value: float, unit: str) -> _Length:
    if unit in _UNIT_MONTHS:
        return _Length(months=int(value) * _UNIT_MONTHS[unit])
    return _Length(seconds=round(value * _UNIT_SECONDS[unit]))


def _half_of(unit: str) -> _Length:
    if unit in _UNIT_MONTHS:
        return _Length(seconds=15 * _DAY * _UNIT_MONTHS[unit])
    return _Length(seconds=_UNIT_SECONDS[unit] // 2)


def _plus(a: _Length, b: _Length) -> _Length:
    return _Length(seconds=a.seconds + b.seconds, months=a.months + b.months)


# --------------------------------------------------------------------------- lexing


def _left_ok(text: str, pos: int, number: str) -> bool:
    """A Korean number word must start a word, or follow a day part / day word."""
    if number[:1].isdigit() or pos == 0 or not _HANGUL.match(text[pos - 1]):
        return True
    head = text[:pos]
    return head.endswith(_LEFT_WORDS)


def _mask_quotes(text: str) -> str:
    # Quoted words are notification keywords ("'3시' 들어간 알림"), never times.
    return _QUOTED.sub(lambda m: "\x00" * len(m.group(0)), text)


def _lex(text: str) -> list[_Token]:
    scan = _mask_quotes(text)
    tokens: list[_Token] = []
    pos = 0
    while pos < len(scan):
        m = _MASTER.search(scan, pos)
        if m is None:
            break
        made = _make_tokens(scan, m)
        if not made:
            pos = m.start() + 1
            continue
        for tok in made:
            tokens.append(tok)
        pos = made[-1].end
    return tokens


def _make_tokens(text: str, m: re.Match[str]) -> list[_Token]:
    kind = m.lastgroup
    if kind is None:
        return []
    builder = _BUILDERS.get(kind)
    if builder is None:
        return []
    made = builder(text, m)
    if made and made[-1].kind != "now":
        _attach_marker(text, made[-1])
    return made


def _tok_now(text: str, m: re.Match[str]) -> list[_Token]:
    return [_Token("now", m.start(), m.end(), word=m.group(0))]


_Builder = Callable[[str, "re.Match[str]"], "list[_Token]"]


def _tok_simple(kind: str) -> _Builder:
    def build(text: str, m: re.Match[str]) -> list[_Token]:
        return [_Token(kind, m.start(), m.end(), word=m.group(0))]

    return build


def _tok_dayset(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    days = frozenset(range(6, 8)) if word == "주말" else frozenset(range(1, 6))
    return [_Token("days", m.start(), m.end(), days=days, word=word)]


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


def _tok_date(text: str, m: re.Match[str]) -> list[_Token]:
    mon, mday = int(m.group("mon")), int(m.group("mday"))
    if not (1 <= mon <= 12 and 1 <= mday <= 31):
        return []
    return [_Token("day", m.start(), m.end(), day=_DayRef(month_day=(mon, mday)), word=m.group(0))]


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
    ref = _DayRef(offset=_DAYWORD_OFFSET[word])
    return [_Token("day", m.start(), m.end(), day=ref, word=word)]


def _tok_hhmm(text: str, m: re.Match[str]) -> list[_Token]:
    hour, minute = int(m.group("hh")), int(m.group("mm"))
    if hour == 24 and minute:
        return []
    return [_Token("clock", m.start(), m.end(), clock=_Clock(hour, minute), word=m.group(0))]


def _hour_value(word: str) -> int | None:
    parsed = _number(word)
    if parsed is None or parsed[1] == "sino" or parsed[0] != int(parsed[0]):
        return None
    value = int(parsed[0])
    return value if 0 <= value <= 24 else None


def _tok_hrange(text: str, m: re.Match[str]) -> list[_Token]:
    a, b = _hour_value(m.group("ra")), _hour_value(m.group("rb"))
    if a is None or b is None or not _left_ok(text, m.start(), m.group("ra")):
        return []
    mid = m.start("rb")
    first = _Token(
        "clock", m.start(), mid, role=_Role.START, clock=_Clock(a, 0), word=text[m.start() : mid]
    )
    second = _Token("clock", mid, m.end(), clock=_Clock(b, 0), word=text[mid : m.end()])
    return [first, second]


def _tok_clock(text: str, m: re.Match[str]) -> list[_Token]:
    hour = _hour_value(m.group("ch"))
    if hour is None or not _left_ok(text, m.start(), m.group("ch")):
        return []
    minute = 0
    if m.group("chalf"):
        minute = 30
    elif m.group("cm"):
        parsed = _number(m.group("cm"))
        if parsed is None or not 0 <= parsed[0] <= 59:
            return []
        minute = int(parsed[0])
    if hour == 24 and minute:
        return []
    return [_Token("clock", m.start(), m.end(), clock=_Clock(hour, minute), word=m.group(0))]


def _tok_named(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    clock = _Clock(12 if word == "정오" else 0, 0, named=word)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=word)]


def _tok_durspecial(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    tok = _Token(
        "dur", m.start(), m.end(), length=_Length(seconds=_DUR_SPECIAL[word] * _DAY), word=word
    )
    _extend_duration(text, tok, "일")
    return [tok]


def _tok_dur(text: str, m: re.Match[str]) -> list[_Token]:
    number, unit = m.group("dn"), m.group("du")
    parsed = _number(number)
    if parsed is None or not _left_ok(text, m.start(), number):
        return []
    if not _unit_accepts(unit, parsed[1], number):
        return []
    tok = _Token("dur", m.start(), m.end(), length=_length_of(parsed[0], unit), word=m.group(0))
    _extend_duration(text, tok, unit)
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
        nxt = m.group("du")
        if (
            parsed is None
            or _UNIT_RANK[nxt] >= _UNIT_RANK[unit]
            or not _unit_accepts(nxt, parsed[1], m.group("dn"))
        ):
            return
        tok.length = _plus(tok.length, _length_of(parsed[0], nxt))
        tok.end, unit = m.end(), nxt


def _tok_daypart(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    return [_Token("daypart", m.start(), m.end(), daypart=word, word=word)]


_BUILDERS: dict[str, _Builder] = {
    "now": _tok_now,
    "wholeday": _tok_simple("wholeday"),
    "daily": _tok_simple("daily"),
    "weekly": _tok_simple("weekly"),
    "dayset": _tok_dayset,
    "wdrange": _tok_wdrange,
    "wdlist": _tok_wdlist,
    "wdspaced": _tok_wdlist,
    "wdcompact": _tok_wdlist,
    "wdone": _tok_wdone,
    "date": _tok_date,
    "dayword": _tok_dayword,
    "hhmm": _tok_hhmm,
    "hrange": _tok_hrange,
    "clock": _tok_clock,
    "named": _tok_named,
    "durspecial": _tok_durspecial,
    "dur": _tok_dur,
    "daypart": _tok_daypart,
}


def _attach_marker(text: str, tok: _Token) -> None:
    """Consume the filler and marker after a token; the marker decides the token's role."""
    end = tok.end
    filler = _FILLER.match(text, end)
    if filler:
        end = filler.end()
    m = _MARKER.match(text, end)
    mark = re.sub(r"\s+", "", m.group("mk")) if m else ""
    if m and mark == "간" and (tok.kind != "dur" or m.start("mk") != end):
        m, mark = None, ""  # 간 only glues straight onto a length ("3일간")
    if m and mark in ("-", "~", "–", "〜") and tok.kind not in ("clock", "day", "weekday"):
        m, mark = None, ""
    if m:
        end = m.end()
    tok.role = _role_for(tok.kind, mark, bool(filler))
    if tok.role is _Role.DELAY:
        after = _AFTER_DELAY.match(text, end)
        if after:
            # "1시간 후까지" is a length; "30분 뒤부터" stays a delay.
            end = after.end()
            if after.group("mk") in ("까지", "동안"):
                tok.role = _Role.LEN
    tok.end = end


def _role_for(kind: str, mark: str, filler: bool) -> _Role:
    if mark == "마다":
        return _Role.EVERY
    if kind == "dur":
        if mark in _DELAY_MARKS:
            return _Role.DELAY
        return _Role.LEN
    if mark in _END_MARKS:
        return _Role.END
    if mark in _START_MARKS:
        return _Role.START
    if kind in ("days", "wholeday") and mark in _LEN_MARKS:
        return _Role.LEN
    return _Role.AT


# --------------------------------------------------------------------------- attach + plan


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
            and a.end == b.start
            and a.clock
            and b.clock
            and a.clock.daypart
            and b.clock.daypart is None
        ):
            b.clock.daypart = a.clock.daypart
            b.clock.day = b.clock.day or a.clock.day


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


# --------------------------------------------------------------------------- resolution


def _add_months(moment: datetime, months: int) -> datetime:
    if not months:
        return moment
    idx = moment.month - 1 + months
    year, month = moment.year + idx // 12, idx % 12 + 1
    day = min(moment.day, _days_in_month(year, month))
    return moment.replace(year=year, month=month, day=day)


def _days_in_month(year: int, month: int) -> int:
    nxt = date(year + month // 12, month % 12 + 1, 1)
    return (nxt - timedelta(days=1)).day


def _month_day_dates(today: date, month: int, mday: int) -> list[date]:
    out: list[date] = []
    for year in (today.year, today.year + 1):
        if mday <= _days_in_month(year, month):
            cand = date(year, month, mday)
            if cand >= today - timedelta(days=1):
                out.append(cand)
    if not out:
        raise _Fail(TimeOutcome.INVALID_TIME, f"{month}/{mday} is not a calendar date")
    return out[:1]


def _at(day: date, minutes: int, tz: tzinfo) -> datetime:
    return datetime.combine(day, time(minutes // 60, minutes % 60), tz)


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
            for s in clock.shifts(shift) if named_day else (0,):
                out.add(_at(base + timedelta(days=s), minutes, tz))
    return sorted(out)


def _point_day_ref(tok: _Token) -> _DayRef:
    assert tok.day is not None
    return tok.day


def _first_after(tok: _Token, moment: datetime, now: datetime) -> datetime:
    """The first instant the end token names strictly after ``moment``."""
    if tok.kind in ("day", "weekday"):
        for base in _point_day_ref(tok).dates(now.date()):
            end = _at(base + timedelta(days=1), 0, _tz(now))
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


def _tz(now: datetime) -> tzinfo:
    assert now.tzinfo is not None
    return now.tzinfo


def _start_candidates(tok: _Token, now: datetime) -> list[datetime]:
    if tok.kind in ("day", "weekday"):
        ref = _point_day_ref(tok)
        if ref.offset == 0:
            return [now]  # "오늘부터" starts now
        return [_at(b, 0, _tz(now)) for b in ref.dates(now.date())]
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


# --------------------------------------------------------------------------- interpretation


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


def _is_today(tok: _Token) -> bool:
    return tok.kind == "day" and tok.day is not None and tok.day.offset == 0


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
    for base in _point_day_ref(tok).dates(now.date()):
        start = _at(base, 0, _tz(now))
        end = _at(base + timedelta(days=1), 0, _tz(now))
        if end > now:
            return TimeAxis.WINDOW, start, end
    raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over", TimeAxis.WINDOW)


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


# --------------------------------------------------------------------------- entry point


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


def _interpret(text: str, tokens: list[_Token], now: datetime) -> tuple[TimeAxis, TimeCondition]:
    recurring = _is_recurring(tokens)
    if not recurring:
        _anchor_daypart_ends(tokens)
    else:
        _drop_end_weekdays(text, tokens)
    tokens = _attach(text, tokens, recurring)
    _bind_hrange_dayparts(tokens)
    plan = _plan(tokens, recurring)
    if recurring:
        cond = _resolve_recurring(plan, now)
        axis = TimeAxis.WEEKLY if cond.recurrence == "weekly" else TimeAxis.DAILY
        _check(cond.delivery, cond.expires, axis)
        return axis, cond
    _fold_today_whole_day(plan)
    axis, delivery, expires = _resolve_once(plan, now)
    _check(delivery, expires, axis)
    return axis, TimeCondition(delivery, expires)


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


def parse_time(text: str, now: datetime) -> TimeResult:
    """Parse the time part of a Korean notification command (CONTRACT.md, "Time axes")."""
    now = _normalise_now(now)
    tokens = _lex(text)
    spans = _spans(text, tokens)
    if not tokens:
        return TimeResult(TimeOutcome.NO_TIME, None, None, spans, "no time expression")
    try:
        axis, cond = _interpret(text, tokens, now)
    except _Fail as fail:
        logger.debug("time parse -> %s: %s", fail.outcome.value, fail.reason)
        return TimeResult(fail.outcome, None, fail.axis, spans, fail.reason)
    return TimeResult(TimeOutcome.OK, cond, axis, spans, None)
