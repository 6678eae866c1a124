"""The model's app names and the device's labels (issue 12, item 4), the model-mode checks, and
pending turns read by the model one at a time — on the real alias table and the real model."""

from __future__ import annotations

import pytest

from notillm_local.contract.schemas import HandleRequest
from notillm_local.domain import AppMatch, AppRef
from notillm_local.engines.grammars import GrammarSet
from notillm_local.pipeline import Pipeline
from notillm_local.settings import ExtractorMode
from notillm_local.stages.apps import InstalledIndex, Unresolved
from notillm_local.stages.extract import ModelAnswer, SlotExtractor, combine
from notillm_local.stages.slots import RuleSlotReader

NOW = "2026-08-14T21:30:00+09:00"
ENGLISH = InstalledIndex.of([
    AppRef("KakaoTalk", "com.kakao.talk"), AppRef("Messages", "com.samsung.android.messaging"),
    AppRef("왓츠앱", "com.whatsapp"), AppRef("Jira", "com.atlassian.android.jira.core"),
    AppRef("Steam", "com.valvesoftware.android.steam.community"),
])


# --------------------------------------------------------------------------- the alias table


@pytest.mark.parametrize(("word", "label"), [
    ("카톡", "KakaoTalk"),  # by the default catalog's package
    ("문자", "Messages"),
    ("whatsapp", "왓츠앱"),  # the device shows the app in Hangul, the user types it in Latin
    ("WhatsApp", "왓츠앱"),
    ("지라", "Jira"),  # the table's name is Hangul, the device's Latin
    ("스팀", "Steam"),
])
def test_a_device_label_in_another_script_is_the_same_app(table_mapper, word, label) -> None:
    found = table_mapper.lookup(word, ENGLISH)
    assert isinstance(found, AppMatch) and found.app.label == label


def test_an_app_the_device_lacks_is_still_unresolved(table_mapper) -> None:
    found = table_mapper.lookup("텔레그램", ENGLISH)
    assert isinstance(found, Unresolved) and found.known_as == "Telegram"


def test_answer_names_are_the_tables_names_for_the_devices_apps(table_mapper, default_index) -> None:
    names = table_mapper.answer_names(ENGLISH)
    assert names["카카오톡"].label == "KakaoTalk"
    assert names["메시지"].label == "Messages"
    assert names["WhatsApp"].label == "왓츠앱"
    assert names["지라"].label == "Jira"
    assert "Telegram" not in names and "Instagram" not in names  # not on this device
    # On the default catalog every app already shows the table's name: nothing to add.
    assert table_mapper.answer_names(default_index) == {}


def test_apps_grammar_admits_the_tables_names_only_for_installed_apps(local_model, table_mapper) -> None:
    grammar = GrammarSet.load().apps_for([*ENGLISH.labels, *table_mapper.answer_names(ENGLISH)])
    for answer in (" 카카오톡\n", " KakaoTalk\n", " WhatsApp, 메시지\n", " 왓츠앱, 기타\n"):
        assert local_model.accepts(grammar, answer), answer
    for answer in (" Telegram\n", " 인스타그램\n", " Instagram\n"):
        assert not local_model.accepts(grammar, answer), answer


# --------------------------------------------------------------------------- combine


def _reading(reader: RuleSlotReader, text: str, installed: InstalledIndex):
    return reader.read(text, installed)


def test_model_names_map_to_the_devices_app(table_mapper) -> None:
    reader = RuleSlotReader(table_mapper)
    r = _reading(reader, "카톡이랑 왓츠앱 꺼줘", ENGLISH)
    said = ModelAnswer(intent="끄기", apps=("카카오톡", "WhatsApp"), keywords=())
    out, how = combine(r, said, ENGLISH, full=True, names=table_mapper.answer_names(ENGLISH))
    assert [m.app.label for m in out.apps] == ["KakaoTalk", "왓츠앱"] and how == "model"
    assert out.unresolved == ()


