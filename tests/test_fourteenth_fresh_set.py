"""Reading the kinds of phrasing natural_z's sealed run and its reading left open (issue 12):
device labels that hold a number or a lone letter ("18Birdies", "Hole19", "c:geo"), an "l" that
is said in "golf", a purpose clause in -러 before a verb of going the respacer split ("받으러 들어
가야 돼서"), a heading ended by a colon before the command, and a reason clause glued to the app
after it by a contracted verb ("비와서유튜브") — on the real reader, the real sound rules and the
real service (real GGUF, real ONNX). The sentences and labels are this file's own, none of them an
evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.sound import says_label_by_parts, sound_distance
from tests.phrasing import ask, device, read

NOW = "2036-12-08T09:40:00+09:00"

NUMBERED = device(
    ("K-9 Mail", "com.fsck.k9"),
    ("1Password", "com.onepassword.android"),
    ("Channel 4", "com.channel4.ondemand"),
    ("Strava", "com.strava"),
    ("카카오톡", "com.kakao.talk"),
)


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


# ------------------------------------------------------------------ labels with numbers, letters


@pytest.mark.parametrize(
    ("word", "label"),
    [
        ("케이나인메일", "K-9 Mail"),  # a lone letter by its name, a digit in English
        ("1패스워드", "1Password"),  # the digit as typed, the word said
        ("원패스워드", "1Password"),  # the whole label said, its number in English
        ("채널포", "Channel 4"),
        ("구패스워드", "9Password"),  # a digit in Sino-Korean
    ],
)
def test_a_label_with_a_number_or_a_letter_said_piece_by_piece(word, label) -> None:
    assert says_label_by_parts(word, label)


@pytest.mark.parametrize(
    ("word", "label"),
    [
        ("채널사", "Channel 4"),  # 사 is four in Sino-Korean: still a number read as 4
    ],
)
def test_a_number_said_in_sino_korean_is_that_number(word, label) -> None:
    assert says_label_by_parts(word, label)


@pytest.mark.parametrize(
    ("word", "label"),
    [
        ("패스워드", "1Password"),  # the number left out: another app could be meant
        ("채널오", "Channel 4"),  # another number
        ("케이메일", "K-9 Mail"),
        ("나인메일", "K-9 Mail"),  # the letter left out
        ("스트라바", "Strava"),  # no number, no lone letter: left to the whole-word rules
    ],
)
def test_a_label_with_a_number_needs_every_piece(word, label) -> None:
    assert not says_label_by_parts(word, label)


def test_device_labels_with_numbers_in_commands(service) -> None:
    r = _ask(service, "케이나인메일이랑 1패스워드 알림 3시간만 꺼 줘", NUMBERED)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["K-9 Mail", "1Password"]
    r = _ask(service, "채널포 알림 오늘 밤 11시까지 끄기", NUMBERED)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Channel 4"]


def test_two_labels_apart_only_by_their_number(service) -> None:
    """"채널포" is Channel 4, not Channel 5 beside it: the number is read, not only the word."""
    both = device(("Channel 5", "uk.co.channel5.my5"), *((a.label, a.package) for a in NUMBERED.apps))
    r = _ask(service, "채널포 알림 1시간 꺼", both)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Channel 4"]
    r = _ask(service, "채널파이브 알림 1시간 꺼", both)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Channel 5"]


@pytest.mark.parametrize(
    ("word", "latin"),
    [("골프샷", "Golfshot"), ("울프", "Wolf"), ("워크", "Walk"), ("스토리", "Stories")],
)
def test_which_l_is_said_and_a_plural_in_ies(word, latin) -> None:
    """The l of "golf" and "wolf" is said (골프, 울프); that of "walk" is not. A plural
    "-ies" is often said without its s ("스토리")."""
    assert sound_distance(word, latin) == 0


# --------------------------------------------------------------------------- clauses


def test_a_purpose_clause_before_a_verb_of_going_split_by_the_respacer(service) -> None:
    """"받으러 들어가야 돼서": 받 is no allow verb in a purpose clause, also where "들어가야" is
    read as the filler "들어" and "가야". All notifications had been asked about."""
    r = _ask(service, "물리치료 받으러 들어가야 돼서 40분 동안 유튜브 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and r.targetFixed.name == ["YouTube"]


@pytest.mark.parametrize(
    ("text", "app"),
    [
        ("내 부탁은 딱 하나야: 인스타 알림 2시간 꺼줘", "Instagram"),
        ("오늘의 요청: 밴드 알림 30분 꺼", "밴드"),
    ],
)
def test_a_heading_ended_by_a_colon_is_context(service, text, app) -> None:
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and r.targetFixed.name == [app]


def test_an_app_before_a_colon_is_still_the_target(service) -> None:
    r = _ask(service, "카톡: 30분만 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["카카오톡"]


def test_a_keyword_heading_before_a_colon_is_still_read(service) -> None:
    r = _ask(service, "키워드: 택배 알림만 2시간 받게")
    assert r.ok and r.targetFixed is not None, r.message
    assert not r.targetFixed.mute and r.targetFixed.content == ["택배"]


@pytest.mark.parametrize(
    ("text", "app"),
    [("눈와서멜론알림한시간꺼줘", "멜론"), ("추워서밴드알림30분꺼", "밴드")],
)
def test_a_reason_clause_glued_to_the_app_after_it(service, text, app) -> None:
    """A contracted verb ("와서", "워서") writes no ending the clause list has: the run had been
    one unknown word, and the answer asked about it."""
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == [app] and not r.targetFixed.all


def test_a_word_ending_in_서_glued_to_nothing_known_is_still_asked_about(service) -> None:
    """The glued 서 splits only before a word the respacer knows: an unknown run is kept whole."""
    r = _ask(service, "리서치허브 알림 한시간 꺼줘")
    assert not r.ok and r.failReason == "app_unresolved", r.targetFixed


# ------------------------------------------------- natural_ad's first run, by kind (own sentences)

CLIMBER = device(
    ("Crag Guide", "com.example.cragguide"),
    ("Strava", "com.strava"),
    ("Kilter Board", "com.auroraclimbing.kilterboard"),
    ("Trail Run Tracker", "com.example.trailruntracker"),
    ("Plantnet Identify", "org.plantnet"),
    ("카카오톡", "com.kakao.talk"),
)


def test_an_exclusion_list_through_a_particle_after_a_two_word_label(service) -> None:
    """"X Y랑 Z는 그대로 두고 W만 꺼": the particle after a two-word Latin label stood after a
    blank word, and X had been muted with W — a wrong rule."""
    r = _ask(service, "Crag Guide랑 Strava는 그대로 두고 Kilter Board 알림만 1시간 꺼", CLIMBER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and r.targetFixed.name == ["Kilter Board"]


@pytest.mark.parametrize("word", ["TRT", "티알티"])
def test_a_label_of_three_words_by_its_initials(service, word) -> None:
    r = _ask(service, f"{word} 알림 1시간 꺼", CLIMBER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Trail Run Tracker"]


def test_a_latin_label_by_its_first_word(service, table_mapper) -> None:
    """"Plantnet" for Plantnet Identify: read by the label itself, not only by the embeddings
    (which model mode overrules when the model answers "another app")."""
    r = read(table_mapper, "Plantnet 알림만 받고 나머지 꺼", CLIMBER)
    assert [(m.app.label, m.method) for m in r.apps] == [("Plantnet Identify", "part")]
    r = _ask(service, "Plantnet 알림만 받고 나머지 꺼 1시간", CLIMBER)
    assert r.ok and r.targetFixed is not None, r.message
    assert not r.targetFixed.mute and r.targetFixed.name == ["Plantnet Identify"]


def test_a_word_kept_out_before_its_notifications_is_no_keyword(service) -> None:
    """"쿠쿠 알림은 놔두고 카톡만 꺼": the word the user keeps out had become a keyword of the mute
    rule (카톡's notifications that hold "쿠쿠") — a wrong rule. Unread, it is asked about."""
    r = _ask(service, "쿠쿠 알림은 놔두고 카톡만 1시간 꺼")
    assert not (r.targetFixed is not None and r.targetFixed.content), r.targetFixed
    assert not r.ok and r.failReason == "app_unresolved", r.message


def test_a_fraction_of_a_year_is_kept(service) -> None:
    """"1.5년" had been one year: a rule inside the limit for a request past it."""
    r = _ask(service, "1.5년 동안 밴드 알림 꺼줘")
    assert not r.ok and r.failReason == "invalid_time", r.condition
    r = _ask(service, "1.5개월 동안 밴드 알림 꺼줘")
    assert r.ok and r.condition is not None, r.message
    span = datetime.fromisoformat(r.condition.expires) - datetime.fromisoformat(r.condition.delivery)
    assert span.days == 31 + 15  # December, then 15 days


@pytest.mark.parametrize(
    ("text", "app"),
    [
        ("빨래 다 갰고 이제 잔다 아침 7시까지 카톡 꺼", "카카오톡"),  # 잔다 is one jamo from 잔디 (Jandi)
        ("줄이 길다 30분 동안 밴드 꺼", "밴드"),
    ],
)
def test_statements_and_reasons_before_the_command(service, text, app) -> None:
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute and r.targetFixed.name == [app]


@pytest.mark.parametrize("text", ["등산 준비로 정신없으니 카톡 꺼", "짐 싸느라 피곤하니 카톡 꺼"])
def test_a_reason_clause_in_으니(table_mapper, default_index, text) -> None:
    """"…정신없으니": the clause's words had been left for the model or a question."""
    r = read(table_mapper, text, default_index)
    assert not r.unknown_words and [m.app.label for m in r.apps] == ["카카오톡"]


@pytest.mark.parametrize(
    "text",
    ["인스타만 켜 두고 다 꺼 1시간", "인스타만켜두고다꺼1시간", "인스타만 켜 나머지 꺼 1시간",
     "인스타만on나머지off 1시간"],
)
def test_one_app_kept_on_and_the_rest_off_lets_it_through(table_mapper, default_index, text) -> None:
    """"X만 켜 두고 다 꺼" (the respacer sets "두고" apart) and "X만 켜 나머지 꺼": only X gets
    through. Code had read two verbs of opposite sense and left the rule to the model."""
    r = read(table_mapper, text, default_index)
    assert r.mute is False and [m.app.label for m in r.apps] == ["Instagram"]


def test_an_app_left_off_stays_muted(table_mapper, default_index) -> None:
    r = read(table_mapper, "인스타 꺼 두고 1시간", default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == ["Instagram"]


def test_a_formal_request_ending_is_no_word_to_place(table_mapper, default_index) -> None:
    r = read(table_mapper, "밴드 알림 꺼 주십시오", default_index)
    assert not r.unknown_words and [m.app.label for m in r.apps] == ["밴드"]


def test_no_need_any_more_at_the_end_cancels(service) -> None:
    """"…방금 나왔어 안 해도 돼": a statement and "no need", about a chat room (단톡방 names 카톡)."""
    r = _ask(service, "그 단톡방 오늘 나왔어 안 해도 돼", pending=True,
             pendingOriginal="카톡 알림 좀 꺼줄래")
    assert not r.ok and r.failReason == "cancelled" and r.pendingAction == "CANCEL", r.message


def test_a_deferral_then_instead_is_a_new_request(service) -> None:
    """"X부터 하고 올게 대신 …": the earlier command is set aside whole; 대신 swaps no part of it."""
    r = _ask(service, "빨래부터 하고 올게 대신 카톡 30분 꺼줘", pending=True,
             pendingOriginal="유튜브 알림 막아줘")
    assert r.ok and r.targetFixed is not None and r.pendingAction == "NEW_REQUEST", r.message
    assert r.targetFixed.name == ["카카오톡"]


# ------------------------------------------------------------- the older sets' last misses


def test_capitals_of_a_label_said_letter_by_letter_even_where_the_table_knows_it(service) -> None:
    """"이구씨엠" for 29CM: the number in Sino-Korean digits, the capitals by their names. The
    table knows 29CM only as "29cm", and the sound rules leave apps the table knows to it."""
    shop = device(("29CM", "com.the29cm.app29cm"), ("무신사", "com.musinsa.store"))
    r = _ask(service, "이구씨엠이랑 무신사 알림 두 시간 꺼줘", shop)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["29CM", "무신사"]


@pytest.mark.parametrize(
    ("text", "app"),
    [("장바구니 그만 볼래 오늘 밤 9시까지 쿠팡 알림 꺼", "쿠팡"),
     ("뉴스 그만 보고 싶어 유튜브 알림 1시간 꺼줘", "YouTube")],
)
def test_an_opening_that_stops_doing_something_is_no_verb_of_the_rule(
    table_mapper, default_index, text, app
) -> None:
    """"그만" is a mute cue, but "장바구니 그만 볼래" says the user stops looking at a basket: the
    command's verb is the one after it. Read as a verb, the basket had been a word to place."""
    r = read(table_mapper, text.replace("오늘 밤 9시까지 ", "").replace("1시간 ", ""), default_index)
    assert r.mute is True and not r.unknown_words and [m.app.label for m in r.apps] == [app]


def test_stop_alone_is_still_the_verb(table_mapper, default_index) -> None:
    r = read(table_mapper, "카톡 알림 그만", default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == ["카카오톡"]


# ------------------------------------------------- natural_ae's first run, by kind (own sentences)




def test_a_ch_said_as_k(service) -> None:
    """"에코" writes Echo's ch as ㅋ: the other reading of those letters ("Chat" keeps ㅊ)."""
    radio = device(("EchoLink", "org.echolink.android"), ("Chatter Box", "com.example.chatterbox"))
    r = _ask(service, "에코링크 알림 1시간 꺼줘", radio)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["EchoLink"]
    assert sound_distance("테크", "Tech") == 0 and sound_distance("챗", "Chat") is None


@pytest.mark.parametrize(
    ("original", "turn", "app"),
    [
        ("밴드 알림 꺼줘", "그 얘긴 나중에 하고 오늘 밤 10시까지 쿠팡 알림 꺼줘", "쿠팡"),
        ("밴드 알림 꺼줘", "그건 이따 정하고 내일 아침 8시까지 멜론 알림 꺼줘", "멜론"),
        ("밴드 알림 꺼줘", "아맞다그전에 쿠팡알림 30분 꺼줘", "쿠팡"),
    ],
)
def test_openers_that_set_the_earlier_command_aside(rules_service, original, turn, app) -> None:
    r = _ask(rules_service, turn, pending=True, pendingOriginal=original)
    assert r.ok and r.targetFixed is not None and r.pendingAction == "NEW_REQUEST", r.message
    assert r.targetFixed.name == [app]


def test_a_hedged_length_continues(service) -> None:
    """"한 시간 반이면 되려나": a length with a hedge is the answer to "how long?"."""
    r = _ask(service, "음한시간반이면되려나", pending=True, pendingOriginal="밴드 알림 꺼둘래")
    assert r.ok and r.pendingAction == "CONTINUE" and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["밴드"]


@pytest.mark.parametrize(
    "text",
    [
        "김장하는 중이라 고무장갑 낀 손으로 폰 못 만져 카톡 알림 30분 꺼줘",
        "빵 반죽하고 있어서 손이 바빠 카톡 알림 30분 꺼줘",
        "밤새 별 보다가 깼음 카톡 알림 30분 꺼줘",
    ],
)
def test_a_state_said_plainly_closes_the_reason(rules_service, text) -> None:
    r = _ask(rules_service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["카카오톡"]


def test_an_absent_app_in_the_reason_with_all_said(service) -> None:
    """"잔디 깎고 왔다 … 전부 무음": 잔디 (grass) is also Jandi, an app the device lacks; with
    "all" said in the command the reason's word is context. Named as the target it still asks."""
    r = _ask(service, "마당 잔디 깎고 왔다 씻게 전부 무음 20분")
    assert r.ok and r.targetFixed is not None and r.targetFixed.all, r.message
    r = _ask(service, "잔디 알림 전부 꺼 20분")
    assert not r.ok and r.failReason == "app_unresolved", r.targetFixed
