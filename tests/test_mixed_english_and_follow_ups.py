"""Reading what natural_j's first run showed (issue 12, sixth fresh set, read after its sealed
run): English times and exceptions mixed into Korean, apps the device names by a brand's first
words, follow-ups that widen the target or give the hours of repeating days, and the policy for
a keyword or an app the model proposes for a word code could not read — on the real alias table,
the real reader, the real time parser and the real service (real GGUF, real ONNX)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.extract import ModelAnswer, combine
from notillm_local.stages.timeparse import TimeOutcome, parse_time
from notillm_local.stages.timeparse.vocabulary import english_numbers_as_digits
from tests.phrasing import ask, read

NOW = "2033-03-10T13:45:00+09:00"
RUNNER = InstalledIndex.of([
    AppRef("Strava", "com.strava"), AppRef("Nike Run Club", "com.nike.plusgps"),
    AppRef("Garmin Connect", "com.garmin.android.apps.connectmobile"),
    AppRef("카카오톡", "com.kakao.talk"), AppRef("Google Fit", "com.google.android.apps.fitness"),
])


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


# --------------------------------------------------------------------------- English times


@pytest.mark.parametrize(("text", "seconds"), [
    ("two hours만 카톡 꺼", 7200),
    ("지금부터 half an hour 동안", 1800),
    ("1h30m동안유튜브알림꺼", 5400),
    ("2h 30m 동안 Gmail", 9000),
    ("an hour and a half 동안 카톡 꺼", 5400),
    ("2 hours and a half 카톡 꺼", 9000),
    ("forty-five minutes 슬랙 꺼", 2700),
    ("for an hour 카톡", 3600),
])
def test_english_number_words_and_short_units(text, seconds) -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time(text, now)
    assert r.outcome is TimeOutcome.OK and r.condition is not None, (text, r.reason)
    assert (r.condition.expires - r.condition.delivery).total_seconds() == seconds, text


@pytest.mark.parametrize("text", ["one more time 카톡", "삼성 a 시리즈 알림", "an app for 카톡"])
def test_an_english_number_word_is_a_time_only_before_a_unit(text) -> None:
    assert parse_time(text, datetime.fromisoformat(NOW)).outcome is TimeOutcome.NO_TIME


def test_the_rewrite_keeps_every_offset() -> None:
    for text in ["two hours만", "half an hour", "an hour and a half 동안", "forty-five mins"]:
        out = english_numbers_as_digits(text)
        assert len(out) == len(text) and out != text


def test_a_whole_english_length_leaves_no_word_unread(service) -> None:
    """"2 hours and a half": the time's span covers "and a half" (it was asked about as "nd")."""
    r = _ask(service, "2 hours and a half 카톡 꺼")
    assert r.ok, r.message
    assert r.meta.llmCalls == 0


def test_once_some_minutes_have_passed(service) -> None:
    r = _ask(service, "20분 지나면 두 시간 동안 알림 다 꺼줘")
    assert r.ok, r.message
    assert r.condition is not None
    assert r.condition.delivery == "2033-03-10T14:05:00+09:00"
    assert r.condition.expires == "2033-03-10T16:05:00+09:00"


def test_this_time_of_year_last_year_is_in_the_past(service) -> None:
    r = _ask(service, "작년이맘때부터틱톡꺼줘")
    assert not r.ok and r.failReason is not None and r.failReason.value == "invalid_time"


# --------------------------------------------------------------------------- English exceptions


@pytest.mark.parametrize(("text", "kept"), [
    ("all off except 카톡, 오전 11시 반까지", ["카카오톡"]),
    ("everything off except slack and 카톡 for 2시간", ["Slack", "카카오톡"]),
    ("mute all but 카톡 2시간", ["카카오톡"]),
    ("모든 알림 off other than 카톡이랑 slack 30분", ["카카오톡", "Slack"]),
])
def test_english_names_the_kept_apps_after_the_exception_word(service, text, kept) -> None:
    """It muted 카톡 ("all off except 카톡": the only app named became the target)."""
    r = _ask(service, text)
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.mute is False
    assert r.targetFixed.name == kept


def test_but_keeps_nothing_unless_it_follows_all(service) -> None:
    r = _ask(service, "but 카톡은 꺼줘 1시간")
    assert not (r.ok and r.targetFixed is not None and r.targetFixed.mute is False), r.message


def test_oe_en_is_an_exception_word(table_mapper, default_index) -> None:
    r = read(table_mapper, "카톡외엔다막아", default_index)
    assert r.mute is False and [m.app.label for m in r.apps] == ["카카오톡"]


# --------------------------------------------------------------------------- device apps


