"""Reading the kinds of phrasing left from natural_m/natural_n and found in natural_o's first run
(issue 12, the eighth fresh set): a past holiday ("지난 광복절부터"), a verb in its modifier form
inside a reason clause ("PT 받는 중이라"), a negated statement of two words ("폰 못 봄") — on the
real reader, the real time parser and the real service (real GGUF, real ONNX). The sentences are
this file's own, none of them an evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.domain import AppRef
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.timeparse import TimeOutcome, parse_time
from tests.phrasing import ask, read

NOW = "2035-09-20T15:10:00+09:00"


def _ask(service, prompt: str, **kw):
    return ask(service, prompt, NOW, None, **kw)


@pytest.mark.parametrize(
    "text", ["지난 한글날부터 쭉", "저번어린이날부터", "지난 추석 때부터", "지지난 크리스마스까지"]
)
def test_a_past_holiday_is_a_past_time(text) -> None:
    """A holiday's date is not read, but "지난" puts it in the past whatever the date: the
    answer is invalid_time, not a question about a time the user did give."""
    r = parse_time(text, datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.INVALID_TIME, r


@pytest.mark.parametrize("text", ["추석 때까지", "설날때부터"])
def test_a_holiday_with_때_is_still_unread(text) -> None:
    """"추석 때까지": 때 between the holiday and its marker; the date is not read, so it asks."""
    r = parse_time(text, datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.UNCLEAR, r


def test_a_holiday_elsewhere_in_the_sentence_is_no_time() -> None:
    r = parse_time("크리스마스 이벤트 알림 2시간 꺼줘", datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.OK, r


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("레슨 받는 중이라 폰 못 봄 유튜브 틱톡 알림 꺼줘", ["YouTube", "TikTok"]),
        ("전화 받던 중이라서 슬랙 알림 꺼줘", ["Slack"]),
    ],
)
def test_a_verb_describing_what_the_user_is_doing_is_context(table_mapper, default_index, text, apps) -> None:
    """"받는 중이라": 받다 (the allow verb) modifies 중 and the word closes a reason clause, so it
    is no command; the command is the later verb. Read as the command it had made an allow rule
    or left "레슨" and "봄" unread."""
    r = read(table_mapper, text, default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == apps, r
    assert not r.unknown_words and not r.content, r


def test_a_modifier_verb_outside_a_reason_clause_is_still_the_command(table_mapper, default_index) -> None:
    """"카톡 알림 받는 것만 허용": the modifier form before a word that closes no clause is still
    the command's verb."""
    r = read(table_mapper, "카톡 알림 받는 것만 허용해줘", default_index)
    assert r.mute is False and [m.app.label for m in r.apps] == ["카카오톡"], r


def test_the_service_answers_a_command_after_a_state_clause(service) -> None:
    r = _ask(service, "레슨받는중이라 폰 못 봄 인스타 알림 한시간 꺼줘")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["Instagram"]
    assert r.targetFixed.mute is True


# --------------------------------------------------------------------------- natural_o's kinds


def _fail(r) -> str | None:
    return r.failReason.value if r.failReason is not None else None


@pytest.mark.parametrize("text", ["원스토어하고 플레이스토어 알림 1시간 꺼줘", "원스토어 알림 두 시간 꺼줘"])
def test_another_store_is_not_play_store(service, text) -> None:
    """"원스토어" is close in meaning to Play 스토어 and shares its tail, but it is another app: an
    embedding match to it (twice the same app, or a word of the same family) is asked about,
    never a rule that silences Play 스토어 and drops 원스토어."""
    r = _ask(service, text)
    assert not r.ok and _fail(r) == "app_unresolved", r


