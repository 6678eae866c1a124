"""Reading the kinds of phrasing that natural_ai's and natural_af's sealed runs and natural_aj's
first run left open (issue 12): a Latin label whose vowels Korean writes one by one ("비메오") or
whose last w it writes as 우 ("스노우"); a bare start hour already past before a dated end; a
noun in 주 before 중 ("폭주중") that is no "weekdays"; a month that gives the reason ("4월
끝이라"); an English verb typed with two letters swapped; a remark after the command in -림,
-음, -감, -움; statements and reason clauses before the command ("떨린다", "후들거려",
"있어서요", "돼서 그래요", "받쳐놓음", "즁이야"); "그 얘긴 접고" opening a new request; "내내"
after a time code cannot read — on the real service (real GGUF, real ONNX) and on code alone.
The sentences and labels are this file's own, none of them an evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local import lexicon
from notillm_local.lexicon import read_english
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.sound import sounds_alike
from notillm_local.stages.timeparse import parse_time
from tests.phrasing import ask, device

NOW = "2036-12-08T09:40:00+09:00"
EVENING = "2036-12-08T19:50:00+09:00"




def _ask(service, prompt: str, installed: InstalledIndex | None = None, now: str = NOW, **kw):
    return ask(service, prompt, now, installed, **kw)


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


CREATOR = device(
    ("Glow", "com.glowing.glow"),
    ("Studio", "com.example.studio"),
    ("Rodeo", "com.example.rodeo"),
    ("카카오톡", "com.kakao.talk"),
    ("메시지", "com.samsung.android.messaging"),
    ("전화", "com.samsung.android.dialer"),
)


# ----------------------------------------------------------------------------- how labels sound


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [("스튜디오", "Studio"), ("로데오", "Rodeo"), ("글로우", "Glow"), ("윈도우", "Window"), ("비디오", "Video")],
)
def test_vowels_said_one_by_one_and_a_last_w_said_as_u(hangul, latin) -> None:
    """Korean writes "eo"/"io" as two syllables (로데오, 스튜디오) and may write a w after a vowel
    as 우 (글로우): the vowels still agree with the label's."""
    assert sounds_alike(hangul, latin)


@pytest.mark.parametrize(("hangul", "latin"), [("토스", "Twitch"), ("로또", "Rodeo"), ("글러브", "Glow")])
def test_looser_vowels_still_need_the_same_sounds(hangul, latin) -> None:
    assert not sounds_alike(hangul, latin)


def test_labels_said_in_korean_name_the_device_apps(rules_service) -> None:
    r = _ask(rules_service, "영상 편집중이라 로데오랑 글로우 알림 한 시간만 꺼줘", CREATOR)
    assert r.ok and r.targetFixed is not None, r.message
    assert set(r.targetFixed.name) == {"Rodeo", "Glow"}
    assert r.targetFixed.mute


# ----------------------------------------------------------------------------------------- time


def test_a_bare_start_hour_already_past_before_a_dated_end_is_the_evening_one() -> None:
    """At 19:50, "9시 반부터 내일 아침 6시까지" starts at 21:30 — not at 09:30, a window half a
    day long that began this morning."""
    p = parse_time("9시 반부터 내일 아침 6시까지", _at(EVENING))
    assert p.condition is not None
    assert p.condition.delivery == _at("2036-12-08T21:30:00+09:00")
    assert p.condition.expires == _at("2036-12-09T06:00:00+09:00")


def test_a_window_of_bare_hours_in_force_is_kept() -> None:
    """"9시부터 11시까지" said at 09:40 is the window under way (contract), not tonight's."""
    p = parse_time("9시부터 11시까지", _at(NOW))
    assert p.condition is not None
    assert p.condition.delivery == _at("2036-12-08T09:00:00+09:00")
    assert p.condition.expires == _at("2036-12-08T11:00:00+09:00")


@pytest.mark.parametrize("text", ["음주중이라 카톡 알림 오늘 밤 11시까지 꺼줘", "연주중 밴드 알림 오늘 밤 11시까지 꺼"])
def test_a_noun_in_ju_before_jung_is_no_weekdays(rules_service, text) -> None:
    """"음주중", "연주중": 음주/연주 + 중 (in the middle of); "주중" (weekdays) is not in them."""
    r = _ask(rules_service, text)
    assert r.ok and r.condition is not None, r.message
    assert r.condition.recurrence == "none"
    assert _at(r.condition.expires) == _at("2036-12-08T23:00:00+09:00")


def test_weekdays_said_alone_still_recur(rules_service) -> None:
    r = _ask(rules_service, "주중 밤 10시부터 11시까지 카톡 꺼줘")
    assert r.ok and r.condition is not None, r.message
    assert r.condition.recurrence == "weekly" and r.condition.days_of_week == [1, 2, 3, 4, 5]