@pytest.mark.parametrize(("word", "label"), [("가민", "Garmin Connect"), ("나이키런", "Nike Run Club")])
def test_a_device_app_named_by_its_first_words(table_mapper, word, label) -> None:
    app = table_mapper.sounds_like(word, RUNNER)
    assert app is not None and app.label == label


def test_first_words_two_apps_share_name_neither(table_mapper) -> None:
    two = InstalledIndex.of([*RUNNER.apps, AppRef("Garmin Golf", "com.garmin.golf")])
    assert table_mapper.sounds_like("가민", two) is None


def test_a_runner_keeps_three_apps(service) -> None:
    r = _ask(service, "러닝 나갈 거라 스트라바 나이키런 가민 빼고 다 꺼 90분", RUNNER)
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.mute is False
    assert r.targetFixed.name == ["Strava", "Nike Run Club", "Garmin Connect"]


# --------------------------------------------------------------------------- code and model


def test_an_app_kept_out_is_never_the_app_of_another_word(table_mapper, default_index) -> None:
    """The model names the kept apps as the ones let through; placing one of them for a word code
    could not read ("시작") had muted it. (With "~" after "시작" the opening is a statement of its
    own, context, and no word is left unread.)"""
    r = read(table_mapper, "장거리 운전 시작 티맵 전화 빼고 다 꺼", default_index)
    assert r.kept_out and r.unknown_words
    phone = next(a for a in default_index.apps if a.label == "전화")
    said = ModelAnswer(intent=None, apps=("티맵", "전화"), keywords=())
    out, _ = combine(r, said, default_index, full=False, plausible=lambda w, i: [phone])
    assert not (out.mute and {m.app.label for m in out.apps} & {"티맵", "전화"}), out


def test_a_keyword_the_model_makes_of_an_unread_word_is_asked_about(
    table_mapper, default_index
) -> None:
    r = read(table_mapper, "런데이알림꺼줘", default_index)
    assert r.unknown_words and not r.loose_words
    word = r.unknown_words[0]
    out, how = combine(r, ModelAnswer(intent=None, apps=(), keywords=(word,)), default_index,
                       full=False)
    assert out.content == () and [u.word for u in out.unresolved] == [word] and how == "asked"


def test_a_keyword_the_model_makes_of_a_loose_word_is_no_keyword(table_mapper, default_index) -> None:
    r = read(table_mapper, "'가격 제안' 오는 당근 알림은 꺼 주실 수 있을까요 부디", default_index)
    # ("주실 수 있을까요" is filler: the question's own ending; "부디" (please) stands after it)
    assert "부디" in r.loose_words
    said = ModelAnswer(intent=None, apps=("당근",), keywords=("부디",))
    out, _ = combine(r, said, default_index, full=False)
    assert out.content == ("가격 제안",) and not out.unresolved


def test_a_word_one_jamo_off_the_app_the_model_named(table_mapper, default_index) -> None:
    r = read(table_mapper, "커팡 베민 당근 알림 블락해줘", default_index)
    assert "커팡" in r.unknown_words
    said = ModelAnswer(intent=None, apps=("쿠팡", "배달의민족", "당근"), keywords=())
    out, _ = combine(
        r, said, default_index, full=False,
        accounts_for=lambda w, a: table_mapper.resembles_name_of(w, a, default_index),
    )
    assert "쿠팡" in [m.app.label for m in out.apps] and not out.unresolved
    # A model that names another app for it is not followed: the answer asks.
    said = ModelAnswer(intent=None, apps=("쿠팡이츠", "배달의민족", "당근"), keywords=())
    out, how = combine(
        r, said, default_index, full=False,
        accounts_for=lambda w, a: table_mapper.resembles_name_of(w, a, default_index),
        resembles_app=lambda w: table_mapper.resembles_app(w, default_index),
    )
    assert [u.word for u in out.unresolved] == ["커팡"] and how == "asked"


def test_model_mode_keeps_codes_embedding_app_the_model_swapped_for_one_nobody_named(
    table_mapper, default_index
) -> None:
    melon = next(a for a in default_index.apps if a.label == "멜론")
    spotify = next(a for a in default_index.apps if a.label == "Spotify")
    r = read(table_mapper, "메론이랑 스포티파이 알림 꺼줘", default_index)
    # Code's reading as the embeddings give it (the table alone leaves 메론 unread).
    r = replace(r, apps=(
        AppMatch(word="메론", app=melon, score=0.9, method="embedding"),
        *(m for m in r.apps if m.app == spotify),
    ), unknown_words=(), loose_words=())
    said = ModelAnswer(intent="끄기", apps=("메시지", "Spotify"), keywords=())
    out, how = combine(r, said, default_index, full=True,
                       mentioned=lambda a: a.label != "메시지")
    assert {m.app.label for m in out.apps} == {"멜론", "Spotify"} and how == "code-kept"


