"""Reading the kinds of phrasing natural_z's sealed run and its reading left open (issue 12):
device labels that hold a number or a lone letter ("18Birdies", "Hole19", "c:geo"), an "l" that
is said in "golf", a purpose clause in -러 before a verb of going the respacer split ("받으러 들어
가야 돼서"), a heading ended by a colon before the command, and a reason clause glued to the app
after it by a contracted verb ("비와서유튜브") — on the real reader, the real sound rules and the
real service (real GGUF, real ONNX). The sentences and labels are this file's own, none of them an
evaluation set's."""

from __future__ import annotations

import pytest

from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.sound import says_label_by_parts, sound_distance
from tests.phrasing import ask, device

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