def test_a_month_that_gives_the_reason_is_no_date(rules_service) -> None:
    r = _ask(rules_service, "12월 말이라 정산중 토스 알림 오후 3시까지 꺼줘")
    assert r.ok and r.condition is not None, r.message
    assert _at(r.condition.expires) == _at("2036-12-08T15:00:00+09:00")


def test_a_month_with_a_marker_is_still_a_time() -> None:
    p = parse_time("12월 말까지", _at(NOW))
    assert p.condition is not None and p.condition.expires == _at("2037-01-01T00:00:00+09:00")


# -------------------------------------------------------------------------------------- English


@pytest.mark.parametrize(("typed", "verb"), [("blcok", "꺼"), ("disbale", "꺼"), ("sielnce", "꺼")])
def test_an_english_verb_with_two_letters_swapped_is_the_verb(typed, verb) -> None:
    assert read_english(f"insta {typed} 2h").text.split()[1] == verb


@pytest.mark.parametrize("word", ["clock", "blocks", "Slack", "bloc"])
def test_a_real_word_one_letter_off_a_verb_stays_itself(word) -> None:
    """A swap is the only slip read: "clock" is one letter off "block" and is the Clock app."""
    assert read_english(f"{word} 알림").text.split()[0] == word


def test_a_swapped_english_verb_gives_a_rule(rules_service) -> None:
    r = _ask(rules_service, "유튜브 blcok 2시간")
    assert r.ok and r.targetFixed is not None and r.targetFixed.mute, r.message
    assert r.targetFixed.name == ["YouTube"]


# ------------------------------------------------------------------------ remarks after the verb


@pytest.mark.parametrize(
    "text",
    [
        "배민 알림 2시간 꺼줘 쿠폰 알림 지겨움",
        "멜론 알림 2시간 꺼줘 콘서트장 들어감",
        "쿠팡 알림 2시간 꺼줘 할인 다 끝남 표 다 팔림",
        "밴드 알림 2시간 꺼줘 공지 폭탄 맞음",
    ],
)
def test_a_remark_after_the_command_in_a_noun_form_is_context(rules_service, text) -> None:
    """A clause after the command's verb that ends in a -ㅁ form ("지겨움", "들어감", "팔림") is a
    remark: its nouns are no keywords, and the one app before the verb is the target."""
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.content == [] and len(r.targetFixed.name) == 1


def test_an_app_after_the_verb_is_still_the_target(rules_service) -> None:
    r = _ask(rules_service, "2시간 꺼줘 카톡 알림")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["카카오톡"]


# ---------------------------------------------------------------------- before the command


@pytest.mark.parametrize(
    ("text", "name", "mute"),
    [
        ("긴장된다 10시까지 카톡만 받고 나머지 알림 꺼줘", ["카카오톡"], False),
        ("계단 뛰어서 다리가 덜덜거려 11시까지 인스타 알림 꺼", ["Instagram"], True),
        ("아이 학원 상담이 있어서요 정오까지 카카오톡 알림 꺼 주실래요", ["카카오톡"], True),
        ("시험 공부해야 돼서 그래요 오후 2시까지 유튜브 알림 좀 꺼주세요", ["YouTube"], True),
        ("창문 열어놓음 11시까지 인스타 알림 꺼줘", ["Instagram"], True),
        ("친구랑 밥 먹는 즁이야 카톡 빼고 다 꺼줘 한시간", ["카카오톡"], False),
        ("ㅈㄴ 피곤 전화만 받고 다 꺼 11시까지", ["전화"], False),
        ("동호회 밴드 알림 2시간 꺼", ["밴드"], True),
    ],
)
def test_a_statement_or_reason_before_the_command_is_context(rules_service, text, name, mute) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == name and r.targetFixed.mute is mute
    assert r.targetFixed.content == []


@pytest.mark.parametrize(
    ("text", "original"),
    [
        ("그 얘긴 접고 오후 3시부터 4시까지 슬랙 꺼줘", "밴드 알림 꺼줘"),
        # "아 그거 전에 먼저 …": the earlier command waits; "전에" is no time of the new one.
        ("아 그거 전에 먼저 오후 3시부터 5시까지 슬랙 꺼줘", "페북 알림 꺼줘"),
    ],
)
def test_an_opener_that_sets_the_earlier_talk_aside_opens_a_new_request(
    rules_service, text, original
) -> None:
    r = _ask(rules_service, text, pending=True, pendingOriginal=original)
    assert r.pendingAction == "NEW_REQUEST", r.message
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["Slack"]


