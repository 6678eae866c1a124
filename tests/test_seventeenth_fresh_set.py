"""Reading the kinds of phrasing natural_ak's reading left open (issue 12): news told as heard or
a state in -심/-움 before the command ("기사님 오신대", "기사님 오심", "손 더러움"); "못 봄" (can't
look), which is no spring; a clause in -는중 glued to a name that follows; "뻗기 직전"; "알림ㄴㄴ";
follow-ups that pass on the earlier command ("그건 일단 패스", "딴 얘긴데"), withdraw it ("철회")
or say a length is enough ("…이면 충분해"); "until tomorrow 9am"; and, in model mode, a keyword
the model made of a remark or of a part of a label code read — on the real service (real GGUF,
real ONNX), on code alone, and on code's real reading combined with a given model answer.
The sentences and labels are this file's own, none of them an evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.stages.extract import ModelAnswer, combine
from notillm_local.stages.slots import RuleSlotReader
from notillm_local.stages.timeparse import parse_time
from tests.phrasing import ask, device

NOW = "2037-03-09T19:40:00+09:00"


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


BIRDER = device(
    ("Merlin Bird ID", "com.labs.merlinbirdid.app"),
    ("eBird", "edu.cornell.birds.ebird"),
    ("Bowling King", "com.pnixgames.bowlingking"),
    ("카카오톡", "com.kakao.talk"),
    ("메시지", "com.samsung.android.messaging"),
    ("전화", "com.samsung.android.dialer"),
)
BIRDER_AND_TOSS = device(*((a.label, a.package) for a in BIRDER.apps), ("토스", "viva.republica.toss"))


# ---------------------------------------------------------------------- before the command


@pytest.mark.parametrize(
    ("text", "name", "mute", "every"),
    [
        # news told as heard: the clause ends at 오신대 and the digits after it
        ("에어컨기사님오신대30분있다가두시간동안모든알림꺼줘", [], True, True),
        # a state in -심 (오시다 in -ㅁ), then "X 빼고 다": only X gets through
        ("인터넷설치기사님오심2시간만카톡빼고다조용히", ["카카오톡"], False, False),
        # "못봄" is 보다 in -ㅁ ("can't look"), not the spring before "20분"
        ("설거지하느라폰못봄20분만전화말고다꺼", ["전화"], False, False),
        # a state in -움 ("손더러움") before the app
        ("밭일중이라손더러움쿠팡이츠알림7시까지만꺼줘", ["쿠팡이츠"], True, False),
        ("잠들기 직전 내일 아침 7시까지 폰 알림 다 꺼줘", [], True, True),
    ],
)
def test_a_state_or_news_before_the_command_is_context(rules_service, text, name, mute, every) -> None:
    r = ask(rules_service, text, NOW)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == name and r.targetFixed.mute is mute
    assert r.targetFixed.all is every and r.targetFixed.content == []


def test_a_name_in_rium_is_no_state(rules_service) -> None:
    """Only the -움 of an adjective of state ("더러움", "무서움") closes a clause: "스텔라리움" is
    the device's app."""
    stars = device(("Stellarium", "com.noctuasoftware.stellarium_free"), ("카카오톡", "com.kakao.talk"))
    r = ask(rules_service, "스텔라리움 알림 세 시간 꺼줘", NOW, stars)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Stellarium"]


def test_cant_look_leaves_the_length_whole() -> None:
    p = parse_time("폰못봄20분만", _at(NOW))
    assert p.condition is not None, p.outcome
    assert p.condition.expires == _at("2037-03-09T20:00:00+09:00")


def test_the_spring_beside_a_time_is_still_asked_about(rules_service) -> None:
    """A season beside a length ("봄 30분만") is a time word code cannot read: the answer asks."""
    r = ask(rules_service, "봄 30분만 카톡 꺼", NOW)
    assert not r.ok and r.failReason == "incomplete", r.message


