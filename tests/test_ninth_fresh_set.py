"""Reading the kinds of phrasing natural_q and natural_r found on their first runs (issue 12, the
ninth fresh sets): a negated verb ("안 들어오게", "안 울려도 돼"), a name that merely ends like a
purpose clause ("램블러"), a place said before "대기 중", glued names with one misspelt
("페붘스레드"), a time between the two words for "the rest", "-면서" joining two opposite
verbs, follow-ups that decline ("안 끌래", "그냥 둬") and the time words "낼 정오", "반으로",
"석 달" — on the real reader, the real time parser and the real service (real GGUF, real
ONNX). The sentences are this file's own, none of them an evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.stages.timeparse import TimeOutcome, parse_time
from tests.phrasing import ask, read

NOW = "2036-04-15T13:20:00+09:00"


def _ask(service, prompt: str, **kw):
    return ask(service, prompt, NOW, None, **kw)


def _fail(r) -> str | None:
    return r.failReason.value if r.failReason is not None else None


def _labels(r) -> list[str]:
    return [m.app.label for m in r.apps]


# --------------------------------------------------------------------------- negated verbs


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("폰 알림 전부 안 들어오게 해줘", []),
        ("디코 알림은 못 들어오게 막아", ["Discord"]),
        ("인스타 알림 들어오지 않게", ["Instagram"]),
    ],
)
def test_not_coming_in_is_a_mute(table_mapper, default_index, text, apps) -> None:
    """"안 들어오게": 오게 alone is the allow verb; with 안 before it the user shuts it out. Read
    as 오게 it had let every notification through."""
    r = read(table_mapper, text, default_index)
    assert r.mute is True and _labels(r) == apps, r
    assert not r.unknown_words, r


@pytest.mark.parametrize("text", ["카톡 안 울려도 돼", "밴드 알림 못 떠도 괜찮아"])
def test_a_negation_before_an_allow_verb_leaves_the_verb_undecided(table_mapper, default_index, text) -> None:
    """A negation code has no cue for turns the verb around: code does not decide the intent
    from the verb alone, and 안/못 is part of the verb, no word left to ask about."""
    r = read(table_mapper, text, default_index)
    assert r.mute is None and "intent" in r.unsure, r
    assert not r.unknown_words, r


def test_a_negation_that_opens_a_cue_of_its_own_negates_nothing_else(table_mapper, default_index) -> None:
    """"안 뜨게 막아": 안 belongs to "안 뜨게", and 막아 after it is no negated verb."""
    r = read(table_mapper, "슬랙 알림 안 뜨게 막아", default_index)
    assert r.mute is True and _labels(r) == ["Slack"] and not r.unsure, r


def test_a_negated_allow_verb_gets_a_rule_from_the_service(service) -> None:
    r = _ask(service, "헬스 갈 거라 폰 알림 다 한 시간 반 동안 안 들어오게 해줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is True and r.targetFixed.all is True


# --------------------------------------------------------------------------- clauses


def test_a_name_ending_in_러_is_no_purpose_clause(table_mapper, default_index) -> None:
    """"-러" closes a purpose clause only before a verb of going or coming ("밥 먹으러 가요"): an
    unknown name ending in 러 before 알림 had been read as context, leaving a rule for every app."""
    r = read(table_mapper, "스크램블러 알림 꺼줘", default_index)
    assert "스크램블러" in r.unknown_words, r
    r = read(table_mapper, "밥 먹으러 가요 카톡 알림 꺼줘", default_index)
    assert r.mute is True and _labels(r) == ["카카오톡"] and not r.unknown_words, r


def test_an_unknown_name_ending_in_러_is_asked_about(service) -> None:
    r = _ask(service, "스크램블러 알림 두 시간 꺼")
    assert not r.ok and _fail(r) == "app_unresolved", r


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("도하 경유 대기 중 폰 알림 꺼줘", []),
        ("다낭출장중슬랙알림꺼줘", ["Slack"]),
        ("시험 2개라 인스타 알림 꺼줘", ["Instagram"]),
        ("공부 좀 하자 틱톡 알림 꺼", ["TikTok"]),
    ],
)
def test_what_the_user_is_doing_is_context(table_mapper, default_index, text, apps) -> None:
    """A place or activity said before "대기 중", glued "출장중", a count closing a clause ("2개라")
    are context, never words to ask about."""
    r = read(table_mapper, text, default_index)
    assert r.mute is True and _labels(r) == apps, r
    assert not r.unknown_words, r


def test_among_an_apps_messages_is_no_clause(table_mapper, default_index) -> None:
    """"문자중'X'": 중 after an app means among its messages; the app stays the target."""
    r = read(table_mapper, "문자중'택배'들어간거 꺼줘", default_index)
    assert _labels(r) == ["메시지"] and r.content == ("택배",), r


def test_a_verb_that_is_not_a_state_still_opens_chitchat(service) -> None:
    r = _ask(service, "두 시간째 넷플 보는 중")
    assert not r.ok and _fail(r) is not None and _fail(r) != "app_unresolved", r


# --------------------------------------------------------------------------- glued names


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("인스타페붘알림 꺼줘", ["Instagram", "Facebook"]),
        ("멜론스포티파리 알림 꺼줘", ["멜론", "Spotify"]),
    ],
)
def test_glued_names_with_one_misspelt(table_mapper, default_index, text, apps) -> None:
    """Every letter of the run is a name or one jamo off one: each is an app of the rule."""
    r = read(table_mapper, text, default_index)
    assert sorted(_labels(r)) == sorted(apps) and not r.unknown_words, r


def test_a_run_with_a_stretch_that_is_no_name_stays_whole(table_mapper, default_index) -> None:
    """"온라인" holds 라인, but 온 is no name: the word is not cut into a guess."""
    r = read(table_mapper, "온라인 알림 꺼줘", default_index)
    assert "온라인" in r.unknown_words and not r.apps, r


def test_what_the_model_leaves_of_a_glued_run_is_asked_about(service) -> None:
    """The model names the two apps inside "유튭멜론라쿠텐"; 라쿠텐 is no app of the catalog. The
    answer asks, never a rule for YouTube and 멜론 alone."""
    r = _ask(service, "유튭멜론라쿠텐알림 1시간 꺼")
    assert not r.ok and _fail(r) == "app_unresolved", r


# --------------------------------------------------------------------------- two verbs


def test_a_time_between_the_words_for_the_rest_is_no_second_all(service) -> None:
    """"나머지는 3시간 다": the time stands between 나머지 and 다, one phrase for the other apps; it
    had been read as "all" said twice, a conflict."""
    r = _ask(service, "밴드만 받고 나머지는 3시간 다 꺼")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is False and r.targetFixed.name == ["밴드"]


def test_allowing_while_blocking_one_app_is_a_conflict(service) -> None:
    r = _ask(service, "저녁 8시까지 밴드 알림 허용하면서 차단도 해줘")
    assert not r.ok and _fail(r) == "conflict", r


def test_blocking_while_letting_one_app_through_is_an_allow_rule(table_mapper, default_index) -> None:
    r = read(table_mapper, "차단하면서 멜론만 허용해줘", default_index)
    assert not r.contradicts and _labels(r) == ["멜론"], r


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("인스타 빼곤 아무 알림도 안 울리게 해", ["Instagram"]),
        ("밴드하나만살려두고나머지는전부챠단", ["밴드"]),
    ],
)
def test_everything_but_one_app(table_mapper, default_index, text, apps) -> None:
    """"X 빼곤 아무 알림도 안 울리게": no notification but X's, so only X gets through."""
    r = read(table_mapper, text, default_index)
    assert r.mute is False and _labels(r) == apps and not r.unknown_words, r


