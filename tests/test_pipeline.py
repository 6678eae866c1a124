"""The whole pipeline on the real models: the contract's worked cases and its promises."""

from __future__ import annotations

from datetime import datetime

import pytest

from notillm_local.contract.schemas import HandleRequest
from notillm_local.engines.grammars import GrammarSet
from notillm_local.eval.scoring import extract_rule_correctness, route_correctness
from notillm_local.pipeline import Pipeline
from notillm_local.settings import ExtractorMode
from notillm_local.stages.extract import SlotExtractor
from notillm_local.stages.slots import RuleSlotReader

from .conftest import EXAMPLES as EXAMPLES_PATH
from .conftest import load_jsonl

EXAMPLES = load_jsonl(EXAMPLES_PATH)
NOW = "2026-08-14T21:30:00+09:00"


def ask(service, prompt: str, now: str = NOW, **kw):
    return service.handle(HandleRequest(prompt=prompt, currentTime=now, **kw))


@pytest.mark.parametrize("case", EXAMPLES, ids=[c["id"] for c in EXAMPLES])
def test_contract_examples(service, case) -> None:
    resp = service.handle(HandleRequest(**case["input"]))
    score, diffs = extract_rule_correctness(case["expected"], resp)
    assert score == 1, diffs
    assert route_correctness(case["expected"], resp, case["input"])[0] == 1


def test_sure_commands_cost_no_model_call(service) -> None:
    r = ask(service, "지금부터 2시간 카톡 알림 받지마")
    assert r.ok and r.meta.llmCalls == 0 and r.meta.engine == "local"
    assert r.message.startswith("23:30까지")


def test_unsure_intent_goes_to_the_model_under_its_grammar(service) -> None:
    r = ask(service, "카톡 2시간")
    assert r.meta.llmCalls == 1
    # The grammar allows only the two intents, so any answer is a well-formed rule.
    assert r.ok and r.targetFixed is not None and r.targetFixed.name == ["카카오톡"]
    assert r.targetFixed.mute in (True, False)


def test_no_time_asks_instead_of_guessing(service) -> None:
    r = ask(service, "카톡 알림 꺼줘")
    assert not r.ok and r.failReason.value == "incomplete" and r.needsSupplement
    assert r.targetFixed is None and r.condition is None
    assert "얼마" in r.message


def test_words_that_ask_for_no_rule_get_no_rule(service) -> None:
    for text in ("오늘 날씨 어때?", "고마워", "ㅋㅋㅋㅋ"):
        r = ask(service, text)
        assert not r.ok and r.dialogIntent.value == "reject", text
        assert r.meta.llmCalls == 0


def test_answers_use_the_requests_offset(service) -> None:
    r = ask(service, "30분 동안 카톡 꺼줘", now="2026-03-01T08:00:00-05:00")
    assert r.condition is not None
    assert r.condition.delivery == "2026-03-01T08:00:00-05:00"
    assert r.condition.expires == "2026-03-01T08:30:00-05:00"


def test_installed_apps_of_the_request_replace_the_catalog(service) -> None:
    from notillm_local.contract.schemas import InstalledApp

    apps = [InstalledApp(name="Slack", packageName="com.Slack")]
    r = ask(service, "1시간 카톡 꺼줘", installedApps=apps)
    assert not r.ok and r.failReason.value == "app_unresolved"
    r = ask(service, "1시간 슬랙 꺼줘", installedApps=apps)
    assert r.ok and r.targetFixed.packages == ["com.Slack"]


def test_end_before_start_is_invalid_time(service) -> None:
    r = ask(service, "오늘 오후 5시부터 오후 3시까지 카톡 꺼줘", now="2026-08-14T10:00:00+09:00")
    assert not r.ok and r.failReason.value == "invalid_time"


def test_pending_continue_update_cancel(service) -> None:
    now = "2026-08-15T09:00:00+09:00"
    r = ask(service, "1시간", now=now, pending=True, pendingOriginal="카톡만 받아줘")
    assert r.ok and r.pendingAction.value == "CONTINUE" and r.dialogIntent.value == "pending"
    r = ask(service, "아니 카톡 말고 슬랙", now=now, pending=True,
            pendingOriginal="1시간 동안 카톡 꺼줘")
    assert r.ok and r.pendingAction.value == "UPDATE"
    assert r.targetFixed.name == ["Slack"] and r.targetFixed.mute is True
    r = ask(service, "아 취소", now=now, pending=True, pendingOriginal="카톡만 받아줘")
    assert r.pendingAction.value == "CANCEL" and r.failReason.value == "cancelled"
    r = ask(service, "음...", now=now, pending=True, pendingOriginal="카톡만 받아줘")
    assert r.pendingAction.value == "UNRESOLVED" and r.needsSupplement


