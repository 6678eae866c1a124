"""Reading the kinds of phrasing natural_ac's sealed run left open (issue 12): a year said by
its place ("내후년까지"), a vague part of a month with an approximation ("중순쯤까지"), a reason
clause glued to a misspelt app name ("…가니까넷플릭수랑"), a state glued before the app
("정신없어토스랑"), a plan or a moment said as a statement before the command ("…할 거야",
"…전이야"), a state said as a noun in -ㅁ ("손 젖음"), what the user already did ("촛불
켜놨어") before the command, and a question about a price — on the real service (real GGUF,
real ONNX) and on code alone. The sentences and labels are this file's own, none of them an
evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.sound import says_short_label
from notillm_local.stages.spacing import Respacer
from tests.phrasing import ask, device

NOW = "2036-12-08T09:40:00+09:00"




def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


def _expires(r) -> datetime | None:
    """The rule's end as an instant, None when no rule came back."""
    return datetime.fromisoformat(r.condition.expires) if r.ok and r.condition else None


# ------------------------------------------------------------------------------ years by place


@pytest.mark.parametrize("text", ["내후년까지 인스타 알림 꺼줘", "내년까지 밴드 알림 꺼 줘", "다음 해까지 당근 알림 꺼"])
def test_a_year_ahead_is_longer_than_a_rule_may_last(rules_service, text) -> None:
    """"내년까지" runs to the end of next year, like "다음 달까지" to the end of next month:
    more than 366 days, so the time is invalid — never a rule that drops the word."""
    r = _ask(rules_service, text)
    assert not r.ok and r.failReason == "invalid_time", r.message


def test_this_year_runs_to_its_end(rules_service) -> None:
    r = _ask(rules_service, "올해까지 밴드 알림 꺼줘")
    assert _expires(r) == datetime.fromisoformat("2037-01-01T00:00:00+09:00"), r.message


def test_this_year_without_a_marker_is_no_time(rules_service) -> None:
    """"올해 목표가 …라서": a remark about the year, the rule's time is the one said after it."""
    r = _ask(rules_service, "올해 목표가 다이어트라서 배민 알림 3시간 꺼줘")
    assert _expires(r) == datetime.fromisoformat("2036-12-08T12:40:00+09:00"), r.message


@pytest.mark.parametrize(
    "text", ["다음 달 초순쯤까지 쿠팡 알림 꺼", "이번 달 하순 정도까지 밴드 알림 꺼줘", "연말께까지 당근 알림 꺼"]
)
def test_a_vague_part_of_a_month_with_an_approximation_asks(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert not r.ok and r.failReason == "incomplete" and r.needsSupplement, r.message


# ------------------------------------------------------------------ clauses glued to the app


def test_a_clause_ending_cuts_an_unknown_stretch() -> None:
    spaced = Respacer(["Netflix", "넷플릭스", "멜론"]).respace("전시회보러가니까넷플렉스랑멜론알림꺼줘")
    assert spaced.text.startswith("전시회보러가니까 넷플렉스랑 멜론"), spaced.text


def test_a_clause_ending_in_hada_glued_to_a_name() -> None:
    spaced = Respacer(["YouTube", "유튜브"]).respace("시험공부하는데유투브알림꺼줘")
    assert "공부하는데 유투브" in spaced.text, spaced.text


def test_an_unknown_stretch_with_no_clause_ending_stays_whole() -> None:
    """No clause ending inside: the unknown word reaches the reader intact."""
    spaced = Respacer(["멜론"]).respace("전시회보러가넷플렉스랑멜론알림꺼줘")
    assert spaced.text.startswith("전시회보러가넷플렉스랑 멜론"), spaced.text


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("전시회보러가니까넷플렉스랑멜론알림두시간꺼줘", ["Netflix", "멜론"]),
        ("시험공부하는데유투브알림두시간꺼줘", ["YouTube"]),
        ("이삿짐싸느라정신없어밴드랑카톡알림6시까지꺼줘", ["밴드", "카카오톡"]),
    ],
)
def test_a_clause_glued_to_the_apps_after_it(rules_service, text, names) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert sorted(r.targetFixed.name) == sorted(names)