def test_all_through_a_week_code_cannot_read_asks_for_the_time(service) -> None:
    """"다음 달 셋째 주 내내": a week code cannot date; "내내" belongs to that time, no app."""
    r = _ask(service, "다음 달 셋째 주 내내 밴드 알림 꺼")
    assert not r.ok and r.failReason == "incomplete", r.message


# ------------------------------------------------------------------------------- second round


def test_an_app_left_as_it_is_at_the_end_is_kept_out(rules_service) -> None:
    """"…꺼둬 X는 그대로": X is left alone, never muted with the others."""
    r = _ask(rules_service, "회의 대기중 슬랙이랑 카톡 알림만 오후 5시까지 꺼둬 넷플은 그대로")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and sorted(r.targetFixed.name) == ["Slack", "카카오톡"]


def test_as_it_is_inside_the_command_keeps_nothing_out(rules_service) -> None:
    r = _ask(rules_service, "카톡 알림 그대로 2시간 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and r.targetFixed.name == ["카카오톡"]


@pytest.mark.parametrize(
    "text",
    ["공연 전 카톡 인스타 오후 4시까지 꺼줘", "티맵이랑 멜론 알림 오후 4시까지 꺼줘 바다 가는 길"],
)
def test_before_an_event_and_on_the_way_are_context(rules_service, text) -> None:
    """"공연 전" (before the show) and "…가는 길" (on the way) say when, not what."""
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert len(r.targetFixed.name) == 2 and r.targetFixed.content == []


def test_how_often_something_comes_is_no_length(rules_service) -> None:
    """"4년에 한 번 오는": how often, not a four-year rule beside the end time (no conflict)."""
    r = _ask(rules_service, "4년에 한 번 오는 날이라 오늘 밤 10시까지 밴드 꺼줘")
    assert r.ok and r.condition is not None, r.message
    assert _at(r.condition.expires) == _at("2036-12-08T22:00:00+09:00")


@pytest.mark.parametrize("word", ["베란다", "바다", "떨린다", "긴장된다"])
def test_a_word_ending_in_da_is_not_all(word) -> None:
    """The "다" that ends "베란다" or "떨린다" is no "all": with "나머진 다" after it, "all" said
    twice had made the command a conflict."""
    every = lexicon.pattern("markers", "all")
    assert every.search(f"{word} 청소") is None
    assert every.search(f"{word} 청소 나머진 다 꺼줘") is not None


DIVER = device(
    ("Subsurface-mobile", "org.subsurfacedivelog.mobile"),
    ("카카오톡", "com.kakao.talk"),
    ("Instagram", "com.instagram.android"),
)


def test_the_first_word_of_a_hyphenated_label_names_it(rules_service) -> None:
    """"서브서피스" says the first word of "Subsurface-mobile": a hyphen joins words as a space does,
    so the app is found and kept out — never a question about an unknown word."""
    r = _ask(rules_service, "서브서피스 알림은 놔두고 카톡이랑 인스타 알림만 한 시간 꺼줘", DIVER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and sorted(r.targetFixed.name) == ["Instagram", "카카오톡"]
    r = _ask(rules_service, "서브서피스 알림 한 시간 꺼줘", DIVER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Subsurface-mobile"]


# ------------------------------------------------------------------ natural_al's first run, read


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("네일 받는 중이라 손 못 써요 인스타 알림 2시간만 꺼주세요", ["Instagram"]),
        ("반죽하는 중이라 폰 멀리 둠 카톡 알림 1시간 꺼줘", ["카카오톡"]),
        ("축제 입장 줄 서는 중 20분 후부터 1시간 동안 밴드 알림 받지 마", ["밴드"]),
        ("회의 들어갈 땐 폰 못 봐 슬랙 알림 오후 4시까지 꺼", ["Slack"]),
    ],
)
def test_a_state_or_a_while_clause_before_the_command_is_context(rules_service, text, name) -> None:
    """"손 못 써요", "폰 멀리 둠", "…할 땐", "줄 서는 중 … 받지 마" (the verb in two words): the
    clause before the command is context, never an app asked about."""
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == name and r.targetFixed.content == []


@pytest.mark.parametrize(("hangul", "latin"), [("가이아", "Gaia"), ("비메오", "Vimeo")])
def test_three_vowels_side_by_side_may_each_be_said(hangul, latin) -> None:
    assert sounds_alike(hangul, latin)


@pytest.mark.parametrize("text", ["쿠팡 알림 2시간 꺼줘 창고 정리 작업함", "쿠팡알림2시간꺼줘창고정리작업함"])
def test_a_remark_in_ham_after_the_command_is_context(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["쿠팡"] and r.targetFixed.content == []