def test_model_mode_fills_every_slot_within_the_grammar(local_model, table_mapper, catalog) -> None:
    """Extractor mode `model`: the model names the apps, and only installed labels come out."""
    extractor = SlotExtractor(
        RuleSlotReader(table_mapper), local_model, GrammarSet.load(), ExtractorMode.MODEL
    )
    pipe = Pipeline(extractor=extractor, default_apps=catalog, gate=None, hosted=None,
                    model_id=local_model.model_id, deadline_s=30, queue_size=4)
    r = pipe.handle(HandleRequest(prompt="1시간 동안 인스타 알림 꺼줘", currentTime=NOW))
    assert r.meta.llmCalls == 1
    labels = {a.label for a in catalog}
    if r.ok:
        assert set(r.targetFixed.name) <= labels
        assert r.condition.expires == "2026-08-14T22:30:00+09:00"


def test_rules_mode_never_calls_the_model(table_mapper, catalog) -> None:
    extractor = SlotExtractor(RuleSlotReader(table_mapper), None, GrammarSet.load(),
                              ExtractorMode.RULES)
    pipe = Pipeline(extractor=extractor, default_apps=catalog, gate=None, hosted=None,
                    model_id=None, deadline_s=5, queue_size=1)
    r = pipe.handle(HandleRequest(prompt="카톡 2시간", currentTime=datetime.fromisoformat(NOW)))
    assert r.meta.llmCalls == 0
    assert not r.ok and r.needsSupplement  # intent unknown: it asks


def test_pending_model_classifies_disagreeing_turns_within_its_grammar(settings, local_model) -> None:
    """With pending_model on, a turn mixing cancel words and values goes to the model."""
    from notillm_local.contract.schemas import PendingAction
    from notillm_local.engines.grammars import GrammarSet
    from notillm_local.stages.pending import PendingClassifier

    clf = PendingClassifier(local_model, GrammarSet.load().pending)
    action = clf.classify("카톡만 받아줘", "아 취소하고 슬랙 1시간만 꺼줘", timeout_s=30,
                          max_waiting=2)
    assert isinstance(action, PendingAction)


def test_cancel_words_with_new_values_do_not_cancel(service) -> None:
    r = ask(service, "됐고 그냥 2시간", now="2026-08-15T09:00:00+09:00", pending=True,
            pendingOriginal="카톡만 받아줘")
    assert r.pendingAction.value == "CONTINUE" and r.ok
    assert r.condition.expires == "2026-08-15T11:00:00+09:00"


@pytest.mark.parametrize(
    "text", ["아 됐다 그냥 놔둬", "방금 거 없던 걸로 해줘", "필요 없어졌어", "아 그냥 하지 말자"]
)
def test_cancel_phrasings(service, text: str) -> None:
    r = ask(service, text, pending=True, pendingOriginal="카톡 알림 꺼줘")
    assert r.pendingAction.value == "CANCEL" and r.failReason.value == "cancelled"
    assert not r.needsSupplement


def test_time_answering_the_question_is_continue(service) -> None:
    r = ask(service, "매일 밤 11시부터 아침 7시까지로 해줘", pending=True,
            pendingOriginal="알림 전부 꺼줘")
    assert r.ok and r.pendingAction.value == "CONTINUE"
    assert r.condition.recurrence == "daily" and r.targetFixed.all


def test_update_with_exception_words_replaces_the_apps(service) -> None:
    r = ask(service, "페북은 빼고 인스타만 2시간", pending=True,
            pendingOriginal="인스타랑 페북 알림 꺼줘")
    assert r.ok and r.pendingAction.value == "UPDATE"
    assert r.targetFixed.name == ["Instagram"] and r.targetFixed.mute is True


@pytest.mark.parametrize("text", ["카톡 알림음 너무 시끄럽네", "유튜브 알림 켜져 있어?",
                                  "유튜브 3시간 봤어"])
def test_talk_about_apps_is_not_a_command(service, text: str) -> None:
    r = ask(service, text)
    assert r.dialogIntent.value == "reject" and r.targetFixed is None