# ----------------------------------------------------------------------------- statements


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("서예 배울 거야 '세일' 들어간 알림 네 시까지 안 보이게", ["세일"]),
        ("우산 없이 나왔다가 손 젖음 '이벤트' 들어간 알림 한 시간 꺼", ["이벤트"]),
    ],
)
def test_a_statement_before_the_command_is_no_keyword(rules_service, text, keywords) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.content == keywords and r.targetFixed.name == []


def test_a_state_said_as_a_noun(rules_service) -> None:
    r = _ask(rules_service, "퇴근길 차 막힘 배민 알림 30분만 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["배달의민족"]


def test_a_moment_said_as_a_statement_answers_how_long(rules_service) -> None:
    r = _ask(rules_service, "면접 시작 전이야 세 시까지", pending=True, pendingOriginal="당근 알림 잠깐 꺼줘")
    assert r.ok and r.pendingAction == "CONTINUE" and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["당근"]


@pytest.mark.parametrize(
    ("text", "all_", "names"),
    [
        ("추워서 난로 켜놨어 카톡 알림 두 시간 꺼줘", False, ["카카오톡"]),
        ("불 다 껐어 이제 잘 거니까 알림 전부 아침 7시까지 꺼줘", True, []),
    ],
)
def test_what_the_user_already_did_is_context(rules_service, text, all_, names) -> None:
    """"난로 켜놨어": the verb in the past tells what was done; the command's verb follows."""
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and r.targetFixed.all is all_ and r.targetFixed.name == names


def test_a_done_verb_with_nothing_after_it_is_still_read(rules_service) -> None:
    """"카톡 알림 꺼놨어" alone: no later command, so its verb is still the turn's verb (asked
    how long), never context that leaves a turn with nothing read."""
    r = _ask(rules_service, "카톡 알림 꺼놨어")
    assert not r.ok and r.failReason == "incomplete", r.message


def test_a_wish_that_it_stopped_ringing_asks_how_long(rules_service) -> None:
    r = _ask(rules_service, "밴드 좀 그만 울렸으면 좋겠어 요즘")
    assert not r.ok and r.failReason == "incomplete" and r.needsSupplement, r.message


# ------------------------------------------------------------------------------- questions


@pytest.mark.parametrize("text", ["왓챠 구독료 한 달에 얼마더라", "넷플릭스 요금 한 달에 얼마던가"])
def test_a_question_about_a_price_is_chitchat(service, rules_service, text) -> None:
    """By the gate or, where the gate lets it through, by code: the question ends in -더라/-던가."""
    for svc in (service, rules_service):
        r = _ask(svc, text)
        assert r.dialogIntent == "reject" and r.failReason == "chitchat", r.message


# ------------------------------------------------------------- natural_ag's first run: lists


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("인스타 메시지 전화만 받고 나머지 다 꺼 한 시간", ["Instagram", "메시지", "전화"]),
        ("인스타랑 메시지 알림 한 시간 꺼줘", ["Instagram", "메시지"]),
        ("인스타 메시지 알림 한 시간 꺼줘", ["Instagram"]),  # Instagram's messages: no app
    ],
)
def test_messages_in_a_list_of_apps_is_the_app(rules_service, text, names) -> None:
    """'메시지' between two apps, or joined to one, is the Messages app; after one app and before
    알림 it is that app's messages."""
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert sorted(r.targetFixed.name) == sorted(names)


@pytest.mark.parametrize("turn", ["유튜브는빼고 8시까지", "유튜브 빼줘 8시까지", "8시까지 유튜브는 빼 줘"])
def test_a_follow_up_that_drops_one_app(service, rules_service, turn) -> None:
    """"유튜브는 빼고 8시까지" after "인스타랑 유튜브 알림 꺼줘": YouTube leaves the rule, which is
    never YouTube alone (the old reading of "빼줘") nor both."""
    for svc in (service, rules_service):
        r = _ask(svc, turn, pending=True, pendingOriginal="인스타랑 유튜브 알림 꺼줘")
        assert r.ok and r.targetFixed is not None and r.pendingAction == "UPDATE", r.message
        assert r.targetFixed.name == ["Instagram"] and r.targetFixed.mute


def test_a_follow_up_that_replaces_an_app_still_replaces(rules_service) -> None:
    r = _ask(rules_service, "유튜브 말고 슬랙으로 8시까지", pending=True,
             pendingOriginal="인스타랑 유튜브 알림 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Slack"]


