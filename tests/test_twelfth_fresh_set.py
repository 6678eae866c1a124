"""Reading the kinds of phrasing natural_w found on its first run (issue 12, the fourteenth fresh
set), wrong answers first: a misspelt app before 알림 whose last syllable looks like "-임", an app
typed onto a statement ("…오네유튜브랑"), "이 세 개만 살려 두고", "디스코드 알림도 추가", "다음에"
(next time), a topic typed onto a word nobody read ("…포인트 알림"), a keyword the model made of
an unread name; then statements in "-싶다", "-졌어", "…완료", device labels said with a plural s,
a "y" syllable, one sound or one vowel, and the follow-ups "참을게요" and "확인해 보고" — on the
real reader, the real sound rules and the real service (real GGUF, real ONNX). The sentences are
this file's own, none of them an evaluation set's."""

from __future__ import annotations

import pytest

from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.extract import ModelAnswer, combine
from notillm_local.stages.sound import sound_distance
from tests.phrasing import ask, device, read

NOW = "2036-09-17T15:40:00+09:00"

CAMPER = device(
    ("Trail Maps", "com.example.trailmaps"),
    ("Buoyweather", "com.buoyweather.android"),
    ("Chewy", "com.chewy.android"),
    ("GOAT", "com.airgoat.goat"),
    ("Strava", "com.strava"),
    ("카카오톡", "com.kakao.talk"),
    ("메시지", "com.samsung.android.messaging"),
    ("전화", "com.samsung.android.dialer"),
)


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


# --------------------------------------------------------------------------- wrong answers


def test_a_misspelt_app_before_알림_is_no_statement(service) -> None:
    """"에브리티임" reads like "에브리티" + "-임" (it is), a statement: all notifications were muted.
    Before 알림 and one letter from 에브리타임, it is that app."""
    r = _ask(service, "에브리티임 알림 내일 아침 8시까지 꺼")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["에브리타임"] and not r.targetFixed.all


def test_an_app_typed_onto_a_statement_is_read(service) -> None:
    """"…오네유튜브랑": the statement's ending closes it, so YouTube is not swallowed by it."""
    r = _ask(service, "눈이안감기네유튜브랑멜론알림새벽2시까지꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["YouTube", "멜론"]


@pytest.mark.parametrize(
    "text",
    ["카톡, 문자 요 두 개만 살려 두고 나머지 알림 한 시간 꺼",
     "카톡 이거 하나만 남겨 두고 다 꺼 두 시간"],
)
def test_a_count_of_the_kept_apps_before_the_keep_word(service, text) -> None:
    """"X, Y 이 두 개만 살려 두고 나머지 꺼": only X and Y get through — not X and Y muted."""
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is False and "카카오톡" in r.targetFixed.name


@pytest.mark.parametrize("text", ["인스타 알림도 저녁 7시까지", "인스타 알림 추가! 저녁 7시까지"])
def test_an_app_added_to_the_earlier_one(service, text) -> None:
    """The additive 도 may end the notification noun after the app; "추가!" is 추가."""
    r = _ask(service, text, pending=True, pendingOriginal="슬랙 알림 좀 꺼 줄래")
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE", r
    assert r.targetFixed is not None and r.targetFixed.name == ["Slack", "Instagram"]


def test_next_time_is_no_map_app(service) -> None:
    """"다음에" is "next time"; 다음 opens 다음 지도, a name of 카카오맵, but is no app here."""
    r = _ask(service, "그건 다음에 하자 지금은 인스타 알림 1시간 꺼줘", pending=True,
             pendingOriginal="멜론 알림 꺼 둘까")
    assert r.targetFixed is not None and r.targetFixed.name == ["Instagram"], r


def test_a_topic_typed_onto_an_unread_word_is_a_name(service) -> None:
    """"해피…포인트 알림": 포인트 is a topic word, but typed onto a word nobody read it ends the name
    of an app the device lacks; a keyword 포인트 would mute the wrong notifications."""
    r = _ask(service, "오렌지포인트 알림 밤 9시까지 꺼")
    assert not r.ok and r.failReason is not None and r.failReason.value == "app_unresolved", r


def test_a_topic_after_an_app_is_still_a_keyword(service) -> None:
    r = _ask(service, "쿠팡포인트 알림 한 시간 꺼")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["쿠팡"] and r.targetFixed.content == ["포인트"]


def test_model_mode_asks_about_a_keyword_made_of_an_unread_name(table_mapper, default_index) -> None:
    """The model made "주차장" a keyword of "모두의주차장 알림": the word stands where a target does,
    so the answer asks about it, as the default mode does."""
    r = read(table_mapper, "우리동네주차장 알림 꺼줘", default_index)
    assert r.unknown_words, r
    out, how = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=("주차장",)), default_index,
                       full=True)
    assert out.content == () and out.unresolved and how == "asked", out