@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        ("유튜브 아니면 전부 막아", False, ["YouTube"]),
        ("멜론하나빼고다꺼", False, ["멜론"]),
        ("캘린더 말곤 받을 필요 없어", False, ["캘린더"]),
        ("디코 알림 받을 필요 없어", True, ["Discord"]),
        ("슬랙 일시정지", True, ["Slack"]),
        ("멜론 유튜브 알림 금지", True, ["멜론", "YouTube"]),
        ("카톡 계속 울리게 두고 나머지 앱은 다 꺼", False, ["카카오톡"]),
        ("슬랙은 안 꺼도 되고 팀즈랑 줌만 꺼", True, ["Microsoft Teams", "Zoom"]),
        ("도서관 도착~ 카톡 알림 꺼줘", True, ["카카오톡"]),
        ("시험장 들어감 인스타 틱톡 알림 꺼", True, ["Instagram", "TikTok"]),
        ("카톡~ 인스타~ 꺼줘~", True, ["카카오톡", "Instagram"]),
    ],
)
def test_wordings_of_natural_o_kinds(table_mapper, default_index, text, mute, apps) -> None:
    """Exception words ("아니면" before every notification, "하나빼고" glued), "받을 필요 없어",
    "일시정지", "금지", "울리게 두고 나머지 앱은 다", "안 꺼도 되고", a short statement that opens
    the message: each word read, none left to ask about."""
    r = read(table_mapper, text, default_index)
    assert r.mute is mute and [m.app.label for m in r.apps] == apps, r
    assert not r.unknown_words and not r.unresolved, r


def test_아니면_before_another_app_is_no_exception(table_mapper, default_index) -> None:
    """"카톡 아니면 인스타" is a choice of two: no rule may drop 카톡 silently."""
    r = read(table_mapper, "카톡 아니면 인스타 꺼줘", default_index)
    assert "아니면" in r.unknown_words or "카카오톡" in [m.app.label for m in r.apps], r


def test_an_opening_that_names_an_app_is_no_statement(table_mapper, default_index) -> None:
    r = read(table_mapper, "카톡 알림 너무 옴~ 인스타도 꺼줘", default_index)
    assert "카카오톡" in [m.app.label for m in r.apps] or r.unknown_words, r


@pytest.mark.parametrize(
    ("text", "fail"),
    [
        ("인스타 알림 좀 밤 9시까지 끄면 안 될까?", None),
        ("밤 10시까지 배민 알림 안 왔으면 좋겠어", None),
        ("유튜브 알림 진짜 안 봤으면 좋겠다", "incomplete"),
        ("알림 끄면 배터리 덜 닳아?", "chitchat"),
        ("밤 11시부터 내일 아침 7시까지 온갖 알림 다 꺼줘", None),
        ("다음 달 말쯤까지 카톡 알림 꺼", "incomplete"),
    ],
)
def test_requests_by_condition_and_wish(service, text, fail) -> None:
    """"끄면 안 될까?" and "안 왔으면 좋겠어" ask for the rule; "끄면 … 닳아?" asks about it."""
    r = _ask(service, text)
    assert _fail(r) == fail, r
    if fail is None:
        assert r.ok and r.targetFixed is not None and r.targetFixed.mute is True


def test_a_prohibition_is_no_request(service) -> None:
    """"카톡 끄면 안 돼" forbids muting 카톡: the rule is Instagram's alone."""
    r = _ask(service, "카톡 끄면 안 돼 1시간 동안 인스타만 꺼줘")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["Instagram"], r


@pytest.mark.parametrize(
    ("text", "daily"),
    [("맨날 밤 11시부터 아침 7시까지", True), ("엄마가 맨날 뭐라 해서 밤 11시부터 12시까지", False)],
)
def test_맨날_beside_a_time_is_every_day(text, daily) -> None:
    r = parse_time(text, datetime.fromisoformat(NOW))
    assert r.outcome is TimeOutcome.OK and r.condition is not None, r
    assert (r.condition.recurrence == "daily") is daily


def test_a_latin_name_with_two_letters_swapped(table_mapper, default_index) -> None:
    for word, label in (("Gmial", "Gmail"), ("slakc", "Slack")):
        m = table_mapper.resolve(word, default_index)
        assert m is not None and getattr(m, "app", None) is not None and m.app.label == label, m


def test_a_name_cut_to_syllables_of_its_parts(table_mapper, default_index) -> None:
    """"뱅샐", "케뱅": the first syllables of a device's app's parts; on the default catalog no
    common word is read as an app that way."""
    bank = InstalledIndex.of([
        AppRef("뱅크샐러드", "com.rainist.banksalad2"), AppRef("케이뱅크", "com.kbankwith.smartbank"),
        AppRef("토스", "viva.republica.toss"),
    ])
    assert table_mapper.clipped("뱅샐", bank) == AppRef("뱅크샐러드", "com.rainist.banksalad2")
    assert table_mapper.clipped("케뱅", bank) == AppRef("케이뱅크", "com.kbankwith.smartbank")
    for word in ("배송", "쿠폰", "공부", "카드", "메일", "잔고"):
        assert table_mapper.clipped(word, default_index) is None, word


