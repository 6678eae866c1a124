"""Reading the kinds of phrasing natural_t and natural_v found on their first runs (issue 12, the
twelfth and thirteenth fresh sets): opening statements in formal, polite and slang endings
("…들어갑니다", "…날이다", "…각"), a second statement after a reason clause, while-clauses in
"-는 중", device labels glued together or said with English sound rules ("-ture", "tch", "-cian",
"gui"), "가려줘", "모조리", "'K'라고 달린", a glued opener of a new request — on the real reader, the
real sound rules and the real service (real GGUF, real ONNX). The sentences are this file's own,
none of them an evaluation set's."""

from __future__ import annotations

import pytest

from notillm_local.domain import AppRef
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.clauses import allow_cue_in
from notillm_local.stages.sound import sound_distance
from tests.phrasing import ask, read

NOW = "2036-05-14T13:20:00+09:00"

LEARNER = InstalledIndex.of(tuple(
    AppRef(label, pkg) for label, pkg in [
        ("Coursera", "org.coursera.android"),
        ("Udemy", "com.udemy.android"),
        ("Booking.com", "com.booking"),
        ("Agoda", "com.agoda.mobile.consumer"),
        ("Watchface Studio", "com.example.watchface"),
        ("Simply Guitar", "com.joytunes.simplyguitar"),
        ("카카오톡", "com.kakao.talk"),
        ("메시지", "com.samsung.android.messaging"),
    ]
))


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [("컬처", "Culture"), ("워치페이스", "Watchface"), ("피지션", "Physician"), ("기타", "Guitar"),
     ("가이드", "Guide")],
)
def test_loanword_sounds(hangul, latin) -> None:
    """"-ture" is 처 (its r not said), the t of "tch" is not said, the i of "-cian" glides, and
    the u of "gui"/"gue" is silent."""
    assert sound_distance(hangul, latin) == 0


def test_a_latin_y_is_the_y_of_a_hangul_vowel() -> None:
    """"Yo-" is 요 ("Yosemite": 요세미티), as "You-" is 유."""
    assert sound_distance("요세미티", "Yosemite") == 0


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        ("코세라랑유데미알림 꺼줘", ["Coursera", "Udemy"]),
        ("부킹닷컴아고다알림 꺼", ["Booking.com", "Agoda"]),
    ],
)
def test_device_labels_glued_together(table_mapper, text, apps) -> None:
    """A run of the device's Latin labels said in Korean with no spaces is those apps, every
    letter accounted for — not one unknown word to ask about."""
    r = read(table_mapper, text, LEARNER)
    assert [m.app.label for m in r.apps] == apps and not r.unknown_words, r


def test_a_glued_run_with_a_stretch_that_is_no_app_is_not_split(table_mapper) -> None:
    """"코세라파랑유데미": 파 is no app, so the run is not taken as two apps."""
    r = read(table_mapper, "코세라파랑유데미 알림 꺼", LEARNER)
    assert r.unknown_words or len(r.apps) < 2, r


def test_the_service_answers_glued_device_labels(service) -> None:
    r = _ask(service, "코세라랑유데미알림 세시간 꺼줘", LEARNER)
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.name == ["Coursera", "Udemy"]


def test_a_name_that_opens_like_a_verb_is_no_verb() -> None:
    """"유지" keeps notifications on, but the 유지 of a name ("유지션") is no verb of the rule."""
    assert allow_cue_in("카톡은 유지해") and not allow_cue_in("유지션이랑")
    assert sound_distance("심플리기타", "Simply Guitar") == 0


@pytest.mark.parametrize(
    "text",
    [
        "보고 올라갑니다 카톡 알림 꺼줘",
        "오늘 이사하는 날이다 카톡 알림 꺼줘",
        "퇴근하고 빨래해요 카톡 알림 꺼줘",
        "월차 썼어요 카톡 알림 꺼줘",
        "오늘 밤샘각 카톡 알림 꺼줘",
        "연휴라서 친구랑 놀래 카톡 알림 꺼줘",
    ],
)
def test_an_opening_statement_is_context(table_mapper, default_index, text) -> None:
    """A short statement before the command, in a formal, polite, plain or slang ending, or after
    a reason clause, is context: the rule is the command's, nothing left to ask about."""
    r = read(table_mapper, text, default_index)
    assert r.mute is True and [m.app.label for m in r.apps] == ["카카오톡"], r
    assert not r.unknown_words and not r.unresolved, r


def test_an_app_in_the_opening_is_still_read(table_mapper, default_index) -> None:
    """An opening that names an app the table knows is not context: "카톡이다" is no remark."""
    r = read(table_mapper, "멜론이다 카톡 알림 꺼줘", default_index)
    assert "멜론" in [m.app.label for m in r.apps], r


def test_a_while_clause_in_는_중(table_mapper, default_index) -> None:
    r = read(table_mapper, "빵 굽는 중 카톡 알림 꺼줘", default_index)
    assert [m.app.label for m in r.apps] == ["카카오톡"] and not r.unknown_words, r


@pytest.mark.parametrize("text", ["카톡 알림 한 시간 가려줘", "알림 깡그리 한 시간 꺼줘"])
def test_hide_and_every(service, text) -> None:
    r = _ask(service, text)
    assert r.ok and r.targetFixed is not None and r.targetFixed.mute is True, r.message


def test_every_word_means_all(service) -> None:
    r = _ask(service, "알림 모조리 한 시간만 꺼")
    assert r.ok and r.targetFixed is not None and r.targetFixed.all is True, r.message


def test_a_keyword_named_with_라고(service) -> None:
    r = _ask(service, "'세일'이라고 붙은 알림 한 시간 꺼줘")
    assert r.ok and r.targetFixed is not None, r.message
    assert r.targetFixed.content == ["세일"] and r.targetFixed.name == []


def test_a_glued_opener_of_a_new_request(service) -> None:
    r = _ask(service, "이것부터할게쿠팡알림한시간꺼", pending=True, pendingOriginal="멜론 알림 꺼 볼까")
    assert r.pendingAction is not None and r.pendingAction.value == "NEW_REQUEST", r
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["쿠팡"], r.message


def test_on_second_thought_an_update(service) -> None:
    r = _ask(
        service, "생각해보니 멜론만 두고 나머지 끄는 게 맞네 한 시간",
        pending=True, pendingOriginal="멜론 알림 꺼 볼까",
    )
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE", r
    assert r.ok and r.targetFixed is not None and r.targetFixed.mute is False, r.message


def test_a_while_clause_with_no_command_is_talk(service) -> None:
    """"두 시간째 넷플 보는 중" says what the user is doing; with no verb of a command it is no rule."""
    r = _ask(service, "두 시간째 넷플 보는 중")
    assert not r.ok and r.targetFixed is None, r
