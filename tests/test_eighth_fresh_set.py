"""Reading the kinds of phrasing left from natural_m/natural_n and found in natural_o's first run
(issue 12, the eighth fresh set): a past holiday ("지난 광복절부터"), a verb in its modifier form
inside a reason clause ("PT 받는 중이라"), a negated statement of two words ("폰 못 봄") — on the
real reader, the real time parser and the real service (real GGUF, real ONNX). The sentences are
this file's own, none of them an evaluation set's."""

from __future__ import annotations

from datetime import datetime

import pytest

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
