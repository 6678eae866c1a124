"""Table-driven tests for notillm_local.stages.timeparse (expected values computed by hand)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from notillm_local.eval import DATA_DIR
from notillm_local.stages.timeparse import (
    TimeAxis,
    TimeCondition,
    TimeOutcome,
    TimeResult,
    TimeSpan,
    parse_time,
)

CASES_PATH = Path(__file__).parent / "data" / "time_cases.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_PATH.read_text(encoding="utf-8").splitlines() if line
]
NOW = datetime(2026, 8, 14, 21, 30, tzinfo=timezone(timedelta(hours=9)))


def _instant(value: str) -> datetime:
    return datetime.fromisoformat(value)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}:{c['text']}" for i, c in enumerate(CASES)])
def test_table(case: dict[str, Any]) -> None:
    now = datetime.fromisoformat(case["now"])
    expected = case["expected"]
    result = parse_time(case["text"], now)
    assert result.outcome.value == expected["outcome"], result.reason
    if "axis" in expected:
        assert result.axis is not None and result.axis.value == expected["axis"]
    if expected["outcome"] != "ok":
        assert result.condition is None
        assert result.reason
        return
    assert result.condition is not None
    cond = result.condition.to_contract()
    assert _instant(cond["delivery"]) == _instant(expected["delivery"])
    assert _instant(cond["expires"]) == _instant(expected["expires"])
    for key in ("recurrence", "days_of_week", "window_start", "window_end"):
        assert cond[key] == expected[key], key
    # Answers are written in the request's own offset.
    assert cond["delivery"][-6:] == case["now"][-6:]
    assert cond["expires"][-6:] == case["now"][-6:]


def test_table_is_large_and_varied() -> None:
    assert len(CASES) >= 200
    offsets = {c["now"][-6:] for c in CASES}
    assert {"+09:00", "-05:00", "+00:00"} <= offsets
    outcomes = {c["expected"]["outcome"] for c in CASES}
    assert outcomes == {o.value for o in TimeOutcome}
    axes = {c["expected"].get("axis") for c in CASES} - {None}
    assert axes == {a.value for a in TimeAxis}


def test_contract_examples_are_in_table() -> None:
    examples = DATA_DIR / "examples.jsonl"
    texts = {(c["text"], c["now"]) for c in CASES}
    for line in examples.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if "time" not in case.get("tags", {}):
            continue
        assert (case["input"]["prompt"], case["input"]["currentTime"]) in texts


def test_to_contract_shape() -> None:
    result = parse_time("지금부터 2시간 카톡 알림 받지마", NOW)
    assert result.condition is not None
    assert result.condition.to_contract() == {
        "delivery": "2026-08-14T21:30:00+09:00",
        "expires": "2026-08-14T23:30:00+09:00",
        "recurrence": "none",
        "days_of_week": [],
        "window_start": None,
        "window_end": None,
        "activity": None,
        "location": None,
    }


def test_to_json_shape() -> None:
    data = parse_time("매일 밤 10시부터 아침 6시까지 조용히", NOW).to_json()
    assert data["outcome"] == "ok"
    assert data["axis"] == "daily"
    assert data["condition"]["window_start"] == "22:00"
    assert data["spans"] == [{"start": 0, "end": 18, "text": "매일 밤 10시부터 아침 6시까지"}]
    assert data["reason"] is None
    json.dumps(data, ensure_ascii=False)


def test_failure_json_has_reason_and_no_condition() -> None:
    data = parse_time("2시간 동안 3시간", NOW).to_json()
    assert data["outcome"] == "conflict"
    assert data["condition"] is None
    assert isinstance(data["reason"], str)
    assert [s["text"] for s in data["spans"]] == ["2시간 동안 3시간"]


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("카톡 2분만 받지마", ["2분만"]),
        ("지금부터 1시간 문자만 받아줘", ["지금부터 1시간"]),
        ("'쿠폰' 들어간 알림 3시간 동안 꺼줘", ["3시간 동안"]),
        ("오후 3시까지 유튜브 꺼줘", ["오후 3시까지"]),
        ("30분 뒤부터 1시간 카톡 꺼줘", ["30분 뒤부터 1시간"]),
        ("카톡 알림 꺼줘", []),
    ],
)
def test_spans(text: str, spans: list[str]) -> None:
    result = parse_time(text, NOW)
    assert [s.text for s in result.spans] == spans
    for span in result.spans:
        assert isinstance(span, TimeSpan)
        assert text[span.start : span.end] == span.text


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError):
        parse_time("2시간", datetime(2026, 8, 14, 21, 30))


def test_microseconds_are_dropped() -> None:
    now = NOW.replace(microsecond=123456)
    result = parse_time("10분", now)
    assert result.condition is not None
    assert result.condition.delivery.microsecond == 0
    assert result.condition.to_contract()["expires"] == "2026-08-14T21:40:00+09:00"


def test_dst_zone_is_read_as_its_fixed_offset() -> None:
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        tz = zoneinfo.ZoneInfo("America/New_York")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no tz database")
    # 2026-11-01 is the US fall-back day; 24 hours must stay 24 real hours at -04:00.
    now = datetime(2026, 10, 31, 12, 0, tzinfo=tz)
    result = parse_time("24시간", now)
    assert result.condition is not None
    assert result.condition.to_contract()["expires"] == "2026-11-01T12:00:00-04:00"


def test_result_types_are_frozen() -> None:
    result = parse_time("2시간", NOW)
    assert isinstance(result, TimeResult)
    assert isinstance(result.condition, TimeCondition)
    with pytest.raises(AttributeError):
        result.outcome = TimeOutcome.NO_TIME  # type: ignore[misc]


def test_bench_time_reports_percentiles() -> None:
    from notillm_local.eval.timebench import bench_time

    report = bench_time([(c["text"], datetime.fromisoformat(c["now"])) for c in CASES[:20]], 2)
    assert report["samples"] == 40
    assert 0 < report["p50_us"] <= report["p99_us"] <= report["max_us"]
    with pytest.raises(ValueError):
        bench_time([], 1)


def test_unread_modifier_makes_the_time_unclear() -> None:
    text = "다음 달 첫째 주 월요일까지 알림 꺼줘"
    result = parse_time(text, NOW)
    assert result.outcome is TimeOutcome.UNCLEAR
    assert result.condition is None
    assert [u.text for u in result.unread] == ["첫째 주"]
    for span in (*result.spans, *result.unread):
        assert text[span.start : span.end] == span.text
    # The modifier is never dropped into a rule, and spans and unread words never overlap.
    assert all(u.end <= s.start or u.start >= s.end for u in result.unread for s in result.spans)
    assert result.to_json()["unread"] == [{"start": 5, "end": 9, "text": "첫째 주"}]


@pytest.mark.parametrize(
    "text",
    ["격주 월요일 꺼줘", "다다음주 월요일까지", "말일까지 꺼줘", "설날까지 꺼줘", "1시간30 꺼줘"],
)
def test_unread_words_are_reported(text: str) -> None:
    result = parse_time(text, NOW)
    assert result.outcome is TimeOutcome.UNCLEAR
    assert result.unread


def test_ok_results_have_nothing_unread() -> None:
    for case in CASES:
        result = parse_time(case["text"], datetime.fromisoformat(case["now"]))
        if result.outcome is TimeOutcome.OK:
            assert result.unread == (), case["text"]


def test_reasons_are_short_and_carry_no_user_text() -> None:
    reasons = set()
    for case in CASES:
        result = parse_time(case["text"], datetime.fromisoformat(case["now"]))
        if result.reason is not None:
            reasons.add(result.reason)
            assert len(result.reason) <= 60
            for span in (*result.spans, *result.unread):
                assert span.text not in result.reason
    assert len(reasons) < 45  # a fixed vocabulary of reasons, not text built from the prompt


def test_result_without_unread_defaults_to_empty() -> None:
    result = TimeResult(TimeOutcome.NO_TIME, None, None, (), "no time expression")
    assert result.unread == ()
    assert result.to_json()["unread"] == []


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("until 6pm 슬랙 꺼줘", ["until 6pm"]),
        ("카톡 2h만 off", ["2h만"]),
        ("tomorrow 9am까지 알림 off", ["tomorrow 9am까지"]),
        ("every day 10pm to 6am 모든 알림 silent", ["every day 10pm to 6am"]),
        ("인스타알림세시간꺼줘", ["세시간"]),
        ("약 2시간 카톡 꺼줘", ["약 2시간"]),
        ("30분 안 보이게 해줘", ["30분"]),
    ],
)
def test_spans_cover_what_was_read(text: str, spans: list[str]) -> None:
    assert [s.text for s in parse_time(text, NOW).spans] == spans


def test_english_words_come_from_the_lexicon_file() -> None:
    from importlib import resources

    raw = resources.files("notillm_local.lexicon").joinpath("time_en.json").read_text("utf-8")
    lexicon = json.loads(raw)
    seconds = {"시간": 3600, "분": 60, "초": 1, "일": 86400, "주": 7 * 86400}
    for korean, words in lexicon["units"].items():
        for word in words:
            for spelled in (f"2 {word}", f"2{word.upper()}"):
                result = parse_time(f"{spelled} 꺼줘", NOW)
                assert result.outcome is TimeOutcome.OK, spelled
                assert result.condition is not None
                if korean in seconds:
                    length = result.condition.expires - result.condition.delivery
                    assert length == timedelta(seconds=2 * seconds[korean]), spelled
    for words in lexicon["meridiem"].values():
        for word in words:
            assert parse_time(f"9{word}까지", NOW).outcome is TimeOutcome.OK, word


def test_weekday_of_a_date_must_match() -> None:
    now = datetime(2013, 2, 12, 4, 30, tzinfo=timezone(timedelta(hours=-2)))
    assert parse_time("2월 18일 월요일까지", now).outcome is TimeOutcome.OK
    assert parse_time("2월 18일 화요일까지", now).outcome is TimeOutcome.CONFLICT


@pytest.mark.parametrize(
    ("text", "expires"),
    [
        ("새벽 2시 반인데 잠이 안옴 아침 9시까지 꺼줘", "2026-08-15T09:00:00+09:00"),
        ("벌써 11시네 내일 7시까지 카톡 꺼줘", "2026-08-15T07:00:00+09:00"),
        ("밤 10시인데 자정까지 꺼줘", "2026-08-15T00:00:00+09:00"),
    ],
)
def test_a_clock_time_said_about_now_is_no_start(text: str, expires: str) -> None:
    # "2시 반인데", "11시네": a remark, not the start of a window (natural_e's first run).
    result = parse_time(text, NOW)
    assert result.outcome is TimeOutcome.OK and result.condition is not None
    assert result.condition.delivery == NOW
    assert result.condition.expires == _instant(expires)


def test_a_clock_time_with_a_marker_is_still_read() -> None:
    result = parse_time("2시 반부터 4시까지 꺼줘", NOW)
    assert result.outcome is TimeOutcome.OK and result.condition is not None
    assert result.condition.delivery.hour == 2 and result.condition.delivery.minute == 30


@pytest.mark.parametrize("word", ["tomorrow", "tomorow", "tommorow"])
def test_tomorrow_as_people_type_it(word: str) -> None:
    result = parse_time(f"gmail 알림 {word} noon까지 꺼줘", NOW)
    assert result.outcome is TimeOutcome.OK and result.condition is not None
    assert result.condition.expires == _instant("2026-08-15T12:00:00+09:00")