def test_a_clause_in_neun_jung_ends_before_the_name_glued_to_it(rules_service) -> None:
    """"산책나가는중멀린이랑…": the clause ends at 는중 and the device's "Merlin" follows."""
    r = ask(rules_service, "산책나가는중멀린이랑이버드알림9시까지꺼줘", NOW, BIRDER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Merlin Bird ID", "eBird"] and r.targetFixed.mute


def test_no_no_after_the_notifications_is_the_verb(rules_service) -> None:
    r = ask(rules_service, "쿠팡알림ㄴㄴ6시까지", NOW)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["쿠팡"] and r.targetFixed.mute


# -------------------------------------------------------------------------------- follow-ups


@pytest.mark.parametrize(
    ("text", "original"),
    [
        ("그건 일단 패스 슬랙 알림 10시까지 꺼", "틱톡 알림 차단"),
        ("딴 얘긴데 30분 동안 슬랙 알림 꺼줘", "쿠팡 알림 좀"),
    ],
)
def test_passing_on_the_earlier_command_opens_a_new_request(rules_service, text, original) -> None:
    r = ask(rules_service, text, NOW, pending=True, pendingOriginal=original)
    assert r.pendingAction == "NEW_REQUEST", r.message
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["Slack"]


def test_passing_alone_still_cancels(rules_service) -> None:
    r = ask(rules_service, "그건 일단 패스", NOW, pending=True, pendingOriginal="틱톡 알림 차단")
    assert r.pendingAction == "CANCEL" and r.failReason == "cancelled", r.message


def test_withdrawing_the_request_cancels_it(rules_service) -> None:
    r = ask(rules_service, "그 요청 철회할게요", NOW, pending=True, pendingOriginal="유튜브 알림 꺼주세요")
    assert r.pendingAction == "CANCEL" and r.failReason == "cancelled", r.message


@pytest.mark.parametrize(("text", "minutes"), [("한시간정도면될듯", 60), ("두시간이면 충분해", 120)])
def test_a_length_said_to_be_enough_continues(rules_service, text, minutes) -> None:
    r = ask(rules_service, text, NOW, pending=True, pendingOriginal="인스타 알림 좀 꺼줄래")
    assert r.pendingAction == "CONTINUE" and r.ok, r.message
    assert r.condition is not None and r.targetFixed is not None
    assert r.targetFixed.name == ["Instagram"]
    length = _at(r.condition.expires) - _at(r.condition.delivery)
    assert length.total_seconds() == minutes * 60


# --------------------------------------------------------------------------------- English


def test_until_a_day_and_a_clock_time_ends_then() -> None:
    """"until tomorrow 9am" is "내일 오전 9시까지": from now to 9 tomorrow, not from 9 today to
    the end of tomorrow."""
    p = parse_time("until tomorrow 9am please", _at(NOW))
    assert p.condition is not None, p.outcome
    assert p.condition.delivery == _at(NOW)
    assert p.condition.expires == _at("2037-03-10T09:00:00+09:00")


def test_from_a_day_and_a_clock_time_starts_then() -> None:
    p = parse_time("from tomorrow 9am for 2 hours", _at(NOW))
    assert p.condition is not None, p.outcome
    assert p.condition.delivery == _at("2037-03-10T09:00:00+09:00")
    assert p.condition.expires == _at("2037-03-10T11:00:00+09:00")


# ------------------------------------------------------------------------ model mode keywords


def test_a_keyword_holding_a_remark_is_no_keyword(table_mapper) -> None:
    """The model copied a remark and the apps after it as one keyword: a rule over every
    notification that holds that sentence. Code read the remark as context and the apps."""
    reader = RuleSlotReader(table_mapper)
    prompt = "카드명세서보기무서움ㅋㅋ토스알림차단"
    r = reader.read(prompt, BIRDER_AND_TOSS)
    said = ModelAnswer(intent="끄기", apps=("토스",), keywords=("카드명세서보기무서움ㅋㅋ토스",))
    out, _ = combine(r, said, BIRDER_AND_TOSS, full=True, context_words=r.context_words(prompt))
    assert out.content == () and [m.app.label for m in out.apps] == ["토스"]
    # A keyword the user wrote as such stays.
    prompt = "토스에서 송금 알림만 차단"
    r = reader.read(prompt, BIRDER_AND_TOSS)
    said = ModelAnswer(intent="끄기", apps=("토스",), keywords=("송금",))
    out, _ = combine(r, said, BIRDER_AND_TOSS, full=True, context_words=r.context_words(prompt))
    assert out.content == ("송금",)


def test_a_keyword_made_of_part_of_a_label_is_no_keyword(table_mapper) -> None:
    """"볼링 킹 알림": code read the device's "Bowling King"; 볼링 is a word of its name, not a
    topic of the rule."""
    reader = RuleSlotReader(table_mapper)
    prompt = "볼링 킹 알림 꺼주세요"
    r = reader.read(prompt, BIRDER)
    assert [m.app.label for m in r.apps] == ["Bowling King"]
    said = ModelAnswer(intent="끄기", apps=("Bowling King",), keywords=("볼링",))
    out, _ = combine(r, said, BIRDER, full=True, context_words=r.context_words(prompt))
    assert out.content == () and [m.app.label for m in out.apps] == ["Bowling King"]
