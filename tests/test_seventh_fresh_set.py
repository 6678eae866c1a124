"""Reading the kinds of phrasing natural_l's failures showed after its first run, and natural_m's
(issue 12, the seventh fresh set): exception words with a helper verb ("빼놓고", "빼두고"), urging
and dialect tails after the verb ("고고", "주래이"), vague lengths that are no length ("한동안"),
native day counts ("여드레"), "every single day", the command said again ("꺼달라니까"), 것
glued to a filler verb ("들어간건"), a misspelt name glued after a time ("…까지인스타그랭"), and a
follow-up that turns the verb round ("아니 X만 켜두고 나머지 꺼") — on the real alias table, the
real reader, the real time parser and the real service (real GGUF, real ONNX). The sentences are
this file's own, none of them an evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.stages.timeparse import TimeOutcome, parse_time
from tests.phrasing import ask, read

NOW = "2034-03-10T13:45:00+09:00"


def _ask(service, prompt: str, **kw):
    return ask(service, prompt, NOW, None, **kw)


@pytest.mark.parametrize("text", ["멜론은빼놓고유튜브알림꺼", "멜론은 빼두고 유튜브 알림 꺼줘"])
def test_an_exception_word_with_a_helper_verb(table_mapper, default_index, text) -> None:
    """"빼놓고" is "빼고" with 놓다: the app before it is kept out. Unread, it had been asked about
    in the default mode, and the model had muted the kept app in model mode."""
    r = read(table_mapper, text, default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == ["YouTube"], r
    assert [a.label for a in r.kept_out] == ["멜론"] and not r.unknown_words, r


@pytest.mark.parametrize("text", ["쿠팡 알림 한시간 꺼 고고", "배민 알림 두 시간 꺼 주래이"])
def test_urging_and_dialect_tails_after_the_verb(service, text) -> None:
    r = _ask(service, text)
    assert r.ok, r.message
    assert r.targetFixed is not None and len(r.targetFixed.name) == 1


@pytest.mark.parametrize("text", ["유튜브 알림 당분간 꺼줘", "카톡 알림 한동안 꺼줘"])
def test_a_vague_length_asks_for_the_length(service, text) -> None:
    """"한동안" (for a while) names no length: the answer asks how long, instead of asking which
    app "한동안" is."""
    r = _ask(service, text)
    assert not r.ok and r.failReason is not None and r.failReason.value == "incomplete", r
    assert r.needsSupplement


@pytest.mark.parametrize(("text", "days"), [("여드레 동안", 8), ("아흐레만", 9)])
def test_native_day_counts(text, days) -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time(text, now)
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert (r.condition.expires - now).days == days
    # Said of the past, they are a past time.
    assert parse_time("지난 여드레", now).outcome is not TimeOutcome.OK


def test_every_single_day_is_daily() -> None:
    r = parse_time("하루도 빠짐없이 밤 11시부터 아침 6시까지", datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert r.condition.recurrence == "daily"
    assert (r.condition.window_start, r.condition.window_end) == ("23:00", "06:00")


def test_the_command_said_again_is_the_command(service) -> None:
    """"꺼달라니까" (I said turn it off): -니까 ends a reason clause elsewhere ("회의니까"); on the
    verb itself it is the user insisting, and the message had been refused as chitchat."""
    r = _ask(service, "자정까지배민알림꺼달라니까")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["배달의민족"]
    # A reason clause that ends like it is still context.
    r = _ask(service, "회의라니까 슬랙 알림 1시간 꺼")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["Slack"]


def test_a_thing_glued_to_a_filler_verb(service) -> None:
    r = _ask(service, "인스타알림중에'광고'들어간건이틀간꺼줘")
    assert r.ok, r.message
    assert r.targetFixed is not None
    assert (r.targetFixed.name, r.targetFixed.content) == (["Instagram"], ["광고"])


def test_a_misspelt_name_glued_after_a_time_stays_whole(service) -> None:
    """After a time expression the respacer lets a particle open the run; it had also charged
    the run's first unknown stretch as if an app stood before it, so "인스타그랭" was cut into
    "인스타" + "그랭" and "그랭" asked about."""
    r = _ask(service, "3시까지인스타그랭알림꺼")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["Instagram"]


@pytest.mark.parametrize("turn", ["아니지 유튜브만 켜두고 나머지를 꺼 2시간", "아니지아니지유튜브만켜두고나머지를꺼2시간"])
def test_a_follow_up_that_turns_the_verb_round(service, turn) -> None:
    """Read with the earlier "유튜브 알림 꺼 봐", the model took that command's verb and muted
    YouTube, the one app the user wanted to keep: a wrong rule. The new turn's verb is read on
    its own words."""
    r = _ask(service, turn, pending=True, pendingOriginal="유튜브 알림 꺼 봐")
    assert r.ok, r.message
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE"
    assert r.targetFixed is not None and r.targetFixed.mute is False
    assert r.targetFixed.name == ["YouTube"]


def test_a_follow_up_that_lets_it_go(service) -> None:
    r = _ask(service, "그냥 넘어가자", pending=True, pendingOriginal="디코 알림 좀 꺼줘")
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL"


def test_an_answer_with_a_polite_copula(service) -> None:
    r = _ask(service, "두 시간이요", pending=True, pendingOriginal="카톡 알림 꺼줘요")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["카카오톡"]
