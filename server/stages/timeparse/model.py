"""The parser's internal types: roles, lengths, day references, clock readings, tokens, plan.

A ``_Token`` is what the lexer makes of one time expression; the attach pass fills in its day
and day part; ``_Plan`` sorts tokens by role before resolution. ``_DayRef`` and ``_Clock`` know
which dates and minutes of the day they can name, so the resolver only picks among them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import Enum

from notillm_local.stages.timeparse.dates import (
    _add_months,
    _add_months_date,
    _calendar_date,
    _month_day_dates,
    _next_month_day,
    _nth_weekday,
)
from notillm_local.stages.timeparse.results import TimeOutcome, _Fail
from notillm_local.stages.timeparse.vocabulary import _DP_HOURS, _DP_MORNING


class _Role(Enum):
    AT = "at"
    START = "start"
    END = "end"
    LEN = "len"
    DELAY = "delay"
    EVERY = "every"
    PAST = "past"


# From this hour on, "오늘 새벽" may mean the coming early morning (the night continues).
_EVENING_HOUR = 18

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
    """A day, or a period of days (a week, a weekend, a month), named in the sentence."""

    offset: int | None = None  # 오늘=0, 내일=1 ...
    weekday: int | None = None  # ISO 1..7
    month_day: tuple[int, int] | None = None
    year: int | None = None  # with month_day or month: that year only
    week: int | None = None  # ISO week from this one: 0 이번주, 1 다음주 (alone: the whole week)
    weekend: bool = False  # with week: that week's Saturday and Sunday
    after_today: bool = False  # with weekday: 다음/오는 X요일, strictly after today
    next_week_only: bool = False  # 다음 X요일: must fall in the next ISO week, else unclear
    month_rel: int | None = None  # 0 이번 달, 1 다음 달 (alone: the whole month)
    month: int | None = None  # a named month, 3월 (alone: the whole month)
    year_rel: int | None = None  # 0 올해, 1 내년, 2 내후년: always the whole year
    month_after: bool = False  # 다음 3월: the first one that starts after today
    mday: int | None = None  # a day of the month: alone ("15일에") or with month_rel
    nth: int | None = None  # with weekday and a month: 1..5, or -1 for the last
    check_weekday: int | None = None  # "2월 18일 월요일": the date must fall on that weekday

    @property
    def multi_day(self) -> bool:
        """A week, weekend or month rather than one day."""
        if self.week is not None:
            return self.weekday is None
        if self.year_rel is not None:
            return True
        month = self.month_rel is not None or self.month is not None
        return month and self.mday is None and self.nth is None

    def end_of(self, base: date) -> date:
        """The day after the period that starts on ``base``."""
        if self.week is not None and self.weekday is None:
            return base + timedelta(days=2 if self.weekend else 7)
        if self.year_rel is not None:
            return _add_months_date(base, 12)
        if self.multi_day:
            return _add_months_date(base, 1)
        return base + timedelta(days=1)

    def dates(self, today: date) -> list[date]:
        found = self._dates(today)
        if self.check_weekday is not None and any(
            d.isoweekday() != self.check_weekday for d in found
        ):
            raise _Fail(TimeOutcome.CONFLICT, "the weekday does not match the date")
        return found

    def _dates(self, today: date) -> list[date]:
        if self.offset is not None:
            return [today + timedelta(days=self.offset)]
        if self.week is not None:
            monday = today - timedelta(days=today.weekday()) + timedelta(weeks=self.week)
            if self.weekend:
                return [monday + timedelta(days=5)]
            return [monday + timedelta(days=(self.weekday or 1) - 1)]
        if self.year_rel is not None:
            return [date(today.year + self.year_rel, 1, 1)]
        if self.month_rel is not None or self.month is not None:
            return self._month_dates(today)
        if self.mday is not None:
            return [_next_month_day(today, self.mday)]
        if self.weekday is not None:
            return self._weekday_dates(today)
        assert self.month_day is not None
        if self.year is not None:
            return [_calendar_date(self.year, *self.month_day)]
        return _month_day_dates(today, *self.month_day)

    def _weekday_dates(self, today: date) -> list[date]:
        assert self.weekday is not None
        if not self.after_today:
            return [
                today + timedelta(days=k)
                for k in range(-1, 14)
                if (today + timedelta(days=k)).isoweekday() == self.weekday
            ]
        ahead = (self.weekday - today.isoweekday()) % 7 or 7
        day = today + timedelta(days=ahead)
        if self.next_week_only and day.isocalendar()[:2] == today.isocalendar()[:2]:
            # "다음 금요일" said on a Monday: this Friday or next week's? Ask.
            raise _Fail(TimeOutcome.UNCLEAR, "'next weekday' may be this week or the next")
        return [day]

    def _month_dates(self, today: date) -> list[date]:
        """Start of the named month, or the day in it (a day of the month, an nth weekday)."""
        this_month = today.replace(day=1)
        if self.month_rel is not None:
            firsts = [_add_months_date(this_month, self.month_rel)]
        else:
            assert self.month is not None
            years = [self.year] if self.year is not None else [today.year, today.year + 1]
            firsts = [date(y, self.month, 1) for y in years]
            if self.year is None:
                # The coming such month: this year's unless it is over (or, for 다음 3월, begun).
                firsts = [
                    f
                    for f in firsts
                    if (f > today if self.month_after else _add_months_date(f, 1) > today)
                ]
        out: list[date] = []
        for first in firsts:
            if self.mday is not None:
                out.append(_calendar_date(first.year, first.month, self.mday))
            elif self.nth is not None:
                assert self.weekday is not None
                day = _nth_weekday(first, self.weekday, self.nth)
                if day is None:
                    raise _Fail(TimeOutcome.INVALID_TIME, "that month has no such weekday")
                if self.year is None and self.month_rel is None and day < today:
                    continue  # this year's is over: next year's
                out.append(day)
            else:
                out.append(first)
        if not out:
            raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over")
        return out[:1]


@dataclass
class _Clock:
    hour: int  # as said (1..12 for ambiguous hours, else 0..24)
    minute: int
    daypart: str | None = None
    named: str | None = None  # 정오 / 자정
    day: _DayRef | None = None
    second: int = 0

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

    def shifts(self, shift: int, now_hour: int) -> tuple[int, ...]:
        if self.daypart == "밤" and self.hour in (12, 1, 2, 3, 4):
            return (1,)
        if (
            self.daypart == "새벽"
            and self.day is not None
            and self.day.offset == 0
            and now_hour >= _EVENING_HOUR
        ):
            # "오늘 새벽 3시" said late at night means the coming early morning too; said in
            # the morning or afternoon it is this morning's, already past.
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
    mark: str = ""  # the marker consumed after the token ("까지", "부터", "" ...)
    prefix: str = ""  # the Korean meaning of an English marker before it ("until" -> "까지")
    mday: int | None = None  # a length "N일" that may name a day of the month instead
    ranged: bool = False  # the end of "3~5시", which shares the start's day part


@dataclass
class _Plan:
    """The roles found in the sentence, before resolution."""

    starts: list[_Token] = field(default_factory=list)
    ends: list[_Token] = field(default_factory=list)
    lengths: list[_Token] = field(default_factory=list)
    delays: list[_Token] = field(default_factory=list)
    ats: list[_Token] = field(default_factory=list)
    # A clock time said alone is the end: the answer to "until when?" in a follow-up turn.
    lone_time_ends: bool = False
    days: set[int] = field(default_factory=set)
    lone_days: list[_Token] = field(default_factory=list)
    has_now: bool = False
    loose_dayparts: int = 0
    daily: bool = False
    weekly: bool = False
    whole_day: bool = False
