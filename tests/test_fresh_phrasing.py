"""Reading natural_i's kinds of phrasing (issue 12, fifth fresh set): exceptions whose verb turns
round only once every word is placed, names by the letters' sound ("카카오티"), by a label's
last words ("채널관리자") and by loanword sound rules ("라이트룸", "비핸스"), verbs and keep
markers people type ("허락하고", "건들지 말고", "열어두고"), "반 시간", conflicts joined by
"-면서", and follow-up openers — on the real alias table, the real reader and the real service
(real GGUF, real ONNX)."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import InstalledIndex, Unresolved, letters_spelt
from notillm_local.stages.extract import ModelAnswer, combine
from notillm_local.stages.pending import replaces
from notillm_local.stages.sound import latin_skeleton, sounds_alike
from notillm_local.stages.timeparse import TimeOutcome, parse_time
from tests.phrasing import ask, read

NOW = "2032-03-10T13:45:00+09:00"
DESIGNER = InstalledIndex.of([
    AppRef("Figma", "com.figma.mirror"), AppRef("Canva", "com.canva.editor"),
    AppRef("Behance", "com.behance.behance"), AppRef("Lightroom", "com.adobe.lrmobile"),
    AppRef("Pinterest", "com.pinterest"), AppRef("Dropbox", "com.dropbox.android"),
    AppRef("KakaoTalk", "com.kakao.talk"), AppRef("Instagram", "com.instagram.android"),
])
SHOP = InstalledIndex.of([
    AppRef("카카오톡 채널 관리자", "com.kakao.yellowid"), AppRef("쿠팡이츠", "com.coupang.mobile.eats"),
    AppRef("요기요", "com.fineapp.yogiyo"), AppRef("카카오톡", "com.kakao.talk"),
    AppRef("Google 클래스룸", "com.google.android.apps.classroom"),
    AppRef("삼성 인터넷", "com.sec.android.app.sbrowser"),
])
FOREIGN = InstalledIndex.of([
    AppRef("Zalo", "com.zing.zalo"), AppRef("Messenger", "com.facebook.orca"),
    AppRef("KakaoTalk", "com.kakao.talk"), AppRef("Shopee", "com.shopee.vn"),
])


def _ask(service, prompt: str, installed: InstalledIndex | None = None, **kw):
    return ask(service, prompt, NOW, installed, **kw)


# --------------------------------------------------------------------------- exceptions


def test_the_exception_turns_the_verb_round_after_the_model_placed_the_other_words(
    table_mapper, default_index
) -> None:
    """"지메일 빼고 다 꺼주세엽": code waits with the turn of the verb while a word is unread; once
    the model has placed it nowhere, only the kept app gets through (it had muted everything)."""
    r = read(table_mapper, "지메일 빼고 다 꺼주세욥욥", default_index)
    assert r.kept and r.mute is True and r.unknown_words, r
    said = ModelAnswer(intent=None, apps=(), keywords=())
    out, _ = combine(r, said, default_index, full=False)
    assert out.mute is False and [m.app.label for m in out.apps] == ["Gmail"]
    # Model mode: the model said 허용 Gmail; code's sure verb and the kept app stand, turned round.
    said = ModelAnswer(intent="허용", apps=("Gmail",), keywords=())
    out, _ = combine(r, said, default_index, full=True)
    assert out.mute is False and [m.app.label for m in out.apps] == ["Gmail"]
    # Something else named: the kept app is left out, the verb stays ("X 빼고 Y 꺼줘").
    said = ModelAnswer(intent="끄기", apps=("YouTube",), keywords=())
    out, _ = combine(r, said, default_index, full=True)
    assert out.mute is True and [m.app.label for m in out.apps] == ["YouTube"]


def test_a_kept_app_that_is_not_installed_is_asked_about_not_silenced(
    table_mapper, default_index
) -> None:
    r = read(table_mapper, "라인 빼고 다 꺼주세욥욥", default_index)
    out, _ = combine(r, ModelAnswer(apps=(), keywords=()), default_index, full=False)
    assert [u.word for u in out.unresolved] == ["라인"] and not out.apps


@pytest.mark.parametrize(("text", "kept"), [
    ("카톡은건들지말고인스타페북만꺼줘", ["카카오톡"]),
    ("쿠팡앱하나만열어두고나머지다막아", ["쿠팡"]),
])
def test_keep_markers_people_type(table_mapper, default_index, text, kept) -> None:
    r = read(table_mapper, text, default_index)
    if r.all_but:  # "X 하나만 열어두고 나머지 다": only X gets through
        assert r.mute is False and [m.app.label for m in r.apps] == kept
    else:
        assert [a.label for a in r.kept_out] == kept and r.mute is True
        assert "카카오톡" not in [m.app.label for m in r.apps]
    assert not r.unknown_words, r.unknown_words


def test_every_app_before_the_exception_is_kept_out_when_one_was_read_late(table_mapper) -> None:
    """"쿠팡이츠 요기요 채널관리자 빼고 다": the last name is found only after the table's names; the
    walk back from 빼고 had stopped at it and left the other two muted."""
    r = read(table_mapper, "쿠팡이츠 요기요 채널관리자 빼고 다 꺼줘", SHOP)
    assert r.mute is False and r.all_but
    assert [m.app.label for m in r.apps] == ["쿠팡이츠", "요기요", "카카오톡 채널 관리자"]


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(("key", "spelt"), [
    ("카카오t", "카카오티"), ("kb스타", "케이비스타"), ("g메일", "지메일"), ("sms", "에스엠에스"),
    ("tmap", None), ("카톡", None),
])
def test_short_latin_parts_are_spelt_as_korean_says_the_letters(key, spelt) -> None:
    assert letters_spelt(key) == spelt


def test_app_names_said_by_their_letters(table_mapper, default_index) -> None:
    found = table_mapper.resolve("카카오티", default_index)
    assert isinstance(found, AppMatch) and found.app.label == "카카오 T"
    # A spelt name takes no part in misspellings: "카카오토" is still 카카오톡, not 카카오 T.
    found = table_mapper.resolve("카카오토", default_index)
    assert isinstance(found, AppMatch) and found.app.label == "카카오톡"


@pytest.mark.parametrize(("hangul", "latin"), [("라이트룸", "Lightroom"), ("비핸스", "Behance")])
def test_loanword_sound_rules_for_gh_and_h_between_vowels(hangul, latin) -> None:
    assert sounds_alike(hangul, latin)
    assert latin_skeleton("John") == "SN"  # an h after a vowel and before a consonant is not said


def test_a_vowel_that_sounds_the_same_is_the_same_name(table_mapper, default_index) -> None:
    found = table_mapper.resolve("벤드", default_index)
    assert isinstance(found, AppMatch) and found.app.label == "밴드" and found.method == "fuzzy"
    # Another vowel is another word: "문제" is not 문자.
    assert table_mapper.resolve("문제", default_index) is None


def test_a_label_named_without_its_brand(table_mapper) -> None:
    for word, label in [("채널관리자", "카카오톡 채널 관리자"), ("클래스룸", "Google 클래스룸")]:
        found = table_mapper.lookup(word, SHOP)
        assert isinstance(found, AppMatch) and found.app.label == label, word
    # Ordinary words are no names ("관리자"), nor a part two labels end with.
    assert table_mapper.lookup("관리자", SHOP) is None
    twins = InstalledIndex.of([*SHOP.apps, AppRef("네이버 클래스룸", "x.classroom")])
    assert table_mapper.lookup("클래스룸", twins) is None


def test_a_name_with_a_copula_is_still_a_name(table_mapper, default_index) -> None:
    """"디코였어": the copula made it read as a verb, and the word was dropped (mute everything)."""
    r = read(table_mapper, "디코였어 두시간 꺼줘", default_index)
    assert [m.app.label for m in r.apps] == ["Discord"]


def test_a_sleep_word_does_not_swallow_an_app_name(table_mapper) -> None:
    r = read(table_mapper, "잘로랑 페메 알림 꺼주세요", FOREIGN)
    assert [m.app.label for m in r.apps] == ["Zalo", "Messenger"] and not r.unknown_words
    r = read(table_mapper, "일찍 잘래 카톡 꺼줘", FOREIGN)
    assert [m.app.label for m in r.apps] == ["KakaoTalk"] and not r.unknown_words


# --------------------------------------------------------------------------- model mode


def test_model_mode_keeps_an_app_name_the_model_made_a_keyword(table_mapper) -> None:
    r = read(table_mapper, "쇼피 알림 꺼줘요", FOREIGN)
    out, _ = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=("쇼피",)), FOREIGN, full=True)
    assert [m.app.label for m in out.apps] == ["Shopee"] and out.content == ()


def test_model_mode_asks_rather_than_silence_everything(table_mapper, default_index) -> None:
    """The model answered "all" for "바이버 알림 꺼줘": the user never said all, and the word it
    dropped stands where a target does."""
    r = read(table_mapper, "바이버 알림 꺼주세요", default_index)
    assert r.unknown_words == ("바이버",) and not r.says_all
    out, how = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=()), default_index,
                       full=True)
    assert [u.word for u in out.unresolved] == ["바이버"] and how == "asked"
    assert all(isinstance(u, Unresolved) for u in out.unresolved)


# --------------------------------------------------------------------------- verbs, clauses


@pytest.mark.parametrize(("text", "mute"), [
    ("스포티파이 알림만 허락하고 나머진 꺼", False),
    ("카톡 알림 좀 재워줘", True),
    ("토스카뱅알림꺼주라궁", True),
])
def test_verbs_and_endings_people_type(table_mapper, default_index, text, mute) -> None:
    r = read(table_mapper, text, default_index)
    assert r.mute is mute and not r.unknown_words, (text, r.unknown_words)


@pytest.mark.parametrize("text", [
    "넷플 알림 2시간 차단하면서 넷플만 허용해줘",
    "유튜브 알림 무음으로 하고 유튜브 알림 소리 나게 해줘 1시간",
])
def test_one_app_silenced_and_let_through_in_one_breath_is_a_conflict(service, text) -> None:
    r = _ask(service, text)
    assert not r.ok and r.failReason is not None and r.failReason.value == "conflict"


def test_a_clause_about_what_the_user_did_is_talk(service) -> None:
    r = _ask(service, "인스타릴스보다가한시간순삭ㅋㅋ")
    assert not r.ok and r.failReason is not None and r.failReason.value == "chitchat"
    # "-면서" on a verb of no intent is still a reason: the command stands.
    r = _ask(service, "운전하면서 카톡 알림 1시간 꺼줘")
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["카카오톡"]


# --------------------------------------------------------------------------- time


@pytest.mark.parametrize("text", ["반 시간만 카톡 꺼줘", "인스터알림반시간만꺼줘"])
def test_half_an_hour_said_first(text) -> None:
    now = datetime.fromisoformat(NOW)
    r = parse_time(text, now)
    assert r.outcome is TimeOutcome.OK and r.condition is not None
    assert (r.condition.expires - now).total_seconds() == 1800
    # "절반" (a half of something) is another word.
    assert parse_time("절반 시간 동안 카톡", now).outcome is TimeOutcome.NO_TIME


def test_a_quarter_is_a_time_we_cannot_read(service) -> None:
    r = _ask(service, "다음 분기 첫 주까지 슬랙 알림 꺼")
    assert not r.ok and r.failReason is not None and r.failReason.value == "incomplete"


# --------------------------------------------------------------------------- follow-ups


@pytest.mark.parametrize(("text", "changes"), [
    ("아니 카톡 말고 슬랙", True),
    ("거꾸로! 인스타만 오게 하고 나머진 다 꺼", True),
    ("일단그거말고급한거정오까지문자빼고다막아", False),  # sets the earlier command aside
    ("전화 빼고 다 꺼줘 15분", False),  # an exception inside a command of its own
])
def test_which_follow_ups_change_the_earlier_command(text, changes) -> None:
    assert replaces(text) is changes


def test_a_follow_up_that_sets_the_earlier_command_aside(service) -> None:
    r = _ask(service, "일단그거말고급한거정오까지문자빼고다막아", pending=True,
             pendingOriginal="에브리타임 알림 좀 꺼볼까")
    assert r.ok, r.message
    assert r.pendingAction is not None and r.pendingAction.value == "NEW_REQUEST"
    assert r.targetFixed is not None and r.targetFixed.mute is False
    assert r.targetFixed.name == ["메시지"]


def test_a_correction_with_a_copula(service) -> None:
    r = _ask(service, "카톡이아니라디코였다두시간", pending=True,
             pendingOriginal="카톡 알림 꺼주실 수 있나요")
    assert r.ok, r.message
    assert r.pendingAction is not None and r.pendingAction.value == "UPDATE"
    assert r.targetFixed is not None and r.targetFixed.name == ["Discord"]


def test_a_designer_device_by_sound_and_part(service) -> None:
    r = _ask(service, "카톡은 두고 드롭박스 라이트룸 캔바 알림만 50분 꺼", DESIGNER)
    assert r.ok, r.message
    assert r.targetFixed is not None
    assert r.targetFixed.name == ["Dropbox", "Lightroom", "Canva"]


# --------------------------------------------------------------------------- and from the older sets


def test_a_misspelling_of_the_devices_own_label(table_mapper) -> None:
    """No table lists every app: a typo of the device's own Korean label is that app."""
    family = InstalledIndex.of([AppRef("클래스팅", "com.classting"), AppRef("아이쉐어링", "com.isharing.isharing"),
                                AppRef("카카오톡", "com.kakao.talk")])
    for word, label in [("클레스팅", "클래스팅"), ("아이셰어링", "아이쉐어링")]:
        found = table_mapper.resolve(word, family)
        assert isinstance(found, AppMatch) and found.app.label == label and found.method == "fuzzy"