def test_a_long_name_said_exactly_names_a_known_app(rules_service) -> None:
    """"링크딘": LinkedIn in five sounds, though the table spells it 링크드인."""
    r = _ask(rules_service, "링크딘 알림 두 시간 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["LinkedIn"]


# -------------------------------------------------------- natural_ag's first run: statements


def test_a_festival_is_no_length(rules_service) -> None:
    """"정월대보름": a festival, not 보름 (fifteen days) beside an end time."""
    r = _ask(rules_service, "정월대보름이라 오곡밥 먹었음 카톡 알림 자정까지 꺼줘")
    assert _expires(r) == datetime.fromisoformat("2036-12-09T00:00:00+09:00"), r.message


def test_fifteen_days_is_still_a_length(rules_service) -> None:
    r = _ask(rules_service, "보름 동안 카톡 꺼줘")
    assert _expires(r) == datetime.fromisoformat("2036-12-23T09:40:00+09:00"), r.message


@pytest.mark.parametrize(
    "text", ["수영 새벽반 끝남 카톡 알림 9시까지 꺼", "감자 캐고 옴 인스타 알림 12시까지 꺼줘"]
)
def test_an_opening_that_says_something_ended_or_the_user_came(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None and len(r.targetFixed.name) == 1, r.message


def test_receiving_one_app_and_switching_off_the_rest(rules_service) -> None:
    r = _ask(rules_service, "당근은 받을래 나머지 다 꺼 한 시간")
    assert r.ok and r.targetFixed is not None, r.message
    assert not r.targetFixed.mute and r.targetFixed.name == ["당근"]


def test_setting_the_earlier_command_aside_until_later(rules_service) -> None:
    r = _ask(rules_service, "그건 점심 먹고 나서 하자 일단 인스타 알림 30분 꺼줘", pending=True,
             pendingOriginal="밴드 알림 꺼")
    assert r.ok and r.targetFixed is not None and r.pendingAction == "NEW_REQUEST", r.message
    assert r.targetFixed.name == ["Instagram"]


@pytest.mark.parametrize("text", ["밥 다 먹을 때까지 카톡 꺼줘", "빨래 마를 때까지 밴드 조용히 시켜줘"])
def test_until_an_event_asks_how_long(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert not r.ok and r.failReason == "incomplete" and r.needsSupplement, r.message


def test_an_original_that_ends_in_a_plan_to_leave_it_off(rules_service) -> None:
    r = _ask(rules_service, "오후세시까지요", pending=True, pendingOriginal="밴드 알림 꺼 놓을래")
    assert r.ok and r.pendingAction == "CONTINUE" and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["밴드"]


def test_words_that_together_sound_like_a_name_stay_apart(rules_service) -> None:
    """"인스타 디코 알림" run together says Instagram's sounds; it holds two names and 알림, so no
    one of them is heard as the long name."""
    r = _ask(rules_service, "밤 11시까지 카톡 인스타 디코 알림 꺼주셈")
    assert r.ok and r.targetFixed is not None, r.message
    assert sorted(r.targetFixed.name) == sorted(["카카오톡", "Instagram", "Discord"])


# ----------------------------------------------------------- natural_ah's first run

TRAVEL = device(
    ("Booking.com", "com.booking"),
    ("아고다", "com.agoda.mobile.consumer"),
    ("카카오톡", "com.kakao.talk"),
)


@pytest.mark.parametrize(
    ("text", "names", "mute"),
    [
        ("유투브 뮤직 빼고 다 꺼 세시까지", ["YouTube Music"], False),
        ("카톡이랑 유투브 뮤직 빼고 다 꺼 세시까지", ["카카오톡", "YouTube Music"], False),
        ("유투브 뮤직 알림 꺼 세시까지", ["YouTube Music"], True),
    ],
)
def test_a_misspelt_two_word_label_before_the_exception(rules_service, text, names, mute) -> None:
    """"유투브 뮤직 빼고 다 꺼": the label is read from its two words after the exceptions were
    read; it is still kept out, never the one app switched off."""
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert sorted(r.targetFixed.name) == sorted(names) and r.targetFixed.mute is mute


def test_a_dot_inside_a_label_ends_no_sentence(rules_service) -> None:
    r = _ask(rules_service, "아고다랑 Booking.com 빼고 다 꺼 저녁 6시까지", TRAVEL)
    assert r.ok and r.targetFixed is not None, r.message
    assert sorted(r.targetFixed.name) == sorted(["아고다", "Booking.com"]) and not r.targetFixed.mute


def test_a_full_stop_still_ends_the_story(rules_service) -> None:
    r = _ask(rules_service, "면접 끝났다. 카톡 1시간 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["카카오톡"]


@pytest.mark.parametrize("turn", ["밴드는놔두고 인스타만 4시까지", "밴드는 놔두고 4시까지"])
def test_a_follow_up_that_leaves_one_app_alone(rules_service, turn) -> None:
    r = _ask(rules_service, turn, pending=True, pendingOriginal="밴드랑 인스타 알림 꺼줘")
    assert r.ok and r.targetFixed is not None and r.pendingAction == "UPDATE", r.message
    assert r.targetFixed.name == ["Instagram"] and r.targetFixed.mute


@pytest.mark.parametrize("turn", ["맘 바뀌었어", "생각바뀜ㅋㅋ"])
def test_a_changed_mind_cancels(rules_service, turn) -> None:
    r = _ask(rules_service, turn, pending=True, pendingOriginal="밴드 알림 꺼줘")
    assert r.pendingAction == "CANCEL", r.message


def test_an_alarm_asked_for_is_no_rule(rules_service) -> None:
    r = _ask(rules_service, "내일 아침 6시 반에 알람 하나만")
    assert r.dialogIntent == "reject" and r.failReason == "chitchat", r.message


def test_alarms_switched_off_are_still_a_rule(rules_service) -> None:
    r = _ask(rules_service, "알람 다 꺼줘 한 시간")
    assert r.ok and r.targetFixed is not None and r.targetFixed.all, r.message


@pytest.mark.parametrize(
    "text", ["빵 반죽하느라 손이 없어 카톡 알림 한 시간 꺼줘", "밴드알림두시간꺼주시기바랍니다"]
)
def test_a_plain_state_and_a_formal_ending(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None and len(r.targetFixed.name) == 1, r.message


@pytest.mark.parametrize(
    "text", ["인스타 알림 좀 꺼주실 수 있을까요?", "책 읽을 때 카톡만 빼고 다 꺼줘"]
)
def test_no_length_asks_how_long(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert not r.ok and r.failReason == "incomplete" and r.needsSupplement, r.message


@pytest.mark.parametrize(
    "turn", ["그 얘긴 접어두고 지금부터 한 시간 카톡 꺼줘", "그건 나중으로 미루고 먼저 카톡 한 시간 꺼줘"]
)
def test_more_openers_that_set_the_earlier_command_aside(rules_service, turn) -> None:
    r = _ask(rules_service, turn, pending=True, pendingOriginal="밴드 알림 꺼")
    assert r.ok and r.targetFixed is not None and r.pendingAction == "NEW_REQUEST", r.message
    assert r.targetFixed.name == ["카카오톡"]


STREAMS = device(
    ("SOOP", "kr.co.nowcom.mobile.afreeca"),
    ("Twitch", "tv.twitch.android.app"),
    ("Calm", "com.calm.android"),
    ("카카오톡", "com.kakao.talk"),
)


@pytest.mark.parametrize(
    ("text", "names", "mute"),
    [
        ("캄 알림 30분만 꺼줘", ["Calm"], True),
        ("숲이랑 트위치만 받고 나머지 다 꺼 두 시간", ["SOOP", "Twitch"], False),
    ],
)
def test_one_syllable_that_says_a_short_label_where_an_app_stands(
    rules_service, text, names, mute
) -> None:
    r = _ask(rules_service, text, STREAMS)
    assert r.ok and r.targetFixed is not None, r.message
    assert sorted(r.targetFixed.name) == sorted(names) and r.targetFixed.mute is mute


def test_one_syllable_elsewhere_is_no_app(rules_service) -> None:
    """"숲 산책 중이라": the forest, in a reason clause, not before 알림 nor in a list of apps."""
    r = _ask(rules_service, "숲 산책 중이라 카톡 1시간 꺼", STREAMS)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["카카오톡"]


@pytest.mark.parametrize(
    ("word", "label", "says"),
    [
        ("캄", "Calm", True),
        ("숲", "SOOP", True),
        ("킴", "Calm", False),  # another vowel
        ("캄", "Camel", False),  # a sound more
        ("캄캄", "Calm", False),  # two syllables: the ordinary sound rules decide
    ],
)
def test_one_syllable_says_a_short_label_whole(word, label, says) -> None:
    assert says_short_label(word, label) is says