def test_a_verb_one_letter_from_an_app_is_a_verb(table_mapper, default_index) -> None:
    """"보고 싶어" is a verb, not 포고 (Pokémon GO) with its first consonant plain."""
    r = read(table_mapper, "드라마 보고 싶어 카톡 알림 꺼", default_index)
    assert all(u.known_as != "포켓몬고" for u in r.unresolved), r
    assert [m.app.label for m in r.apps] == ["카카오톡"]


# --------------------------------------------------------------------------- questions


@pytest.mark.parametrize(
    "text",
    ["오늘은 푹 자고 싶다 카톡 알림 저녁 8시까지 꺼",
     "이사 준비로 완전 지쳤어 카톡 알림 저녁 8시까지 꺼",
     "공항 도착 완료 카톡 알림 저녁 8시까지 꺼",
     "오랜만에 동창 모임이야 카톡 알림 저녁 8시까지 꺼",
     # natural_y's kinds: on the way, busy, a glued "끝"
     "동생 데리러 가는 길 저녁 7시까지 카톡 알림 off",
     "이삿짐싸느라너무바빠카톡알림저녁7시까지꺼줘",
     "보고서정리끝카톡알림저녁7시까지꺼줘"],
)
def test_more_opening_statements(service, text) -> None:
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["카카오톡"] and r.targetFixed.content == []


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [("트레일맵", "Trail Maps"), ("부이웨더", "Buoyweather"), ("츄이", "Chewy"), ("고트", "GOAT"),
     ("마이크", "Mike")],
)
def test_device_labels_said_in_korean(hangul, latin) -> None:
    """A plural s left unsaid, "oy" as two syllables, "ew" as ㅠ, a one-vowel name with ㅡ added,
    a long i written 아이."""
    assert sound_distance(hangul, latin) == 0


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [("소이", "Chewy"), ("토스", "Twitch"), ("머니", "Goat"), ("고", "GOAT"), ("마이", "Mike")],
)
def test_short_words_still_need_every_sound(hangul, latin) -> None:
    assert sound_distance(hangul, latin) is None


