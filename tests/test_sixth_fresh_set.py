"""Reading natural_k's kinds of phrasing (issue 12, the sixth fresh set): exception and keep
words people type ("열외하고", "제끼고", "뚫어놓고", "켜둔 채로", "살리고"), statements about
apps that are talk ("답장이 없네"), a fear clause before the command ("깰까 봐"), names said by
their letters or by sound when two labels are alike ("씨엔엔", "포켓캐스트"), lengths joined by
"하고", a clock time alone answering "until when?", and "다른 건" as the other apps — on the real
alias table, the real reader, the real time parser and the real service (real GGUF, real ONNX).
The sentences are this file's own, none of them natural_k's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.sound import sound_distance
from notillm_local.stages.timeparse import TimeOutcome, parse_time
from tests.phrasing import ask, read

NOW = "2034-03-10T13:45:00+09:00"
PODCASTS = InstalledIndex.of([
    AppRef("Podcast Addict", "com.bambuna.podcastaddict"),
    AppRef("Pocket Casts", "au.com.shiftyjelly.pocketcasts"),
    AppRef("BBC News", "bbc.mobile.news.ww"), AppRef("CNN", "com.cnn.mobile.android.phone"),
    AppRef("KakaoTalk", "com.kakao.talk"),
])


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


# --------------------------------------------------------------------------- exceptions, keeps


@pytest.mark.parametrize(("text", "kept"), [
    ("문자 열외하고 나머지 다 꺼줘", "메시지"),
    ("유튜브제끼고다꺼", "YouTube"),
    ("카톡 아닌 알림은 전부 꺼", "카카오톡"),
    ("슬랙 이외의 알림 다 무음", "Slack"),
    ("멜론만 뚫어놓고 나머지 off", "멜론"),
    ("인스타만 예외로 두고 다 꺼", "Instagram"),
])
def test_exception_words_let_only_the_named_app_through(
    table_mapper, default_index, text, kept
) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is False and [m.app.label for m in r.apps] == [kept], (text, r)


@pytest.mark.parametrize(("text", "muted"), [
    ("밴드는 켜둔 채로 카톡 슬랙 알림 꺼줘", ["카카오톡", "Slack"]),
    ("유튜브는 살리고 쿠팡이랑 배민 알림은 죽여놔", ["쿠팡", "배달의민족"]),
])
def test_keep_words_leave_the_kept_app_out_of_the_mute_rule(
    table_mapper, default_index, text, muted
) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == muted, (text, r)
    assert not r.unknown_words


def test_a_verb_left_on_beside_its_opposite_is_still_a_conflict(service) -> None:
    """"켜놓고 … 꺼줘" about one app is two verbs, not a keep marker (natural_g, rough)."""
    r = _ask(service, "2시간동안디코알림켜놓고동시에꺼줘")
    assert not r.ok and r.failReason is not None and r.failReason.value == "conflict"


def test_the_other_apps_said_as_other_things(service) -> None:
    """"X 알림만 받고 다른 건 꺼": two verbs about two targets, no conflict."""
    r = _ask(service, "토스 알림만 받고 다른 건 저녁 8시까지 꺼줘")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.mute is False
    assert r.targetFixed.name == ["토스"]


# --------------------------------------------------------------------------- talk and reasons


@pytest.mark.parametrize("text", [
    "3시간째 슬랙 답장이 없네",
    "인스타 피드 오늘따라 이상하네ㅋㅋ",
    "토스 만보기 오늘도 다 채웠다",
])
def test_a_statement_about_an_app_is_talk_not_a_rule(service, text) -> None:
    """No intent verb, and the message ends on what the user saw or did: the model had filled
    an intent from nothing and made a rule (a wrong rule is worse than no rule)."""
    r = _ask(service, text)
    assert not r.ok and r.failReason is not None and r.failReason.value == "chitchat", r


def test_a_fragment_after_a_reason_is_still_a_command(service) -> None:
    r = _ask(service, "회의중이라 슬랙 2시간")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["Slack"]


def test_a_fear_clause_before_the_command_is_context(table_mapper, default_index) -> None:
    r = read(table_mapper, "애기 깰까 봐 카톡 알림 꺼줘", default_index)
    assert [m.app.label for m in r.apps] == ["카카오톡"] and not r.unknown_words, r


@pytest.mark.parametrize("text", ["넷플 알림 안 들리게 해줘", "당근 알림 죽여놔", "밴드 알림 잠잠하게 해줘"])
def test_mute_verbs_people_type(table_mapper, default_index, text) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is True and not r.unknown_words, (text, r)


# --------------------------------------------------------------------------- names


def test_names_said_by_their_letters_on_the_device(table_mapper) -> None:
    for word, label in [("씨엔엔", "CNN"), ("비비씨", "BBC News")]:
        found = table_mapper.resolve(word, PODCASTS)
        assert isinstance(found, AppMatch) and found.app.label == label, word


def test_the_closer_sound_wins_between_two_alike_labels(table_mapper) -> None:
    """"포켓캐스트" says the whole label Pocket Casts (its plural s unsaid) and is one sound off
    "Podcast", only the first word of Podcast Addict: the whole label wins (it had been neither)."""
    assert sound_distance("포켓캐스트", "Pocket Casts") == 0
    assert sound_distance("포켓캐스트", "Podcast") == 1
    assert sound_distance("포켓캐스트", "Podcast Addict") is None
    found = table_mapper.resolve("포켓캐스트", PODCASTS)
    assert isinstance(found, AppMatch) and found.app.label == "Pocket Casts"
    # Alike only by first words, equally: neither.
    twins = InstalledIndex.of([AppRef("Podcast Addict", "a.b"), AppRef("Podcast Player", "a.c")])
    assert not isinstance(table_mapper.resolve("팟캐스트", twins), AppMatch)


# --------------------------------------------------------------------------- time


@pytest.mark.parametrize(("text", "minutes"), [
    ("두시간하고이십분만 꺼줘", 140),
    ("1시간 하고 5분 동안", 65),
    ("for 2 hours and 15 minutes", 135),
])
def test_lengths_joined_by_a_word(text, minutes) -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time(text, now)
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert (r.condition.expires - now).total_seconds() == minutes * 60
    # "하고" before anything but a length is no joint: "1시간 하고 카톡" is one hour.
    r = parse_time("1시간 하고 카톡 꺼줘", now)
    assert r.condition is not None and (r.condition.expires - now).total_seconds() == 3600


@pytest.mark.parametrize(("text", "hour", "next_day"), [
    ("내일 아침 8시", 8, True), ("tomorrow 7am", 7, True), ("저녁 9시", 21, False),
])
def test_a_clock_time_alone_answers_until_when(service, text, hour, next_day) -> None:
    r = _ask(service, text, pending=True, pendingOriginal="디코 알림 꺼줘")
    assert r.ok, r.message
    assert r.pendingAction is not None and r.pendingAction.value == "CONTINUE"
    assert r.condition is not None
    expires = datetime.fromisoformat(str(r.condition.expires))
    assert expires.hour == hour and expires.minute == 0
    assert expires.day == (11 if next_day else 10)


def test_a_clock_time_alone_is_still_no_time_in_a_fresh_command() -> None:
    r = parse_time("내일 아침 8시", datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.NO_TIME
    r = parse_time("내일 아침 8시", datetime.fromisoformat(NOW), lone_time_ends=True)
    assert r.outcome is TimeOutcome.OK and r.condition is not None


def test_a_follow_up_that_folds_the_request_away(service) -> None:
    r = _ask(service, "접어접어 ㅋㅋ", pending=True, pendingOriginal="밴드 알림 좀 꺼줘봐")
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL"


@pytest.mark.parametrize(("word", "label"), [("소프티파이", "Spotify"), ("넷플릭스", "Netflix")])
def test_two_vowels_typed_in_each_others_place(table_mapper, default_index, word, label) -> None:
    found = table_mapper.resolve(word, default_index)
    assert isinstance(found, AppMatch) and found.app.label == label
    # A swap of consonants, or of vowels into another app's name, is no such slip.
    assert not isinstance(table_mapper.resolve("문재", default_index), AppMatch)


# --------------------------------------------------------------------------- from natural_l's first run


def test_a_word_glued_to_the_verb_is_placed_not_swallowed(table_mapper, default_index) -> None:
    """"틱탁알림꺼ㅓ줘": the whole run had been read as the verb, the misspelt app dropped and
    every notification muted. The head of the run is placed on its own."""
    r = read(table_mapper, "유투부알림꺼ㅓ줘", default_index)
    assert [m.app.label for m in r.apps] == ["YouTube"] and not r.says_all, r
    # A head nobody can place is asked about, never dropped.
    r = read(table_mapper, "뷁뷁알림꺼ㅓ줘", default_index)
    assert r.unknown_words or r.unresolved, r
    # Filler glued to the verb stays filler: "알림다꺼줘" still means every notification.
    r = read(table_mapper, "알림다꺼줘", default_index)
    assert r.says_all and r.mute is True and not r.unknown_words


@pytest.mark.parametrize(("text", "mute", "apps"), [
    ("디코랑유튜브알림못울리게", True, ["Discord", "YouTube"]),
    ("밴드알림입다물게해", True, ["밴드"]),
    ("슬랙만살아있게하고나머지다꺼", False, ["Slack"]),
    ("카톡 알림 일절 받지 않겠습니다", True, ["카카오톡"]),
])
def test_more_verbs_and_adverbs_people_type(table_mapper, default_index, text, mute, apps) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is mute and [m.app.label for m in r.apps] == apps and not r.unknown_words, r

