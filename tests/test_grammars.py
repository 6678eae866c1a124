"""Every .gbnf file: parsed by llama.cpp itself, and what it accepts and rejects."""

from __future__ import annotations

import pytest

from notillm_local import resources
from notillm_local.engines.grammars import GrammarSet, alternatives, literal
from notillm_local.errors import GrammarError

GRAMMARS_DIR = resources.path("grammars")

GRAMMARS = GrammarSet.load()


def test_every_grammar_file_is_covered_here() -> None:
    files = sorted(p.stem for p in GRAMMARS_DIR.glob("*.gbnf"))
    assert files == ["apps", "intent", "keywords", "pending"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" 끄기\n", True), (" 허용\n", True), (" 켜기\n", False), (" 끄기", False),
     ("끄기\n", False), (" 끄기 허용\n", False), (" 허용\n\n", False)],
)
def test_intent_grammar(local_model, text: str, ok: bool) -> None:
    assert local_model.accepts(GRAMMARS.intent, text) is ok


LABELS = ["카카오톡", "메시지", "Play 스토어", "다른 기기에서도 전화/문자하기", 'Say "hi"']


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (" 카카오톡\n", True),
        (" Play 스토어, 메시지\n", True),
        (" 다른 기기에서도 전화/문자하기\n", True),
        (' Say "hi"\n', True),  # quotes in labels are escaped, not breaking the grammar
        (" 없음\n", True),
        (" 기타\n", True),
        (" 카카오톡, 메시지, Play 스토어\n", True),
        (" 카카오톡, 메시지, Play 스토어, 카카오톡\n", False),  # at most three
        (" 라인\n", False),  # not installed: cannot be named
        (" 카톡\n", False),  # the user's word is not a label
        (" 카카오톡, 없음\n", False),
        (" play 스토어\n", False),
    ],
)
def test_apps_grammar_admits_only_installed_labels(local_model, text: str, ok: bool) -> None:
    assert local_model.accepts(GRAMMARS.apps_for(LABELS), text) is ok


def test_apps_grammar_with_nothing_installed(local_model) -> None:
    g = GRAMMARS.apps_for([])
    assert local_model.accepts(g, " 없음\n")
    assert not local_model.accepts(g, " 카카오톡\n")


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" 스팸\n", True), (" 스팸, 광고\n", True), (" 없음\n", True), (" 쿠폰\n", False),
     (" 스팸, 스팸, 광고, 광고\n", False), (" \n", False)],
)
def test_keywords_grammar_admits_only_prompt_words(local_model, text: str, ok: bool) -> None:
    assert local_model.accepts(GRAMMARS.keywords_for(["스팸", "광고"]), text) is ok


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" CANCEL\n", True), (" UNRESOLVED\n", True), (" CONTINUE\n", True), (" UPDATE\n", True),
     (" NEW_REQUEST\n", True), (" cancel\n", False), (" DELETE\n", False)],
)
def test_pending_grammar(local_model, text: str, ok: bool) -> None:
    assert local_model.accepts(GRAMMARS.pending, text) is ok


def test_llama_cpp_rejects_a_broken_grammar(local_model) -> None:
    with pytest.raises(GrammarError):
        local_model.grammar('root ::= "unterminated')


def test_literal_escapes_and_empty_choices() -> None:
    assert literal('a"b\\c\n') == '"a\\"b\\\\c\\n"'
    with pytest.raises(GrammarError):
        alternatives("x", ["", "  "])