def test_model_mode_does_not_take_an_app_no_word_accounts_for(table_mapper, default_index) -> None:
    """"카카오톸" read by code as 카카오톡; the model names 카카오페이지: never a rule with it. Code's
    reading (one jamo off a single app) accounts for the word, so the rule is 카카오톡; a word
    code could not place is asked about instead."""
    reader = RuleSlotReader(table_mapper)
    prompt = "카카오톸 알림 꺼줘"
    r = _reading(reader, prompt, default_index)
    assert [m.app.label for m in r.apps] == ["카카오톡"]
    extractor = SlotExtractor(reader, None, GrammarSet.load(), ExtractorMode.RULES)
    said = ModelAnswer(intent="끄기", apps=("카카오페이지",), keywords=())
    out, how = combine(r, said, default_index, full=True,
                       mentioned=lambda a: extractor.mentions(prompt, a, r, default_index))
    assert [m.app.label for m in out.apps] == ["카카오톡"] and how == "code-kept"
    assert out.unresolved == ()
    prompt = "뿌까톡 알림 꺼줘"
    r = _reading(reader, prompt, default_index)
    assert r.apps == ()
    out, how = combine(r, said, default_index, full=True,
                       mentioned=lambda a: extractor.mentions(prompt, a, r, default_index))
    assert out.apps == () and how == "asked"
    assert [u.word for u in out.unresolved] == ["뿌까톡"]  # the user's word, never "기타"


def test_model_mode_other_app_is_the_app_code_read_by_the_table(table_mapper, default_index) -> None:
    """A "기타" where code read a device's app by the table is that app (natural_e: the model
    answered 기타 for a device's own apps it never saw, Trello and 영웅문S#)."""
    reader = RuleSlotReader(table_mapper)
    r = _reading(reader, "문자 알림 받지마", default_index)
    said = ModelAnswer(intent="끄기", apps=("기타",), keywords=())
    out, how = combine(r, said, default_index, full=True)
    assert [m.app.label for m in out.apps] == ["메시지"] and out.unresolved == ()
    assert how == "code-kept"
    # A word code could not place stays a question.
    r = _reading(reader, "뿌까톡 알림 받지마", default_index)
    out, how = combine(r, said, default_index, full=True)
    assert out.apps == () and [u.word for u in out.unresolved] == ["뿌까톡"] and how == "asked"


def test_model_mode_keeps_an_app_the_model_left_out(table_mapper, default_index) -> None:
    """"슬랙 팀즈 줌 꺼줘" answered with two of the three: the table read the third exactly, and
    the reading that accounts for every word the user wrote is the rule."""
    reader = RuleSlotReader(table_mapper)
    r = _reading(reader, "슬랙 팀즈 줌 꺼줘", default_index)
    said = ModelAnswer(intent="끄기", apps=("Slack", "Zoom"), keywords=())
    out, how = combine(r, said, default_index, full=True)
    assert [m.app.label for m in out.apps] == ["Slack", "Microsoft Teams", "Zoom"]  # user's order
    assert out.unresolved == () and how == "code-kept"
    # A topic word the model made a keyword is accounted for: it is not added as an app.
    r = _reading(reader, "일정 알림 꺼줘", default_index)
    out, how = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=("일정",)), default_index,
                       full=True)
    assert out.apps == () and out.content == ("일정",) and how == "model"
    # An app's name that is no topic stays the app the table reads ("웹툰" is 네이버 웹툰): a
    # keyword of it would silence every app's notifications that mention it.
    r = _reading(reader, "웹툰 알림 꺼줘", default_index)
    out, how = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=("웹툰",)), default_index,
                       full=True)
    assert [m.app.label for m in out.apps] == ["네이버 웹툰"] and out.content == ()


@pytest.mark.parametrize("prompt", ["전화말고는다꺼 1시간", "카카오택시 빼고 다 꺼줘 30분"])
def test_model_mode_all_but_keeps_codes_flipped_verb(table_mapper, default_index, prompt) -> None:
    """"X 말고 다 꺼": only X gets through. A model that answers "mute X" read the verb alone
    (natural_e's first run, two wrong rules)."""
    reader = RuleSlotReader(table_mapper)
    r = _reading(reader, prompt, default_index)
    assert r.all_but and r.mute is False
    app = r.apps[0].app.label
    out, _ = combine(r, ModelAnswer(intent="끄기", apps=(app,), keywords=()), default_index,
                     full=True)
    assert out.mute is False and [m.app.label for m in out.apps] == [app]
    out, _ = combine(r, ModelAnswer(intent="끄기", apps=(), keywords=()), default_index, full=True)
    assert out.mute is False and [m.app.label for m in out.apps] == [app]


