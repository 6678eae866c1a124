"""GBNF grammars: the static files in grammars/ plus the rules rendered per request."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from notillm_local import resources
from notillm_local.engines.guidance import unusable_char
from notillm_local.errors import GrammarError

logger = logging.getLogger(__name__)

# Characters a GBNF string literal must escape.
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}

# Items an apps or keywords answer may hold (apps.gbnf, keywords.gbnf: one plus `{0,7}`).
MAX_ITEMS = 8

NONE_WORD, OTHER_APP_WORD = "없음", "기타"


def literal(text: str) -> str:
    """A GBNF string literal matching exactly `text`.

    GrammarError for text no grammar engine here can take (NUL and other control characters
    but tab and line breaks, lone surrogates): llama.cpp would cut the grammar at a NUL and
    print it, and a surrogate cannot be encoded at all.
    """
    if not text:
        raise GrammarError("empty literal")
    bad = unusable_char(text)
    if bad is not None:
        raise GrammarError(f"literal holds a {bad}")
    return '"' + "".join(_ESCAPES.get(c, c) for c in text) + '"'


def alternatives(name: str, choices: Iterable[str]) -> str:
    """A rule `name ::= "a" | "b" ...` over distinct non-empty choices, in the given order."""
    seen: list[str] = []
    for c in choices:
        c = c.strip()
        if c and c not in seen:
            seen.append(c)
    if not seen:
        raise GrammarError(f"rule {name!r} has no choices")
    return f"{name} ::= " + " | ".join(literal(c) for c in seen)


def _speakable(choice: str) -> bool:
    """Whether a label or word can be one item of a one-line answer.

    Any control character (line breaks included) or lone surrogate rules it out: the answer is
    one line, and the engines cannot take the rest.
    """
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in choice)


def _replace_rule(text: str, name: str, body: str) -> str:
    """`text` with the one-line definition of rule `name` replaced by `name ::= body`."""
    new, n = re.subn(rf"^{re.escape(name)} ::= .*$", f"{name} ::= {body}", text, flags=re.M)
    if n != 1:
        raise GrammarError(f"grammar has {n} definitions of rule {name!r}, expected one")
    return new


@dataclass(frozen=True)
class GrammarSet:
    """The static grammar texts, read once at start-up."""

    intent: str
    apps: str
    keywords: str
    pending: str

    @classmethod
    def load(cls, directory: Path | None = None) -> GrammarSet:
        directory = directory or resources.path("grammars")

        def read(name: str) -> str:
            path = directory / f"{name}.gbnf"
            try:
                return path.read_text(encoding="utf-8")
            except OSError as exc:
                raise GrammarError(f"cannot read grammar {path}: {exc}") from exc

        return cls(
            intent=read("intent"),
            apps=read("apps"),
            keywords=read("keywords"),
            pending=read("pending"),
        )

    def apps_for(self, labels: Iterable[str]) -> str:
        """The apps grammar with `label` limited to these labels (a request's installed apps).

        Labels no engine can take (a NUL, a line break, a lone surrogate) are left out: the
        model cannot name that app, the request is still answered.
        """
        labels = _choices(labels, exclude=(NONE_WORD, OTHER_APP_WORD), what="labels")
        if not labels:
            # Nothing installed to choose: "없음", or one app the device does not have.
            text = _replace_rule(self.apps, "targets", f"{literal(NONE_WORD)} | item")
            return _replace_rule(text, "item", literal(OTHER_APP_WORD))
        return self.apps + alternatives("label", labels) + "\n"

    def keywords_for(self, words: Iterable[str]) -> str:
        """The keywords grammar with `word` limited to the prompt's own words."""
        words = _choices(words, exclude=(NONE_WORD,), what="words")
        words = [w for w in words if "," not in w]
        if not words:
            return _replace_rule(self.keywords, "keywords", literal(NONE_WORD))
        return self.keywords + alternatives("word", words) + "\n"


def _choices(items: Iterable[str], *, exclude: tuple[str, ...], what: str) -> list[str]:
    out: list[str] = []
    dropped = 0
    for item in items:
        item = item.strip()
        if not item or item in exclude:
            continue
        if not _speakable(item):
            dropped += 1
            continue
        out.append(item)
    if dropped:
        # A count, never the text: it is the user's (or the device's) words.
        logger.debug("grammar: %d %s with unusable characters left out", dropped, what)
    return out
