"""Every .gbnf file and its per-request renderings: what they accept and reject, read the same
by llguidance (the decoder's engine) and by llama.cpp's own GBNF engine."""

from __future__ import annotations

import itertools
import logging

import pytest

from notillm_local import resources
from notillm_local.engines.grammars import MAX_ITEMS, GrammarSet, alternatives, literal
from notillm_local.errors import GrammarError

GRAMMARS_DIR = resources.path("grammars")

GRAMMARS = GrammarSet.load()


def verdicts(model, grammar: str, text: str) -> tuple[bool, bool]:
    """(llguidance, llama.cpp) on the same text in the same tokenization."""
    return model.accepts(grammar, text), model.accepts_llama_cpp(grammar, text)


def test_every_grammar_file_is_covered_here() -> None:
    files = sorted(p.stem for p in GRAMMARS_DIR.glob("*.gbnf"))
    assert files == ["apps", "intent", "keywords", "pending"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" 끄기\n", True), (" 허용\n", True), (" 켜기\n", False), (" 끄기", False),
     ("끄기\n", False), (" 끄기 허용\n", False), (" 허용\n\n", False), (" 끄\n", False)],
)
def test_intent_grammar(local_model, text: str, ok: bool) -> None:
    assert verdicts(local_model, GRAMMARS.intent, text) == (ok, ok)


LABELS = [
    "카카오톡", "카카오", "메시지", "Play 스토어", "다른 기기에서도 전화/문자하기", 'Say "hi"',
    "back\\slash", "Ünïcødé ✓", "😀 Emoji", "WhatsApp", "X", "T map",
]
NINE = ", ".join(["카카오톡", "메시지", "X", "WhatsApp", "카카오", "T map", "Play 스토어",
                  "😀 Emoji", "메시지"])


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (" 카카오톡\n", True),
        (" 카카오\n", True),  # a label that is a prefix of another
        (" 카카오, 카카오톡\n", True),
        (" Play 스토어, 메시지\n", True),
        (" 다른 기기에서도 전화/문자하기\n", True),
        (' Say "hi"\n', True),  # quotes in labels are escaped, not breaking the grammar
        (" back\\slash\n", True),
        (" Ünïcødé ✓, 😀 Emoji\n", True),
        (" T map\n", True),
        (" 없음\n", True),
        (" 기타\n", True),
        (" 카카오톡, 기타\n", True),  # an installed app and one the device does not have
        (" 기타, 카카오톡, 메시지\n", True),
        (" 카카오톡, 메시지, Play 스토어, X\n", True),  # more than the old cap of three
        (" " + NINE.rsplit(", ", 1)[0] + "\n", True),  # eight
        (" " + NINE + "\n", False),  # nine: over the cap
        (" 라인\n", False),  # not installed: cannot be named
        (" 카톡\n", False),  # the user's word is not a label
        (" 카카오톡, 없음\n", False),
        (" 없음, 기타\n", False),
        (" play 스토어\n", False),
        (" 카카오톡,메시지\n", False),
        (" 카카오톡 \n", False),
        (" T\n", False),
        (" Say hi\n", False),
        (" back\\\\slash\n", False),
        (" 카카오톡\n\n", False),
        (" \n", False),
    ],
)
def test_apps_grammar_admits_only_installed_labels(local_model, text: str, ok: bool) -> None:
    assert verdicts(local_model, GRAMMARS.apps_for(LABELS), text) == (ok, ok)


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" 없음\n", True), (" 기타\n", True), (" 카카오톡\n", False), (" 기타, 기타\n", False),
     (" 없음, 기타\n", False)],
)
def test_apps_grammar_with_nothing_installed(local_model, text: str, ok: bool) -> None:
    assert verdicts(local_model, GRAMMARS.apps_for([]), text) == (ok, ok)


def test_apps_grammar_cap_is_eight(local_model) -> None:
    labels = [f"앱{i}" for i in range(12)]
    g = GRAMMARS.apps_for(labels)
    for n in (1, MAX_ITEMS, MAX_ITEMS + 1):
        text = " " + ", ".join(labels[:n]) + "\n"
        ok = n <= MAX_ITEMS
        assert verdicts(local_model, g, text) == (ok, ok), n


def test_labels_the_engines_cannot_take_are_left_out(local_model) -> None:
    g = GRAMMARS.apps_for(["카카오톡", "nu\x00l", "\ud800", "two\nlines", "tab\there", "없음"])
    assert "nu" not in g and "lines" not in g and "tab" not in g
    assert verdicts(local_model, g, " 카카오톡\n") == (True, True)
    # Every one unusable: the grammar that names no installed app.
    g = GRAMMARS.apps_for(["\x00", "\ud800"])
    assert verdicts(local_model, g, " 기타\n") == (True, True)


WORDS = ["스팸", "광고", "택배", "회의", "쿠폰", "마감", "결제", "배송", "인증번호", "Slack",
         '따옴"표', "역\\슬래시", "ÅÉ✓"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" 스팸\n", True), (" 스팸, 광고\n", True), (" 없음\n", True), (" 쿠폰\n", True),
     (" 인증번호, Slack\n", True), (" 스팸, 스팸, 광고, 광고\n", True),
     (' 따옴"표, 역\\슬래시, ÅÉ✓\n', True), (" 따옴표\n", False),
     (" " + ", ".join(WORDS[:8]) + "\n", True), (" " + ", ".join(WORDS[:9]) + "\n", False),
     (" 할인\n", False), (" \n", False), (" 스팸, 없음\n", False), (" slack\n", False),
     (" 스팸,광고\n", False)],
)
def test_keywords_grammar_admits_only_prompt_words(local_model, text: str, ok: bool) -> None:
    assert verdicts(local_model, GRAMMARS.keywords_for(WORDS), text) == (ok, ok)