@pytest.mark.parametrize("full", [True, False])
def test_a_keyword_one_letter_off_an_app_is_asked(table_mapper, default_index, full) -> None:
    """"너션알림": the model made 너션 (노션 misspelt) a keyword — a rule over every app. It is a
    question instead, in both modes; a topic word close to an app name stays a keyword."""
    reader = RuleSlotReader(table_mapper)
    r = _reading(reader, "너션알림 꺼주ㅓ", default_index)
    resembles = lambda w: table_mapper.resembles_app(w, default_index)  # noqa: E731
    said = ModelAnswer(intent="끄기", apps=(), keywords=("너션",))
    out, how = combine(r, said, default_index, full=full, resembles_app=resembles)
    assert out.content == () and [u.word for u in out.unresolved] == ["너션"] and how == "asked"
    assert table_mapper.resembles_app("너션", default_index)
    assert not table_mapper.resembles_app("세일", default_index)  # a topic word
    assert not table_mapper.resembles_app("노션", default_index)  # the app itself
    assert not table_mapper.resembles_app("배달", default_index)


def test_model_mode_code_overrules_what_it_read_exactly(table_mapper, default_index) -> None:
    """The written policy (docs/decisions.md): where code read a slot from the prompt's own
    words, a model answer that ignores those words is overruled — found on natural_e and the
    earlier sets, each a wrong rule before."""
    reader = RuleSlotReader(table_mapper)

    def run(prompt: str, said: ModelAnswer, **kw):
        r = _reading(reader, prompt, default_index)
        return combine(r, said, default_index, full=True, **kw)

    # A misspelt name read one jamo off a single app is kept like a table word.
    out, how = run("카카오토 인스타 페북 꺼줘",
                   ModelAnswer(intent="끄기", apps=("Instagram", "Facebook"), keywords=()))
    assert [m.app.label for m in out.apps] == ["카카오톡", "Instagram", "Facebook"]
    assert how == "code-kept"
    # An app the user kept out never enters the rule.
    out, _ = run("스포티파이는 냅둬 유튜브뮤직 멜론 꺼",
                 ModelAnswer(intent="끄기", apps=("Spotify", "YouTube Music", "멜론"), keywords=()))
    assert [m.app.label for m in out.apps] == ["YouTube Music", "멜론"]
    # A sure verb wins over the model's opposite intent.
    out, how = run("팀즈만알림오게해줘",
                   ModelAnswer(intent="끄기", apps=("Microsoft Teams",), keywords=()))
    assert out.mute is False and how == "code-kept"
    # A quoted keyword is not cut short.
    out, _ = run("지메일에서 '뉴스레터' 들어간 알림 꺼줘",
                 ModelAnswer(intent="끄기", apps=("Gmail",), keywords=("뉴스",)))
    assert out.content == ("뉴스레터",)
    # A word code read as context is no keyword.
    out, _ = run("거래 기다리는 중이라 당근 빼고 다 꺼줘",
                 ModelAnswer(intent="끄기", apps=("당근",), keywords=("거래",)),
                 context_words=frozenset({"거래"}))
    assert out.content == () and out.mute is False
    # An unplaced word that looks like an app's name is asked about, never dropped.
    resembles = lambda w: table_mapper.resembles_app(w, default_index)  # noqa: E731
    out, how = run("스랙 꺼줘", ModelAnswer(intent="끄기", apps=(), keywords=()),
                   resembles_app=resembles)
    assert [u.word for u in out.unresolved] == ["스랙"] and how == "asked"
    # So is one the embeddings clearly take for an installed app ("부킹닷컴" on a travel device).
    out, how = run("부킹닷컴 아고다 꺼줘", ModelAnswer(intent="끄기", apps=(), keywords=()),
                   plausible=lambda w, i: [AppRef("Booking.com", "com.booking")] if w == "부킹닷컴" else [])
    assert "부킹닷컴" in [u.word for u in out.unresolved] and how == "asked"
    # ... unless the model's app accounts for it.
    out, how = run("스랙 꺼줘", ModelAnswer(intent="끄기", apps=("Slack",), keywords=()),
                   resembles_app=resembles, mentioned=lambda a: True,
                   accounts_for=lambda w, a: table_mapper.resembles_name_of(w, a, default_index))
    assert [m.app.label for m in out.apps] == ["Slack"] and out.unresolved == ()


def test_a_spare_other_app_with_no_word_is_no_question(table_mapper, default_index) -> None:
    reader = RuleSlotReader(table_mapper)
    r = _reading(reader, "슬랙 꺼줘", default_index)
    out, _ = combine(r, ModelAnswer(intent="끄기", apps=("Slack", "기타"), keywords=()),
                     default_index, full=True)
    assert [m.app.label for m in out.apps] == ["Slack"] and out.unresolved == ()


