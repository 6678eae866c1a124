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

from notillm_local.domain import AppRef
from notillm_local.stages.app_embed import names_more_than
from notillm_local.stages.apps import InstalledIndex
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


# --------------------------------------------------------------------------- from natural_m's first run

COMICS = InstalledIndex.of([
    AppRef("네이버 시리즈", "com.nhn.android.nbooks"), AppRef("레진코믹스", "com.lezhin.comics"),
    AppRef("카카오페이지", "com.kakao.page"), AppRef("카카오톡", "com.kakao.talk"),
])
GAMES = InstalledIndex.of([
    AppRef("브롤스타즈", "com.supercell.brawlstars"), AppRef("클래시 로얄", "com.supercell.clashroyale"),
    AppRef("쿠키런: 킹덤", "com.devsisters.ck"), AppRef("카카오톡", "com.kakao.talk"),
])


def test_an_embedding_match_never_swallows_a_second_name() -> None:
    """"레진이랑시리즈", "봄툰레진": close in meaning to 레진코믹스, and taken for it whole, the other
    app was dropped from the rule (one of them not even installed)."""
    assert names_more_than("레진이랑시리즈", "레진코믹스")
    assert names_more_than("봄툰레진", "레진코믹스")
    # One syllable left over is a slip or a clipped name, not a second app.
    assert not names_more_than("쿠킹덤", "쿠키런: 킹덤")
    assert not names_more_than("메론", "멜론")
    # Across scripts nothing can be compared.
    assert not names_more_than("플레이스토어", "Play 스토어")


@pytest.mark.parametrize(("text", "ok", "names"), [
    ("레진이랑시리즈알림새벽3시까지꺼줘", True, ["레진코믹스", "네이버 시리즈"]),
    ("봄툰레진알림 두시간 꺼줘", False, None),
])
def test_two_names_glued_into_one_run(service, text, ok, names) -> None:
    r = ask(service, text, NOW, COMICS)
    assert r.ok is ok, r.message
    if ok:
        assert r.targetFixed is not None and r.targetFixed.name == names
    else:
        assert r.failReason is not None and r.failReason.value == "app_unresolved"


def test_an_unknown_word_is_not_cut_to_one_syllable(service) -> None:
    """"클로" (클래시 로얄) had been peeled to "클" + 로, let go as no target, and the rule muted
    the other two games only."""
    r = ask(service, "브롤 클로 쿠킹덤 알림 다 2시간 꺼줘", NOW, GAMES)
    names = r.targetFixed.name if r.targetFixed is not None else []
    assert not r.ok or names == ["브롤스타즈", "클래시 로얄", "쿠키런: 킹덤"], r


@pytest.mark.parametrize(("text", "months"), [("일년하고도두달동안", 14), ("이개월 동안", 2), ("삼 년", 36)])
def test_years_and_months_in_sino_korean_numbers(text, months) -> None:
    """"일년" had been no time, so "일년하고도두달" was read as two months."""
    now = datetime.fromisoformat(NOW)
    r = parse_time(text, now)
    if months * 30 > 366:
        assert r.outcome is TimeOutcome.INVALID_TIME, r
    else:
        assert r.outcome is TimeOutcome.OK and r.condition is not None, r
        assert r.condition.expires.month == (now.month + months - 1) % 12 + 1
    # Hours stay native: "삼시간" is no length.
    assert parse_time("삼시간", now).outcome is TimeOutcome.NO_TIME


def test_a_length_joined_by_hagodo() -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time("한시간하고도십분", now)
    assert r.condition is not None and (r.condition.expires - now).total_seconds() == 70 * 60


def test_a_delay_said_with_naseo() -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time("십오 분 지나고 나서부터 40분간", now)
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert (r.condition.delivery - now).total_seconds() == 15 * 60
    assert (r.condition.expires - r.condition.delivery).total_seconds() == 40 * 60


def test_no_verb_with_an_app_kept_out_mutes_the_others(service) -> None:
    """"X 빼고 Y Z 알림 싹 다 2시간": letting Y and Z alone through would silence X, the one app
    the user kept out; the model had said 허용."""
    r = _ask(service, "멜론 빼고 유튜브 넷플 알림 싹 다 2시간")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is True and r.targetFixed.name == ["YouTube", "Netflix"]