def test_keywords_grammar_with_no_usable_word(local_model) -> None:
    g = GRAMMARS.keywords_for(["없음", "a,b", "\x00", ""])
    assert verdicts(local_model, g, " 없음\n") == (True, True)
    assert verdicts(local_model, g, " a\n") == (False, False)


@pytest.mark.parametrize(
    ("text", "ok"),
    [(" CANCEL\n", True), (" UNRESOLVED\n", True), (" CONTINUE\n", True), (" UPDATE\n", True),
     (" NEW_REQUEST\n", True), (" cancel\n", False), (" DELETE\n", False), (" NEW\n", False),
     (" UPDATE UPDATE\n", False)],
)
def test_pending_grammar(local_model, text: str, ok: bool) -> None:
    assert verdicts(local_model, GRAMMARS.pending, text) == (ok, ok)


def _mutations(text: str) -> set[str]:
    """Near misses of an admitted answer: cut, doubled, re-spaced, re-cased, re-ended."""
    body = text[1:-1]
    out = {text, text[:-1], text[1:], " " + body + " \n", " " + body + ",\n", body + "\n",
           " " + body + ", " + body + "\n", " " + body.upper() + "\n", " " + body[:-1] + "\n",
           "  " + body + "\n", " " + body.replace(", ", ",") + "\n", " " + body + "\n\n"}
    return {t for t in out if t}


def test_engines_agree_on_every_grammar_and_its_near_misses(local_model) -> None:
    """The equivalence itself: both engines, every grammar, admitted answers and near misses."""
    cases = {
        "intent": (GRAMMARS.intent, [" 끄기\n", " 허용\n"]),
        "pending": (GRAMMARS.pending, [" CANCEL\n", " NEW_REQUEST\n", " UPDATE\n"]),
        "apps": (GRAMMARS.apps_for(LABELS), [" 카카오톡\n", " 카카오, 기타\n",
                                             " Play 스토어, 메시지, 기타\n", ' Say "hi", X\n']),
        "apps-none": (GRAMMARS.apps_for([]), [" 없음\n", " 기타\n"]),
        "keywords": (GRAMMARS.keywords_for(WORDS), [" 스팸\n", " 광고, 회의\n", " 없음\n",
                                                      ' 따옴"표, ÅÉ✓\n']),
        "keywords-none": (GRAMMARS.keywords_for([]), [" 없음\n"]),
    }
    disagreements = []
    for name, (grammar, good) in cases.items():
        for text in sorted(set(itertools.chain.from_iterable(_mutations(t) for t in good))):
            llg, lcpp = verdicts(local_model, grammar, text)
            if llg != lcpp:
                disagreements.append((name, text, llg, lcpp))
        for text in good:
            assert verdicts(local_model, grammar, text) == (True, True), (name, text)
    assert not disagreements


def test_both_engines_reject_a_broken_grammar(local_model) -> None:
    with pytest.raises(GrammarError):
        local_model.llama_cpp_grammar('root ::= "unterminated')
    with pytest.raises(GrammarError):
        local_model.grammar('root ::= "unterminated')
    with pytest.raises(GrammarError):
        local_model.grammar('root ::= " " undefined "\\n"')


@pytest.mark.parametrize("bad", ["a\x00b", "\ud800", "bell\x07", "nel\x85", "esc\x1b[0m"])
def test_literal_rejects_what_the_engines_cannot_take(bad: str) -> None:
    with pytest.raises(GrammarError):
        literal(bad)


@pytest.mark.parametrize("bad", ['root ::= "a\x00b"', 'root ::= "\ud800"'])
def test_grammar_text_with_unusable_characters_is_a_grammar_error(
    local_model, bad: str, capfd
) -> None:
    with pytest.raises(GrammarError):
        local_model.grammar(bad)
    with pytest.raises(GrammarError):
        local_model.llama_cpp_grammar(bad)
    assert capfd.readouterr().err == ""


def test_a_grammar_error_prints_nothing(local_model, capfd, caplog) -> None:
    """llama.cpp's GBNF parser fprintf()s a failing grammar, prompt words included."""
    caplog.set_level(logging.DEBUG)
    with pytest.raises(GrammarError):
        local_model.llama_cpp_grammar('root ::= " " "비밀번호" undefined-rule')
    with pytest.raises(GrammarError):
        local_model.grammar('root ::= " " "비밀번호" undefined-rule')
    err = capfd.readouterr().err
    assert err == ""
    assert "비밀번호" not in caplog.text


def test_literal_escapes_and_empty_choices() -> None:
    assert literal('a"b\\c\n') == '"a\\"b\\\\c\\n"'
    with pytest.raises(GrammarError):
        alternatives("x", ["", "  "])


def test_a_changed_grammar_file_fails_loudly_not_silently() -> None:
    """The no-choice renderings replace a rule by name; a file without that rule is an error."""
    changed = GrammarSet(intent=GRAMMARS.intent, apps='root ::= " " "없음" "\\n"\n',
                         keywords='root ::= " " "없음" "\\n"\n', pending=GRAMMARS.pending)
    with pytest.raises(GrammarError):
        changed.apps_for([])
    with pytest.raises(GrammarError):
        changed.keywords_for([])
