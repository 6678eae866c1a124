"""GBNF grammars: the static files in grammars/ plus the rules rendered per request."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from notillm_local import resources
from notillm_local.errors import GrammarError

# Characters a GBNF string literal must escape.
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def literal(text: str) -> str:
    """A GBNF string literal matching exactly `text`."""
    if not text:
        raise GrammarError("empty literal")
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
        """The apps grammar with `label` limited to these labels (a request's installed apps)."""
        labels = [lb for lb in labels if lb not in ("없음", "기타")]
        if not labels:
            # Nothing installed to choose: the rule must still exist, so it admits only "없음".
            return self.apps.replace('| label (", " label){0,2}', "")
        return self.apps + alternatives("label", labels) + "\n"

    def keywords_for(self, words: Iterable[str]) -> str:
        """The keywords grammar with `word` limited to the prompt's own words."""
        words = [w for w in words if w and w != "없음" and not re.search(r"[,\n]", w)]
        if not words:
            return self.keywords.replace('| word (", " word){0,2}', "")
        return self.keywords + alternatives("word", words) + "\n"