@pytest.mark.parametrize(
    "text", ["'당첨' 이라는 글자 박힌 문자 꺼줘", "스팸 문자 꺼 줄 수 있으려나", "당근 알림 꺼부러"]
)
def test_frame_and_request_words_are_read(table_mapper, default_index, text) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is True and not r.unknown_words, r


# --------------------------------------------------------------------------- follow-ups


@pytest.mark.parametrize(
    ("original", "turn"),
    [("밴드 알림 꺼 둘까", "아냐 안 끌래"), ("틱톡 알림 끄고 싶어", "음 그냥 둬")],
)
def test_declining_the_pending_command_cancels_it(service, original, turn) -> None:
    """"안 끌래" holds a mute verb but declines it; "그냥 둬" leaves things as they are."""
    r = _ask(service, turn, pending=True, pendingOriginal=original)
    assert r.pendingAction is not None and r.pendingAction.value == "CANCEL", r
    assert _fail(r) == "cancelled", r


def test_a_changed_clock_with_half_and_euro(service) -> None:
    r = _ask(service, "9시 말고 10시 반으로", pending=True, pendingOriginal="유튜브 알림 밤 9시까지 꺼")
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE", r
    assert r.ok and r.condition is not None and r.condition.expires.startswith("2036-04-15T22:30"), r


