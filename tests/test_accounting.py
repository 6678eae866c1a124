"""Nothing the user said is dropped: generated commands through the real pipeline.

Issue 11's property: for generated commands — catalog apps by label or alias, app-like words
no table knows, with and without spaces — every app word of the prompt ends in `name`, or the
answer is not ok; an app the user excluded ("빼고", "놔두고", "말고") never ends in a mute rule's
`name`. Run twice: through code alone (rules mode, deterministic) and through the default
mode with the real model deciding what code could not place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from notillm_local import resources
from notillm_local.contract.schemas import HandleRequest
from notillm_local.engines.grammars import GrammarSet
from notillm_local.pipeline import Pipeline
from notillm_local.settings import ExtractorMode
from notillm_local.stages.extract import SlotExtractor
from notillm_local.stages.slots import RuleSlotReader

NOW = "2026-08-14T21:30:00+09:00"
_ALIASES = json.loads(resources.path("app_aliases.json").read_text("utf-8"))["aliases"]
_CATALOG = {a["name"] for a in json.loads(resources.path("apps_galaxy_ko.json").read_text("utf-8"))}
# (word the user types, label the rule must name): labels themselves and their aliases, for
# apps of the default catalog whose words are not generic nouns ("메시지" beside an app is not).
APP_WORDS = sorted(
    {
        (w, label)
        for label, words in _ALIASES.items()
        if label in _CATALOG
        for w in (label, *words)
        if w not in ("메시지", "메세지", "문자메시지", "알림") and len(w) >= 2
    }
)
# Words shaped like app names that no table knows: they must be asked about, never dropped.
UNKNOWN_APPS = ["뿌까톡", "쥬르르앱", "모모플러스", "Zorbly", "키키뱅크", "두리번마켓", "QuuxChat"]
TIMES = ["2시간", "30분 동안", "오후 11시까지", "1시간 반", "내일 아침 9시까지", "두시간"]
MUTE = ["꺼줘", "알림 꺼줘", "받지마", "조용히 해줘", "알림 안 받을래", "막아줘"]
EXCEPT = ["빼고", "말고는", "놔두고", "은 놔두고"]


@dataclass(frozen=True)
class Command:
    prompt: str
    named: tuple[str, ...]  # labels the rule must name when ok
    unknown: tuple[str, ...]  # unknown app words (the answer must not be ok)
    excluded: tuple[str, ...]  # labels that must never be muted


@st.composite
def commands(draw: st.DrawFn, *, with_unknown: bool) -> Command:
    picks = draw(st.lists(st.sampled_from(APP_WORDS), min_size=1, max_size=4, unique_by=lambda p: p[1]))
    unknown = draw(st.lists(st.sampled_from(UNKNOWN_APPS), max_size=1)) if with_unknown else []
    words = [w for w, _ in picks] + unknown
    order = draw(st.permutations(words))
    time = draw(st.sampled_from(TIMES))
    verb = draw(st.sampled_from(MUTE))
    excluded: list[str] = []
    target = order
    if len(picks) >= 2 and draw(st.booleans()):
        # "X 빼고 Y랑 Z 꺼줘": X is left alone, Y and Z are muted.
        word, label = picks[0]
        target = [w for w in order if w != word]
        excluded = [label]
        prompt = f"{word} {draw(st.sampled_from(EXCEPT))} {' '.join(target)} {time} {verb}"
    else:
        prompt = f"{time} {'랑 '.join(order)} {verb}"
    if draw(st.booleans()):
        prompt = "".join(prompt.split())
    named = tuple(label for w, label in picks if label not in excluded)
    return Command(prompt, named, tuple(unknown), tuple(excluded))


def _check(pipe: Pipeline, cmd: Command, *, model: bool) -> None:
    r = pipe.handle(HandleRequest(prompt=cmd.prompt, currentTime=NOW))
    if r.ok:
        assert r.targetFixed is not None
        names = set(r.targetFixed.name)
        if r.targetFixed.mute:
            assert not names & set(cmd.excluded), (cmd, r.targetFixed)
            assert set(cmd.named) <= names, (cmd, r.targetFixed)
        if cmd.unknown:
            # Placed by the model, the unknown word is in the rule (a keyword), never dropped.
            assert model, (cmd, r.targetFixed)
            kept = {c.casefold() for c in r.targetFixed.content}
            assert all(u.casefold() in kept for u in cmd.unknown), (cmd, r.targetFixed)
    else:
        assert r.failReason is not None
        if not cmd.unknown:
            # A command built from installed apps alone has nothing to ask about but time.
            assert r.failReason.value != "app_unresolved", (cmd, r.message)


@pytest.fixture(scope="module")
def rules_pipeline(table_mapper, catalog) -> Pipeline:
    extractor = SlotExtractor(
        RuleSlotReader(table_mapper), None, GrammarSet.load(), ExtractorMode.RULES
    )
    return Pipeline(extractor=extractor, default_apps=catalog, gate=None, hosted=None,
                    model_id=None, deadline_s=30, queue_size=4)


# Derandomised: the same generated commands on every run and machine, so CI never flakes on a
# newly drawn case (new cases are found by running with a random seed locally).
_FAST = dict(
    deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@hsettings(max_examples=400, **_FAST)  # type: ignore[arg-type]
@given(cmd=commands(with_unknown=True))
def test_rules_account_for_every_app_word(rules_pipeline: Pipeline, cmd: Command) -> None:
    r = rules_pipeline.handle(HandleRequest(prompt=cmd.prompt, currentTime=NOW))
    if cmd.unknown:
        # Code alone cannot place an unknown app: it asks, never answers without it.
        assert not r.ok and r.failReason is not None, (cmd, r.targetFixed)
        assert r.failReason.value == "app_unresolved", (cmd, r.message)
    _check(rules_pipeline, cmd, model=False)


@hsettings(max_examples=40, **_FAST)  # type: ignore[arg-type]
@given(cmd=commands(with_unknown=True))
def test_default_mode_accounts_for_every_app_word(service, cmd: Command) -> None:
    _check(service.pipeline, cmd, model=True)