@pytest.mark.parametrize(
    ("original", "turn", "action"),
    [
        ("인스타 알림 꺼 주실래요", "얼마나 꺼야 하지..", "UNRESOLVED"),
        ("슬랙 알림 조용히", "아냐그냥말자", "CANCEL"),
        ("카톡 알림 꺼 줄 수 있어", "그건 그렇고 넷플 알림 20분만 꺼줘", "NEW_REQUEST"),
    ],
)
def test_follow_up_wordings(service, original, turn, action) -> None:
    r = _ask(service, turn, pending=True, pendingOriginal=original)
    assert r.pendingAction is not None and r.pendingAction.value == action, r
    if action == "NEW_REQUEST":
        assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["Netflix"], r


def test_a_changed_clock_replaces_the_end(service) -> None:
    """"6시 말고 8시로 미뤄줘": the clock after 말고 is the new end, never the old one kept."""
    r = _ask(service, "6시 말고 8시로 미뤄줘", pending=True, pendingOriginal="유튜브 알림 저녁 6시까지 꺼")
    assert r.ok and r.condition is not None and r.condition.expires.startswith("2035-09-20T20:00"), r
    r = _ask(service, "6시 말고 좀 더 늦게", pending=True, pendingOriginal="유튜브 알림 저녁 6시까지 꺼")
    assert not r.ok, r


# --------------------------------------------------------------------------- natural_p's wrong rules


@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        ("멜론이랑 스포티파이는 끄지 말고 유튜브 틱톡만 꺼", True, ["YouTube", "TikTok"]),
        ("디코는 안 끄고 슬랙만 꺼", True, ["Slack"]),
        ("문자 하나만 되게 하고 나머지 싹 다 꺼", False, ["메시지"]),
        ("당근 알림 꺼 두고 싶어", True, ["당근"]),
    ],
)
def test_keep_words_natural_p_got_wrong(table_mapper, default_index, text, mute, apps) -> None:
    """"X는 끄지 말고 Y만 꺼" had muted X too; "X 하나만 되게 하고 나머지 다 꺼" had muted X (되게 read
    as a purpose clause); "꺼 두고 싶어" had let the app through (두고 read as keeping it)."""
    r = read(table_mapper, text, default_index)
    assert r.mute is mute and [m.app.label for m in r.apps] == apps, r


def test_said_at_once_one_app_is_still_a_conflict(service) -> None:
    r = _ask(service, "멜론 켜놓고 동시에 꺼줘 1시간")
    assert not r.ok and _fail(r) == "conflict", r


def test_a_change_of_topic_opens_a_new_request(service) -> None:
    r = _ask(service, "얘기 바꿔서, 인스타 알림 밤 10시까지 꺼 줘", pending=True,
             pendingOriginal="쿠팡 알림 끌까")
    assert r.pendingAction is not None and r.pendingAction.value == "NEW_REQUEST", r
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["Instagram"]


@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        ("워크숍 들어가요 슬랙 줌 알림 다 차단", True, ["Slack", "Zoom"]),
        ("부산 출장 왔어 팀즈 알림 꺼", True, ["Microsoft Teams"]),
        ("이사 날이라 긴장돼 유튜브 틱톡 다 막자", True, ["YouTube", "TikTok"]),
        ("벌써 금요일이네 카톡 알림 전부 꺼", True, ["카카오톡"]),
        ("디코 알림만 오고 나머지는 안 오게", False, ["Discord"]),
    ],
)
def test_more_openings_and_allow_wordings(table_mapper, default_index, text, mute, apps) -> None:
    """Openings that end "가요", "왔어", "-돼", "-이네"; "막자"; "X 알림만 오고 나머지는 안 오게"."""
    r = read(table_mapper, text, default_index)
    assert r.mute is mute and [m.app.label for m in r.apps] == apps, r
    assert not r.unknown_words, r


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("엊저녁 9시까지", TimeOutcome.INVALID_TIME),
        ("다음 주 후반까지", TimeOutcome.UNCLEAR),
        ("이번 달 초반까지", TimeOutcome.UNCLEAR),
    ],
)
def test_yesterday_evening_and_parts_of_a_week(text, outcome) -> None:
    r = parse_time(text, datetime.fromisoformat(NOW))
    assert r.outcome is outcome, r


def test_a_wish_said_with_네_is_still_a_wish(service) -> None:
    r = _ask(service, "배민 알림 안 떴으면 좋겠네")
    assert not r.ok and _fail(r) == "incomplete", r