def test_mentions_by_label_alias_or_code(table_mapper) -> None:
    reader = RuleSlotReader(table_mapper)
    extractor = SlotExtractor(reader, None, GrammarSet.load(), ExtractorMode.RULES)
    kakao = AppRef("KakaoTalk", "com.kakao.talk")
    steam = AppRef("Steam", "com.valvesoftware.android.steam.community")
    jira = AppRef("Jira", "com.atlassian.android.jira.core")
    empty = _reading(reader, "꺼줘", ENGLISH)
    assert extractor.mentions("카톡알림꺼줘", kakao, empty, ENGLISH)  # an alias, glued
    assert extractor.mentions("steam 알림 mute", steam, empty, ENGLISH)  # the label
    assert extractor.mentions("지라알림꺼줘", jira, empty, ENGLISH)  # the table's name for it
    assert not extractor.mentions("지라알림꺼줘", steam, empty, ENGLISH)


# --------------------------------------------------------------------------- model mode, real model


@pytest.fixture(scope="module")
def model_pipeline(local_model, table_mapper, catalog) -> Pipeline:
    extractor = SlotExtractor(
        RuleSlotReader(table_mapper), local_model, GrammarSet.load(), ExtractorMode.MODEL
    )
    return Pipeline(extractor=extractor, default_apps=catalog, gate=None, hosted=None,
                    model_id=local_model.model_id, deadline_s=30, queue_size=4)


def test_model_mode_reads_each_pending_turn_on_its_own(model_pipeline) -> None:
    """The earlier command and the answer are read by the model one at a time, each with its
    own time spans blanked: a time word of the answer is never a keyword."""
    r = model_pipeline.handle(HandleRequest(
        prompt="3시간동안", currentTime=NOW, pending=True, pendingOriginal="'광고'들어간알림막아줘",
    ))
    assert r.pendingAction is not None and r.pendingAction.value == "CONTINUE"
    assert r.meta.llmCalls == 2
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.content == ["광고"]
    assert r.condition is not None and r.condition.expires == "2026-08-15T00:30:00+09:00"


@pytest.mark.parametrize(("prompt", "labels"), [
    ("카톡이랑왓츠앱알림한시간꺼줘", ["KakaoTalk", "왓츠앱"]),
    ("문자 알림 1시간 꺼줘", ["Messages"]),  # the model says 메시지; the device says Messages
    ("whatsapp 1시간 꺼줘", ["왓츠앱"]),
])
def test_model_mode_answers_a_device_in_another_script(model_pipeline, prompt, labels) -> None:
    """The shipped adapter names each app by the table's name; the device's own labels come out."""
    from notillm_local.contract.schemas import InstalledApp

    apps = [InstalledApp(name=a.label, packageName=a.package) for a in ENGLISH.apps]
    r = model_pipeline.handle(HandleRequest(prompt=prompt, currentTime=NOW, installedApps=apps))
    assert r.meta.llmCalls == 1
    assert r.ok, r.message
    assert r.targetFixed is not None and r.targetFixed.name == labels


def test_a_glued_run_naming_two_apps_never_drops_one(service) -> None:
    """"쿠팡잇츠배민알림": code cannot split the misspelt run; whatever the model names for it,
    the answer never mutes 쿠팡이츠 alone (natural_c's first run did: a wrong rule)."""
    r = service.handle(HandleRequest(prompt="쿠팡잇츠배민알림9시까지막아줘",
                                     currentTime="2027-02-02T19:30:00+09:00"))
    if r.ok:
        assert r.targetFixed is not None
        assert set(r.targetFixed.name) == {"쿠팡이츠", "배달의민족"}, r.targetFixed.name
    else:
        assert r.failReason is not None and r.failReason.value == "app_unresolved"


def test_apps_inside_a_run_longest_name_first(table_mapper, default_index) -> None:
    found = table_mapper.apps_inside("쿠팡잇츠배민알림", default_index)
    assert [(f.word, f.app.label) for f in found if isinstance(f, AppMatch)] == [
        ("쿠팡", "쿠팡"), ("배민", "배달의민족")]
    # "네이버웹툰" is one app, not 네이버 and 웹툰.
    assert [f.word for f in table_mapper.apps_inside("네이버웹툰알림", default_index)] == ["네이버웹툰"]
    # A known app the device lacks is reported as such, to be asked about.
    assert [type(f).__name__ for f in table_mapper.apps_inside("라인알림", default_index)] == [
        "Unresolved"]