def test_the_service_reads_device_labels_said_in_korean(service) -> None:
    r = _ask(service, "츄이랑고트알림세시간꺼", CAMPER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Chewy", "GOAT"]


@pytest.mark.parametrize("text", ["유튜브 알림 두 시간 꺼 주고 슬랙은 그대로 둬",
                                  "유튜브 알림 두 시간 끄고 슬랙은 그냥 둬"])
def test_an_app_left_alone_at_the_end(service, text) -> None:
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["YouTube"] and r.targetFixed.mute is True


def test_a_permission_ending_and_a_regional_one(service) -> None:
    for text in ("오후 4시까지 폰 알림 다 꺼 두셔도 돼요", "오후 4시까지 밴드 알림 꺼 도고"):
        r = _ask(service, text)
        assert r.ok, (text, r.message)


def test_수신거부_mutes(service) -> None:
    r = _ask(service, "인스타알림한시간수신거부")
    assert r.ok and r.targetFixed is not None and r.targetFixed.mute is True, r.message


def test_putting_up_with_it_cancels(service) -> None:
    r = _ask(service, "괜히 말했다 그냥 참을게", pending=True, pendingOriginal="밴드 알림 좀 꺼 줘")
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL", r


def test_checking_first_is_unresolved(service) -> None:
    """"일정 좀 확인해 보고": 일정 names the calendar app, but the turn puts the answer off."""
    r = _ask(service, "일정 확인 좀 하고 나서", pending=True, pendingOriginal="밴드 알림 좀 꺼 줘")
    assert r.pendingAction is not None and r.pendingAction.value == "UNRESOLVED", r


def test_a_statement_with_no_command_after_it_is_talk(service) -> None:
    """An opening statement is context only before a command: "…안 놓쳤어 고마워" is thanks."""
    r = _ask(service, "알림 덕분에 버스 안 놓쳤어 고마워")
    assert not r.ok and r.failReason is not None and r.failReason.value == "chitchat", r


def test_a_rare_day_count_inside_a_name_is_no_time(service) -> None:
    """"마이레이더" holds 이레 (seven days); the time is 2h, the app the device's MyRadar."""
    radar = device(("MyRadar", "com.acmeaom.android.myradar"), ("카카오톡", "com.kakao.talk"))
    r = _ask(service, "마이레이더알림2h동안off", radar)
    assert r.ok and r.targetFixed is not None and r.condition is not None, r.message
    assert r.targetFixed.name == ["MyRadar"]
    assert r.condition.expires.startswith("2036-09-17T17:40"), r.condition


# --------------------------------------------------------------------------- natural_y's first run

PILOT = device(
    ("Sky Radar", "com.example.skyradar"),
    ("Wind Guru", "com.example.windguru"),
    ("F1", "com.softpauer.f1timingapp2014.basic"),
    ("KakaoTalk", "com.kakao.talk"),
    ("Messages", "com.samsung.android.messaging"),
)


def test_one_app_kept_on_and_muted_is_a_conflict(service) -> None:
    """"X 켜 두고 X 꺼": the keep verb and the mute verb are about the same app — a wrong rule
    would silence the app the user just said to keep on."""
    r = _ask(service, "밴드 알림 켜 두고 밴드 알림 꺼 줘 세 시간")
    assert not r.ok and r.failReason is not None and r.failReason.value == "conflict", r


def test_a_polite_request_with_a_question_mark_is_a_command(service) -> None:
    r = _ask(service, "오늘 밤 11시까지 밴드 알림 꺼 주시겠어요?")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["밴드"], r.message


def test_the_rest_of_a_label_said_in_hangul(service) -> None:
    """"Sky 레이더", "Wind구루": the Latin first word names the label, the Hangul word after it
    says the rest — one app each, nothing left to ask about."""
    r = _ask(service, "Sky 레이더랑 Wind구루만 받고 나머지 2시간 꺼", PILOT)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Sky Radar", "Wind Guru"] and r.targetFixed.mute is False


def test_a_letter_and_a_digit_said_in_english(service) -> None:
    r = _ask(service, "에프원 알림 한 시간만 꺼", PILOT)
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["F1"], r.message


def test_not_coming_is_no_mute_verb(service) -> None:
    """"안 와" says something does not come (a bus, sleep); "안 와도 돼" asks for silence."""
    r = _ask(service, "택시30분째안와ㅡㅡ")
    assert not r.ok and r.failReason is not None and r.failReason.value == "chitchat", r
    r = _ask(service, "카톡 알림 두 시간 동안 안 와도 돼")
    assert r.ok and r.targetFixed is not None and r.targetFixed.mute is True, r.message


def test_model_mode_keeps_every_quoted_keyword(table_mapper, default_index) -> None:
    """Quoted words are keywords as the user wrote them: the model leaving one out drops none."""
    r = read(table_mapper, "'마감'이나'지연'들어간 알림 꺼", default_index)
    assert r.quoted == ("마감", "지연"), r
    out, _ = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=("마감",)), default_index,
                     full=True)
    assert out.content == ("마감", "지연"), out