def test_a_time_word_inside_a_misspelt_app_name_is_no_time(service) -> None:
    """"지매일": 지메일 with a vowel that sounds the same, not 지 + 매일 ("every day")."""
    r = _ask(service, "낮 3시까지 지매일 링크드잉 꺼줘")
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == ["Gmail", "LinkedIn"]
    assert r.condition is not None and r.condition.recurrence == "none"
    # Glued to an app's name the time word stays a time.
    r = _ask(service, "카톡매일밤10시부터11시까지꺼줘")
    assert r.ok and r.condition is not None and r.condition.recurrence == "daily"


def test_apps_known_elsewhere_by_their_packages(table_mapper) -> None:
    device = InstalledIndex.of([AppRef("支付宝", "com.eg.android.AlipayGphone"),
                                AppRef("Messenger", "com.facebook.orca"),
                                AppRef("PayPay", "jp.ne.paypay.android.app")])
    for word, label in [("알리페이", "支付宝"), ("페메", "Messenger"), ("페이페이", "PayPay")]:
        found = table_mapper.lookup(word, device)
        assert isinstance(found, AppMatch) and found.app.label == label, word
    # Not installed: asked about, never guessed.
    assert isinstance(table_mapper.lookup("페메", InstalledIndex.of([])), Unresolved)


