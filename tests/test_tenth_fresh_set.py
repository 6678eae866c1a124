"""Reading the kinds of phrasing natural_u found on its first run (issue 12, the eleventh fresh
set): device labels said in Korean ("스타워크" for Star Walk 2, "메타 비즈니스 스위트"), opening
statements ("…왔당", "…하우스임"), "닫아줘", a clock that replaces the earlier one ("아니 8시로
늦춰줘"), "없던 얘기로 하자" — on the real reader, the real sound rules and the real service (real
GGUF, real ONNX). The sentences are this file's own, none of them an evaluation set's."""

from __future__ import annotations

import pytest

from notillm_local.domain import AppRef
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.sound import sound_distance
from tests.phrasing import ask, read

NOW = "2036-11-08T16:40:00+09:00"

SKY = InstalledIndex.of(tuple(
    AppRef(label, pkg) for label, pkg in [
        ("Star Walk 2", "com.vitotechnology.StarWalk2Free"),
        ("AccuWeather", "com.accuweather.android"),
        ("Meta Business Suite", "com.facebook.pages.app"),
        ("Hootsuite", "com.hootsuite.droid.full"),
        ("KakaoTalk", "com.kakao.talk"),
        ("Messages", "com.samsung.android.messaging"),
    ]
))


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [("스타워크", "Star Walk"), ("아큐웨더", "AccuWeather"), ("워크맨", "Walkman"), ("마더보드", "Motherboard")],
)
def test_loanword_sounds(hangul, latin) -> None:
    """"walk" is 워크 (the l is not said), "weather" 웨더 (th between vowels is ㄷ)."""
    assert sound_distance(hangul, latin) == 0


def test_a_silent_l_is_not_silent_everywhere() -> None:
    """"Slack" keeps its l: only an l before k, m or f after a or o is silent."""
    assert sound_distance("슬랙", "Slack") == 0
    assert sound_distance("스택", "Slack") is None


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("스타워크 알림 꺼줘", ["Star Walk 2"]),
        ("아큐웨더알림 꺼", ["AccuWeather"]),
        ("메타 비즈니스 스위트랑 훗스위트 알림 꺼줘", ["Meta Business Suite", "Hootsuite"]),
    ],
)
def test_device_labels_said_in_korean(table_mapper, text, apps) -> None:
    """A label of several words said in Korean is one app, not its first word and two words
    left to ask about."""
    r = read(table_mapper, text, SKY)
    assert [m.app.label for m in r.apps] == apps and not r.unknown_words, r


def test_the_service_answers_a_device_label_said_in_korean(service) -> None:
    r = _ask(service, "스타워크 알림 세 시간 꺼줘", SKY)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Star Walk 2"]


@pytest.mark.parametrize(
    "text", ["괌 왔당 인스타 알림 꺼줘", "지금 게스트하우스임 카톡 알림 꺼줘", "방금 도착했습니다 인스타 알림 꺼줘"]
)
def test_an_opening_statement_is_context(table_mapper, default_index, text) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is True and len(r.apps) == 1 and not r.unknown_words, r


def test_a_label_ending_in_임_is_no_statement(table_mapper, default_index) -> None:
    """"-임" closes a statement, but not the 임 of 게임 or 타임: an unknown name ending so is asked
    about, never left as context under a rule for everything."""
    r = read(table_mapper, "브롤게임 알림 꺼줘", default_index)
    assert r.unknown_words or r.unresolved, r


def test_closing_notifications_is_a_mute(table_mapper, default_index) -> None:
    r = read(table_mapper, "밴드 알림 닫아줘", default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == ["밴드"], r


@pytest.mark.parametrize(
    ("turn", "end"),
    [("아니 9시로 늦춰줘", "21:00"), ("10시로 미뤄줘", "22:00"), ("7시로 당겨줘", "19:00")],
)
def test_a_clock_that_moves_the_end(service, turn, end) -> None:
    """A clock alone with a verb that moves the end replaces the earlier end: an UPDATE, never a
    question about a time the user gave."""
    r = _ask(service, turn, pending=True, pendingOriginal="밴드 알림 저녁 8시까지 꺼줘")
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE", r
    assert r.ok and r.condition is not None and r.condition.expires.startswith(f"2036-11-08T{end}"), r


def test_calling_it_off_cancels(service) -> None:
    r = _ask(service, "그냥 없던 이야기로 해", pending=True, pendingOriginal="밴드 알림 꺼 줄래")
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL", r


@pytest.mark.parametrize("text", ["밴드 알림 꺼 두게나", "밴드 알림 꺼 주시면 좋겠습니다"])
def test_old_style_and_formal_requests(table_mapper, default_index, text) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is True and not r.unknown_words, r


@pytest.mark.parametrize(("typed", "meant"), [("쿠펑", "쿠팡"), ("쿠퍙", "쿠팡"), ("멜란", "멜론"), ("노선", "노션")])
def test_a_two_syllable_name_with_its_last_vowel_slipped(table_mapper, default_index, typed, meant) -> None:
    """The last vowel typed on a key next to the right one is the app misspelt."""
    assert table_mapper._table.near(typed, default_index.labels) == meant


@pytest.mark.parametrize("typed", ["문제", "문재", "쿠팽", "쿠팬", "카특", "다임"])
def test_other_vowels_are_other_words(table_mapper, default_index, typed) -> None:
    """"문제" is no 문자 (ㅔ and ㅏ are far apart on the keyboard), nor "카특" 카톡 (ㅡ and ㅗ); a typed
    ㅐ may be a real word's ㅔ ("문재" for 문제), so "쿠팽" stays a question; two letters off ("쿠팬")
    is too far to call it the app."""
    assert table_mapper._table.near(typed, default_index.labels) is None


def test_glued_names_with_a_slipped_vowel(table_mapper, default_index) -> None:
    r = read(table_mapper, "쿠펑배민 알림 꺼줘", default_index)
    assert [m.app.label for m in r.apps] == ["쿠팡", "배달의민족"] and not r.unknown_words, r


@pytest.mark.parametrize(("typed", "meant"), [("zooom", "zoom"), ("slaaack", "slack"), ("netflixxx", "netflix")])
def test_a_latin_letter_held_down(table_mapper, default_index, typed, meant) -> None:
    """"zooom": one letter held down; the name has it once or twice, one app only."""
    assert table_mapper._table.near(typed, default_index.labels) == meant