@pytest.mark.parametrize("text", ["번개장터 알림 밤 10시까지 받지 마", "업비트 알림 1시간 꺼줘"])
def test_apps_known_elsewhere_are_unresolved_not_widened(service, text: str) -> None:
    r = ask(service, text)
    assert not r.ok and r.failReason.value == "app_unresolved"


def test_a_keyword_command_without_time_asks(service) -> None:
    r = ask(service, "'할인' 들어간 알림 안 보고 싶어")
    assert not r.ok and r.failReason.value == "incomplete" and r.needsSupplement


@pytest.mark.parametrize("text", ["카톡 알림 소리 바꾸는 법 알려줘", "방해 금지 모드랑 무음 모드 차이가 뭐야?"])
def test_questions_about_settings_are_chitchat(service, text: str) -> None:
    r = ask(service, text)
    assert r.dialogIntent.value == "reject" and r.failReason.value == "chitchat"


def test_a_whole_new_command_after_cancel_words_is_new_request(service) -> None:
    r = ask(service, "그건 됐고 지금부터 1시간 동안 알림 전부 무음으로 해줘", pending=True,
            pendingOriginal="슬랙 알림 꺼줘")
    assert r.ok and r.pendingAction.value == "NEW_REQUEST" and r.targetFixed.all


def test_a_follow_up_that_adds_an_app_keeps_the_first(service) -> None:
    now = "2026-08-15T09:00:00+09:00"
    r = ask(service, "아니 넷플도 같이 2시간", now=now, pending=True,
            pendingOriginal="유튜브 알림 꺼주셈")
    assert r.ok and r.pendingAction.value == "UPDATE"
    assert r.targetFixed.name == ["YouTube", "Netflix"]
    r = ask(service, "인스타도 추가해줘", now=now, pending=True, pendingOriginal="1시간 동안 카톡 꺼줘")
    assert r.ok and r.targetFixed.name == ["카카오톡", "Instagram"]
    # Without an additive word the new app replaces the old one.
    r = ask(service, "아니 카톡 말고 슬랙", now=now, pending=True, pendingOriginal="1시간 동안 카톡 꺼줘")
    assert r.ok and r.targetFixed.name == ["Slack"]


def test_a_name_ending_like_a_particle_is_still_the_app(service) -> None:
    # "아사나" is Asana (by the embeddings), not "아사" + the particle 나 (natural_e).
    apps = [{"name": "Google Chat", "packageName": "com.google.android.apps.dynamite"},
            {"name": "Asana", "packageName": "com.asana.app"}]
    r = ask(service, "구글챗이랑 아사나 알림 90분 꺼줘", installedApps=apps)
    assert r.ok and r.targetFixed.name == ["Google Chat", "Asana"] and r.meta.llmCalls == 0


def test_a_misspelt_app_name_that_holds_a_time_word(service) -> None:
    # "오늘의잡" (오늘의집 misspelt) had become the time 오늘 and the keyword 잡 (natural_d).
    apps = [{"name": "요기요", "packageName": "com.fineapp.yogiyo"},
            {"name": "오늘의집", "packageName": "net.bucketplace"}]
    r = ask(service, "요기요 오늘의잡 알림 다 3시간 꺼줘", installedApps=apps)
    assert r.ok and r.targetFixed.name == ["요기요", "오늘의집"] and r.targetFixed.content == []
    assert r.condition.expires == "2026-08-15T00:30:00+09:00"


def test_a_clock_time_in_a_remark_is_not_the_rules_time(service) -> None:
    # "새벽 2시 반인데" says what time it is; the rule runs from now (natural_e).
    r = ask(service, "새벽 2시 반인데 잠이 안옴ㅠ 아침 9시까지 전부 알림 꺼줘",
            now="2028-05-21T02:40:00+09:00")
    assert r.ok and r.targetFixed.all
    assert r.condition.delivery == "2028-05-21T02:40:00+09:00"
    assert r.condition.expires == "2028-05-21T09:00:00+09:00"


def test_a_follow_up_that_adds_an_app_is_an_update(service) -> None:
    # The target changed (widened): UPDATE, not CONTINUE (natural_e).
    r = ask(service, "넷플도추가해서3시간", now="2026-08-15T09:00:00+09:00", pending=True,
            pendingOriginal="유튜브 알림 꺼줘요")
    assert r.ok and r.pendingAction.value == "UPDATE"
    assert r.targetFixed.name == ["YouTube", "Netflix"]
