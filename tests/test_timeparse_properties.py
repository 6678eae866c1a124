"""Property tests (hypothesis) for notillm_local.timeparse."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notillm_local.stages.timeparse import TimeOutcome, parse_time

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