def test_the_service_never_mutes_a_kept_app_for_a_word_it_could_not_read(service) -> None:
    """Real model, real embeddings: whatever the answer (the kept apps let through, or a question
    about "시작"), it never mutes an app the user kept ("시작" had become 전화, muted)."""
    r = _ask(service, "장거리 운전 시작~ 티맵 전화 빼고 다 꺼 4시간 반")
    if r.ok:
        assert r.targetFixed is not None and r.targetFixed.mute is False
        assert set(r.targetFixed.name) == {"TMAP", "전화"}
    else:
        assert r.failReason is not None and r.failReason.value == "app_unresolved"


def test_the_service_asks_about_an_app_it_does_not_know_rather_than_keyword_it(service) -> None:
    """Real model: "런데이알림" had become the keyword "런데", silencing whatever mentions it."""
    r = _ask(service, "런데이알림1시간꺼줘")
    assert not r.ok and r.failReason is not None and r.failReason.value == "app_unresolved"
    assert r.targetFixed is None or not r.targetFixed.content


# --------------------------------------------------------------------------- follow-ups


def test_the_hours_of_repeating_days(service) -> None:
    r = _ask(service, "아침 8시부터 낮 12시까지", pending=True,
             pendingOriginal="매주 토일 알림 다 끄고 싶어")
    assert r.ok, r.message
    c = r.condition
    assert c is not None and c.recurrence == "weekly" and c.days_of_week == [6, 7]
    assert (c.window_start, c.window_end) == ("08:00", "12:00")
    r = _ask(service, "밤 10시부터 아침 7시까지", pending=True, pendingOriginal="매일 카톡 꺼줘")
    assert r.ok and r.condition is not None and r.condition.recurrence == "daily"


def test_a_follow_up_that_widens_the_target(service) -> None:
    r = _ask(service, "디코랑 유튜브 둘 다, 자정까지", pending=True,
             pendingOriginal="디스코드 알림 꺼주세요")
    assert r.ok, r.message
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE"
    assert r.targetFixed is not None and r.targetFixed.name == ["Discord", "YouTube"]


def test_first_of_all_is_no_word_of_the_rule(service) -> None:
    r = _ask(service, "그보다먼저다음주금요일오후6시까지슬랙알림차단", pending=True,
             pendingOriginal="네이버 알림 꺼줄래")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["Slack"]


def test_a_polite_request_in_the_conditional(service) -> None:
    """"꺼주시면 감사하겠습니다" is a request, not an if-clause (the gate had refused it)."""
    r = _ask(service, "카톡 알림 한 시간만 꺼주시면 감사하겠습니다")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["카카오톡"]
    # An if-clause about something else is still one.
    r = _ask(service, "카톡 오면 알림 꺼줘 1시간")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["카카오톡"]


def test_an_app_name_starting_inside_a_time_marker_is_no_app(service) -> None:
    """"자정까지도": a device app called 지도 would straddle 까지; the time reading stands. A name
    straddling a marker of one syllable still wins ("2시간 에타": 에 is no marker there)."""
    device = InstalledIndex.of([AppRef("지도", "com.example.map"), AppRef("카카오톡", "com.kakao.talk")])
    r = _ask(service, "자정까지도 카톡 알림 꺼줘", device)
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["카카오톡"]
    assert r.condition is not None and r.condition.expires == "2033-03-11T00:00:00+09:00"
    r = _ask(service, "2시간 에타 꺼줘")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["에브리타임"]


@pytest.mark.parametrize(("text", "days"), [
    ("매주토일알림다끄고싶어", [6, 7]),
    ("매주월수금알림꺼줘 9시부터 6시까지", [1, 3, 5]),
])
def test_days_glued_to_the_notification_word(service, text, days) -> None:
    """Typed without spaces, 알림 follows the weekday list ("매주토일알림"): the days are read
    (the follow-up "아침8시부터12시까지" had been asked about "토일")."""
    r = parse_time(text, datetime.fromisoformat(NOW))
    assert r.outcome is not TimeOutcome.UNCLEAR and r.condition is not None
    assert list(r.condition.days_of_week) == days
    r = _ask(service, "아침8시부터12시까지", pending=True, pendingOriginal="매주토일알림다끄고싶어")
    assert r.ok and r.condition is not None and r.condition.days_of_week == [6, 7], r.message
