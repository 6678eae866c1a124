"""Property tests (hypothesis) for notillm_local.stages.timeparse."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notillm_local.stages.timeparse import TimeCondition, TimeOutcome, parse_time

TIMED = [
    "카톡 2분만 받지마",
    "지금부터 2시간",
    "30분 동안",
    "1시간 반",
    "오후 3시까지",
    "3시까지",
    "자정까지",
    "밤 1시까지",
    "내일 아침 9시까지",
    "저녁 7시부터 10시까지",
    "10시~12시",
    "30분 뒤부터 1시간",
    "10분 후에 오후 5시까지",
    "매일 밤 10시부터 아침 6시까지",
    "매일 9시부터 6시까지",
    "매주 월수금",
    "평일 오전 9시부터 오후 6시까지",
    "주말",
    "주말 밤 10시부터 새벽 2시까지",
    "금요일 6시까지",
    "오늘 하루",
    "내일",
    "정오까지",
    "두 시 반까지",
    "밤 11시부터 새벽 1시까지",
    "매주 일요일 밤 11시부터 새벽 1시까지",
]
RECURRING = [t for t in TIMED if t.startswith(("매일", "매주", "평일", "주말"))]
NO_TIME_WORDS = [
    "카톡",
    "알림",
    "꺼줘",
    "받지마",
    "문자",
    "인스타",
    "모든",
    "스팸",
    "'1234'",
    "3번방",
    "전화",
    "토스",
    "쿠폰",
    "들어간",
    "만",
    "다",
    "좀",
    "줘",
    "5G",
    "10개",
    "세일",
    "시간표",
    "두부",
    "한번",
    "일정",
    "이번",
    "다시",
    "시작",
    "2분기",
    "크리스마스",
]

offsets = st.integers(min_value=-12 * 4, max_value=14 * 4).map(
    lambda q: timezone(timedelta(minutes=15 * q))
)
nows = st.builds(
    lambda base, tz: base.replace(tzinfo=tz),
    st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31)).map(
        lambda d: d.replace(microsecond=0)
    ),
    offsets,
)


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(TIMED), now=nows)
def test_expires_after_delivery_in_nows_offset(text: str, now: datetime) -> None:
    result = parse_time(text, now)
    if result.outcome is not TimeOutcome.OK:
        return  # e.g. nothing; every sentence here is relative, so OK is expected
    cond = result.condition
    assert cond is not None
    assert cond.expires > cond.delivery
    assert cond.delivery.utcoffset() == now.utcoffset()
    assert cond.expires.utcoffset() == now.utcoffset()
    assert cond.delivery.microsecond == 0 and cond.expires.microsecond == 0
    assert cond.expires - cond.delivery <= timedelta(days=366)


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(TIMED), now=nows)
def test_relative_sentences_always_resolve(text: str, now: datetime) -> None:
    assert parse_time(text, now).outcome is TimeOutcome.OK


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(RECURRING), now=nows)
def test_recurring_occurrence_is_current_or_next(text: str, now: datetime) -> None:
    cond = parse_time(text, now).condition
    assert cond is not None
    assert cond.recurrence in ("daily", "weekly")
    assert cond.expires > now
    length = cond.expires - cond.delivery
    assert timedelta(0) < length <= timedelta(days=1)
    # No earlier occurrence may still be running: the one a day/week before has ended.
    step = timedelta(days=1)
    prev_start = cond.delivery - step
    while cond.days_of_week and prev_start.isoweekday() not in cond.days_of_week:
        prev_start -= step
    assert prev_start + length <= now
    assert cond.delivery.strftime("%H:%M") == cond.window_start
    assert cond.expires.strftime("%H:%M") == cond.window_end
    if cond.days_of_week:
        assert cond.delivery.isoweekday() in cond.days_of_week


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.sampled_from(NO_TIME_WORDS), min_size=1, max_size=6), now=nows)
def test_no_time_words_give_no_time(words: list[str], now: datetime) -> None:
    result = parse_time(" ".join(words), now)
    assert result.outcome is TimeOutcome.NO_TIME
    assert result.condition is None


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40), now=nows)
def test_never_crashes(text: str, now: datetime) -> None:
    result = parse_time(text, now)
    for span in result.spans:
        assert text[span.start : span.end] == span.text
    if result.outcome is TimeOutcome.OK:
        assert result.condition is not None
        assert result.condition.expires > result.condition.delivery


@pytest.fixture
def restore_tz() -> Iterator[None]:
    saved = os.environ.get("TZ")
    yield
    if saved is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = saved
    time.tzset()


def _answers(now: datetime) -> list[object]:
    return [parse_time(t, now).to_json() for t in TIMED]


@pytest.mark.usefixtures("restore_tz")
def test_process_time_zone_does_not_matter() -> None:
    nows_ = [
        datetime(2026, 8, 14, 21, 30, tzinfo=timezone(timedelta(hours=9))),
        datetime(2026, 3, 8, 1, 30, tzinfo=timezone(timedelta(hours=-5))),
        datetime(2026, 12, 31, 23, 59, tzinfo=UTC),
    ]
    results = []
    for zone in ("UTC", "Asia/Seoul", "America/New_York"):
        os.environ["TZ"] = zone
        time.tzset()
        results.append([_answers(n) for n in nows_])
    assert results[0] == results[1] == results[2]


# English mixed into Korean means what its Korean equivalent means (CONTRACT.md, Clarifications).
ENGLISH_PAIRS = [
    ("2h 꺼줘", "2시간 꺼줘"),
    ("2 h", "2시간"),
    ("30 min", "30분"),
    ("30min 카톡", "30분 카톡"),
    ("1 hour", "1시간"),
    ("2 hours 동안", "2시간 동안"),
    ("90 minutes", "90분"),
    ("6pm까지", "오후 6시까지"),
    ("9am까지", "오전 9시까지"),
    ("5:30pm까지", "오후 5시 30분까지"),
    ("noon까지", "정오까지"),
    ("midnight까지", "자정까지"),
    ("tomorrow", "내일"),
    ("tomorrow 9am까지", "내일 오전 9시까지"),
    ("every day 10pm to 6am", "매일 밤 10시부터 아침 6시까지"),
    ("everyday 10pm부터 6am까지", "매일 밤 10시부터 아침 6시까지"),
    ("daily 11pm부터 7am까지", "매일 밤 11시부터 아침 7시까지"),
    ("weekdays", "평일"),
    ("weekdays 9am부터 6pm까지", "평일 오전 9시부터 오후 6시까지"),
    ("weekend", "주말"),
    ("weekends 10pm to 2am", "주말 밤 10시부터 새벽 2시까지"),
    ("until 6pm", "오후 6시까지"),
    ("for 2 hours", "2시간 동안"),
    ("from 10pm to 6am", "밤 10시부터 아침 6시까지"),
]


def _condition(text: str, now: datetime) -> tuple[TimeOutcome, TimeCondition | None]:
    result = parse_time(text, now)
    return result.outcome, result.condition


def _recase(text: str, mask: list[bool]) -> str:
    return "".join(
        ch.upper() if ch.isascii() and flip else ch for ch, flip in zip(text, mask, strict=False)
    )


@settings(max_examples=300, deadline=None)
@given(pair=st.sampled_from(ENGLISH_PAIRS), now=nows, mask=st.lists(st.booleans(), min_size=40))
def test_english_means_its_korean_equivalent_in_any_case(
    pair: tuple[str, str], now: datetime, mask: list[bool]
) -> None:
    english, korean = pair
    expected = _condition(korean, now)
    assert expected[0] is TimeOutcome.OK
    assert _condition(_recase(english, mask), now) == expected


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(TIMED), now=nows)
def test_text_typed_without_spaces_means_the_same(text: str, now: datetime) -> None:
    assert _condition(text.replace(" ", ""), now) == _condition(text, now)


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(TIMED + [e for e, _ in ENGLISH_PAIRS]), now=nows)
def test_text_outside_spans_holds_no_time(text: str, now: datetime) -> None:
    """Callers treat everything outside ``spans`` as non-time: blanking the spans leaves none."""
    result = parse_time(text, now)
    chars = list(text)
    for span in result.spans:
        chars[span.start : span.end] = " " * (span.end - span.start)
    rest = parse_time("".join(chars), now)
    assert rest.outcome is TimeOutcome.NO_TIME
    assert rest.spans == () and rest.unread == ()


MODIFIERS = ["첫째 주", "둘째 주", "마지막 주", "격주", "다다음주", "말일", "이번", "다음", "설날"]
TIME_WORDS = ["월요일까지", "2시간", "오후 3시까지", "15일까지", "다음 달", "내일", "3월"]


@settings(max_examples=300, deadline=None)
@given(
    before=st.sampled_from(TIME_WORDS),
    modifier=st.sampled_from(MODIFIERS),
    after=st.sampled_from(TIME_WORDS),
    now=nows,
)
def test_an_unread_modifier_is_never_dropped_into_a_rule(
    before: str, modifier: str, after: str, now: datetime
) -> None:
    text = f"{before} {modifier} {after} 알림 꺼줘"
    result = parse_time(text, now)
    if result.unread:
        assert result.outcome is not TimeOutcome.OK
        assert result.condition is None
    for span in (*result.spans, *result.unread):
        assert text[span.start : span.end] == span.text
    for u in result.unread:
        assert all(u.end <= s.start or u.start >= s.end for s in result.spans)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40), now=nows)
def test_unread_is_never_ok(text: str, now: datetime) -> None:
    result = parse_time(text, now)
    if result.unread:
        assert result.outcome is not TimeOutcome.OK


PAST = [
    "어제까지",
    "그제부터",
    "엊그제 아침 8시까지",
    "지난주부터",
    "지난 일요일까지",
    "저번주 화요일까지",
    "지난 2주",
    "지난 이틀 동안",
    "7일전",
    "3주 전부터",
    "2년 전까지",
    "작년부터",
    "방금부터",
    "어제 밤 10시까지",
]


@settings(max_examples=300, deadline=None)
@given(
    text=st.sampled_from(PAST), tail=st.sampled_from(["", " 카톡 꺼줘", " 알림 받지마"]), now=nows
)
def test_past_expressions_never_make_a_rule(text: str, tail: str, now: datetime) -> None:
    result = parse_time(text + tail, now)
    assert result.outcome is TimeOutcome.INVALID_TIME
    assert result.condition is None


@settings(max_examples=300, deadline=None)
@given(day=st.integers(min_value=1, max_value=31), now=nows)
def test_day_of_month_is_the_next_such_date(day: int, now: datetime) -> None:
    cond = parse_time(f"{day}일에 알림 꺼줘", now).condition
    assert cond is not None
    start = cond.delivery.date()
    assert start.day == day and cond.expires - cond.delivery == timedelta(days=1)
    assert start >= now.date()
    # No earlier date from today on has that day of the month.
    d = now.date()
    while d < start:
        assert d.day != day
        d += timedelta(days=1)
    length = parse_time(f"{day}일 동안 알림 꺼줘", now).condition
    assert length is not None and length.expires - length.delivery == timedelta(days=day)


@settings(max_examples=300, deadline=None)
@given(wd=st.sampled_from("월화수목금토일"), now=nows)
def test_next_week_weekday_is_in_the_next_iso_week(wd: str, now: datetime) -> None:
    cond = parse_time(f"다음주 {wd}요일까지", now).condition
    assert cond is not None
    day = cond.expires.date() - timedelta(days=1)
    assert day.isoweekday() == "월화수목금토일".index(wd) + 1
    monday = now.date() - timedelta(days=now.weekday())
    assert monday + timedelta(days=7) <= day < monday + timedelta(days=14)
    this = parse_time(f"이번주 {wd}요일까지", now)
    if this.condition is not None:
        assert monday <= this.condition.expires.date() - timedelta(days=1) < monday + timedelta(7)
    else:
        assert this.outcome is TimeOutcome.INVALID_TIME


@settings(max_examples=300, deadline=None)
@given(now=nows)
def test_this_weekend_is_one_occurrence(now: datetime) -> None:
    cond = parse_time("이번 주말 알림 꺼줘", now).condition
    assert cond is not None and cond.recurrence == "none"
    monday = now.date() - timedelta(days=now.weekday())
    saturday = datetime.combine(monday + timedelta(days=5), datetime.min.time(), now.tzinfo)
    assert cond.delivery == max(saturday, now.replace(microsecond=0))
    assert cond.expires == saturday + timedelta(days=2)
    assert isinstance(cond.expires.date(), date)