@pytest.mark.parametrize(("original", "text", "action"), [
    ("유튜브 알림 좀 꺼볼까", "아니다 유튜브만 받고 다 꺼줘 한시간", "UPDATE"),  # the same app reversed
    ("카톡 알림 꺼줘요", "아 카톡만 받고 나머지 다 끄는 걸로 40분", "UPDATE"),
    ("밴드 알림 좀 꺼", "그건 신경 쓰지 말고 인스타 페북 알림 1시간 꺼줘", "NEW_REQUEST"),
    ("알림 싹 다 꺼줘", "캔슬캔슬", "CANCEL"),
])
def test_follow_up_actions(service, original, text, action) -> None:
    r = _ask(service, text, pending=True, pendingOriginal=original)
    assert r.pendingAction is not None and r.pendingAction.value == action, r.message
    if action != "CANCEL":
        assert r.ok, r.message


def test_a_word_ending_in_da_is_no_everything(table_mapper, default_index) -> None:
    """"아니다 유튜브만 받고 다 꺼줘": the 다 of 아니다 is no second "all" (it read as a conflict)."""
    r = read(table_mapper, "아니다 유튜브만 받고 다 꺼줘", default_index)
    assert not r.contradicts and r.mute is False and [m.app.label for m in r.apps] == ["YouTube"]