@pytest.mark.parametrize(("text", "mute"), [
    ("카톡 알림 세시간 묶어둬", True), ("'광고' 들어간 메일은 두 시간 걸러줘", True),
    ("'당첨' 들어간 문자만 보여줘 2시간", False),
])
def test_more_verbs_people_type_for_notifications(service, text, mute) -> None:
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is mute


def test_taking_something_out_is_not_turning_it_off(service) -> None:
    """"꺼내" (take out) holds "꺼": a reminder request is no rule."""
    r = _ask(service, "20분 뒤에 택배 꺼내라고 알려줘")
    assert not r.ok and r.failReason is not None and r.failReason.value == "chitchat", r


def test_a_remark_after_the_command_with_an_emoticon(service) -> None:
    for text in ["유튜브 알림 2시간 꺼줘 자꾸 손이 가서", "인스타 알림 2시간 꺼줘 시험 망할까 무서워서ㅠ"]:
        r = _ask(service, text)
        assert r.ok and r.targetFixed is not None and len(r.targetFixed.name) == 1, (text, r.message)


def test_a_verb_quoted_inside_a_reason_is_not_the_command(service) -> None:
    r = _ask(service, "친구가 폰 그만 보라고 뭐라 해서 오늘 밤 10시까지 알림 전부 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.all is True and r.targetFixed.mute is True


@pytest.mark.parametrize("turn", ["없었던 일로 해줘", "말안한걸로할게"])
def test_more_ways_to_take_it_back(service, turn) -> None:
    r = _ask(service, turn, pending=True, pendingOriginal="멜론 알림 꺼줘")
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL"


def test_skip_then_a_whole_new_command_is_a_new_request(service) -> None:
    r = _ask(service, "패스! 대신 오늘 밤 9시까지 당근 알림 꺼줘", pending=True,
             pendingOriginal="쿠팡 알림 막아")
    assert r.pendingAction is not None and r.pendingAction.value == "NEW_REQUEST"
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["당근"]


def test_the_other_ones_said_as_ttan_geon(service) -> None:
    r = _ask(service, "토스 알림만 오게 하고 딴 건 다 막아 1시간")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is False and r.targetFixed.name == ["토스"]


def test_both_states_of_one_app_is_a_conflict(service) -> None:
    r = _ask(service, "디코 알림 on이랑 off 둘 다 1시간")
    assert not r.ok and r.failReason is not None and r.failReason.value == "conflict", r
    # "둘 다" about two apps is both apps.
    r = _ask(service, "카톡이랑 슬랙 둘 다 1시간 꺼줘")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["카카오톡", "Slack"]


# --------------------------------------------------------------------------- from natural_n's first run


@pytest.mark.parametrize("text", [
    "헬스장 들어옴 저녁 8시까지 카톡 유튜브 알림 전부 차단",
    "마감이라 바쁨 밤 10시까지 슬랙만 울리게 해줘",
    "유튜브 틱톡 알림 두 시간 꺼줘 동생 봐줘야 됨",
])
def test_statements_said_with_a_nominal_ending_are_context(service, text) -> None:
    """"들어옴", "바쁨", "…해야 됨": a sentence of the user's own before or after the command;
    its words had been asked about as apps."""
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, (text, r.message)


def test_locking_notifications_mutes_them(service) -> None:
    r = _ask(service, "이번주말통째로디코알림잠가줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is True and r.targetFixed.name == ["Discord"]


@pytest.mark.parametrize("text", ["퇴근할때까지인스타꺼줘", "다다음 달 초까지 유튜브 알림 꺼"])
def test_an_event_or_a_vague_part_of_a_month_asks_for_the_time(service, text) -> None:
    r = _ask(service, text)
    assert not r.ok and r.failReason is not None and r.failReason.value == "incomplete", r
    assert r.needsSupplement


def test_letting_it_be_cancels(service) -> None:
    r = _ask(service, "냅두자 걍", pending=True, pendingOriginal="유튜브 알림 막아")
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL"


def test_on_and_off_at_once_is_a_conflict(service) -> None:
    r = _ask(service, "카톡 알림 on off 동시에 30분 동안")
    assert not r.ok and r.failReason is not None and r.failReason.value == "conflict", r


def test_an_unread_word_where_the_target_stands_is_asked_not_refused(service) -> None:
    """"새벽세시까지냇플디코꺼줘": a verb and a time around a word code could not read had been
    refused as chitchat; a question about the word is the honest answer."""
    r = _ask(service, "새벽두시까지뷁뷁꺼줘")
    assert not r.ok and r.failReason is not None and r.failReason.value == "app_unresolved", r
