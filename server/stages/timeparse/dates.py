"""Calendar arithmetic: adding months, days in a month, the nth weekday, a wall-clock instant.

Plain functions on ``date``/``datetime`` used by day references and by the resolver. Instants
are built from ``now``'s fixed UTC offset only (never the process time zone).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo

from notillm_local.stages.timeparse.results import TimeOutcome, _Fail


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


def _add_months_date(day: date, months: int) -> date:
    idx = day.month - 1 + months
    year, month = day.year + idx // 12, idx % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, _days_in_month(year, month)))


def _calendar_date(year: int, month: int, mday: int) -> date:
    if not (1 <= month <= 12 and 1 <= mday <= _days_in_month(year, month)):
        raise _Fail(TimeOutcome.INVALID_TIME, "not a calendar date")
    return date(year, month, mday)


def _next_month_day(today: date, mday: int) -> date:
    """ "15일에": the next 15th that is not past (today counts), skipping short months."""
    first = today.replace(day=1)
    for k in range(13):
        month = _add_months_date(first, k)
        if mday <= _days_in_month(month.year, month.month):
            day = month.replace(day=mday)
            if day >= today:
                return day
    raise _Fail(TimeOutcome.INVALID_TIME, "not a day of the month")


def _nth_weekday(first: date, weekday: int, nth: int) -> date | None:
    """The nth (or, for -1, the last) given weekday in the month that starts on ``first``."""
    if nth > 0:
        day = first + timedelta(days=(weekday - first.isoweekday()) % 7 + 7 * (nth - 1))
        return day if day.month == first.month else None
    last = _add_months_date(first, 1) - timedelta(days=1)
    return last - timedelta(days=(last.isoweekday() - weekday) % 7)


def _month_day_dates(today: date, month: int, mday: int) -> list[date]:
    out: list[date] = []
    for year in (today.year, today.year + 1):
        if mday <= _days_in_month(year, month):
            cand = date(year, month, mday)
            if cand >= today - timedelta(days=1):
                out.append(cand)
    if not out:
        raise _Fail(TimeOutcome.INVALID_TIME, "not a calendar date")
    return out[:1]


def _at(day: date, minutes: int, tz: tzinfo, second: int = 0) -> datetime:
    return datetime.combine(day, time(minutes // 60, minutes % 60, second), tz)


def _tz(now: datetime) -> tzinfo:
    assert now.tzinfo is not None
    return now.tzinfo