def test_a_verb_left_on_is_no_keep_marker(table_mapper, default_index) -> None:
    r = read(table_mapper, "전화만 on 해두고 나머지는 silent", default_index)
    assert r.mute is False and [m.app.label for m in r.apps] == ["전화"]


def test_a_name_cut_short_is_the_one_app_it_opens(table_mapper) -> None:
    jobs = InstalledIndex.of([AppRef("잡코리아", "com.jobkorea.app"), AppRef("사람인", "kr.co.saramin.brandapp"),
                              AppRef("원티드", "com.wanted.android.wanted")])
    found = table_mapper.resolve("잡코", jobs)
    assert isinstance(found, AppMatch) and found.app.label == "잡코리아" and found.method == "clipped"
    # Two apps open the same way: neither.
    twins = InstalledIndex.of([*jobs.apps, AppRef("잡코인마켓", "x.y")])
    assert table_mapper.clipped("잡코", twins) is None
    # One syllable short is no cut ("사람" is a word, 사람인 one syllable longer).
    assert table_mapper.clipped("사람", jobs) is None


def test_model_mode_asks_about_a_listed_word_the_model_left_out(table_mapper, default_index) -> None:
    r = read(table_mapper, "카톡 뿌잉 인스타 알림 꺼줘", default_index)
    assert r.unknown_words == ("뿌잉",) and "뿌잉" not in r.loose_words
    said = ModelAnswer(intent="끄기", apps=("카카오톡", "Instagram"), keywords=())
    out, how = combine(r, said, default_index, full=True)
    assert [u.word for u in out.unresolved] == ["뿌잉"] and how == "asked"


def test_default_mode_places_a_glued_run_the_model_and_the_table_both_account_for(
    table_mapper, default_index
) -> None:
    """"회의라카톡팀즈": code cannot split the run (the clause's 라 is glued to it); the model
    names 카카오톡 and Teams, the table finds both names whole inside the run, one syllable over —
    both readings agree, so the default mode answers as model mode does instead of asking."""
    r = read(table_mapper, "회의라카톡팀즈꺼줘", default_index)
    assert r.unknown_words and not r.apps
    inside = lambda w: table_mapper.apps_inside(w, default_index)  # noqa: E731
    both = ModelAnswer(intent=None, apps=("카카오톡", "Microsoft Teams"), keywords=())
    out, how = combine(r, both, default_index, full=False, apps_in=inside)
    assert [m.app.label for m in out.apps] == ["카카오톡", "Microsoft Teams"]
    assert not out.unresolved and how == "filled"
    # The model naming one of the two does not account for the run: the answer asks.
    one = ModelAnswer(intent=None, apps=("카카오톡",), keywords=())
    out, how = combine(r, one, default_index, full=False, apps_in=inside)
    assert out.unresolved and how == "asked"