# --------------------------------------------------------------------------- time words


def test_tomorrow_said_short_before_noon() -> None:
    r = parse_time("낼 정오까지", datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert r.condition.expires.isoformat().startswith("2036-04-16T12:00"), r


@pytest.mark.parametrize(("text", "months"), [("석 달 동안", 3), ("넉달간", 4)])
def test_the_old_forms_of_three_and_four_months(text, months) -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time(text, now)
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert r.condition.expires.month == now.month + months, r


def test_a_year_and_three_months_is_too_long() -> None:
    r = parse_time("일 년 하고 석 달 동안", datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.INVALID_TIME, r


def test_석_alone_is_no_number() -> None:
    """석 is 3 only before 달: "석 시간", "석사" hold no length."""
    now = datetime.fromisoformat(NOW)
    assert parse_time("석사 논문 알림", now).outcome is TimeOutcome.NO_TIME


# --------------------------------------------------------------------------- a verb that keeps apps


@pytest.mark.parametrize(
    ("text", "apps", "kept"),
    [
        ("밴드는 켜 두고 인스타만 꺼줘", ["Instagram"], "밴드"),
        ("멜론 켜놓고 유튜브랑 틱톡 꺼", ["YouTube", "TikTok"], "멜론"),
    ],
)
def test_an_app_left_on_before_other_apps_is_kept_out(table_mapper, default_index, text, apps, kept) -> None:
    """"X는 켜 두고 Y만 꺼": X is left on, Y muted. Read as two verbs of one rule it had muted X
    with Y (a wrong rule)."""
    r = read(table_mapper, text, default_index)
    assert r.mute is True and _labels(r) == apps and not r.unsure, r
    assert [a.label for a in r.kept_out] == [kept], r


def test_leaving_one_app_on_and_off_at_once_is_still_a_conflict(service) -> None:
    """With no other app after "켜놓고", the two verbs are about one app: a conflict."""
    r = _ask(service, "밴드 켜놓고 동시에 꺼줘 30분")
    assert not r.ok and _fail(r) == "conflict", r


# --------------------------------------------------------------------------- a clause of contrast


@pytest.mark.parametrize(
    "text", ["밴드 알림 꺼 주는데 밴드 알림은 다 받고 싶어 1시간", "디코 30분 무음인데 디코 알림은 울리게 해줘"]
)
def test_a_clause_of_contrast_with_the_opposite_verb_is_a_conflict(service, text) -> None:
    """"X 무음인데 X는 울리게": the clause before the command says the opposite verb about the same
    app. It had been read as context, leaving a rule for the second verb alone."""
    r = _ask(service, text)
    assert not r.ok and _fail(r) == "conflict", r


@pytest.mark.parametrize(
    ("text", "mute"),
    [("밴드 알림이 안 와서 그런데 밴드 알림 켜줘 1시간", False), ("밴드 시끄러운데 밴드 1시간 꺼줘", True)],
)
def test_a_clause_that_says_why_is_no_conflict(service, text, mute) -> None:
    """A cause ("안 와서") or a complaint ("시끄러운데") about the app the command names is context."""
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.mute is mute and r.targetFixed.name == ["밴드"]
