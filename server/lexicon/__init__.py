"""Korean (and mixed-in English) word lists as data, the one normaliser, and English reading.

Every closed word list a stage reads lives in a JSON file beside this module (intent cues,
markers, fillers, particles, topics, context, frames, English equivalents, English time words),
so a word is added in one place and every stage sees it. The lists are read once per process,
on first use.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

_NOISE = re.compile(r"[\s\-_.·/:+'\"`()\[\]]+")


def normalise(word: str) -> str:
    """Spelling-insensitive key: NFKC, case-folded, no spaces or punctuation.

    "Play 스토어", "play스토어" and "PLAY-스토어" share a key; every table lookup (aliases,
    installed labels, synonyms, fillers) goes through this one function.
    """
    return _NOISE.sub("", unicodedata.normalize("NFKC", word).casefold())


@cache
def data(name: str) -> dict[str, Any]:
    """The parsed JSON file `name`.json of this package."""
    source = resources.files(__name__).joinpath(f"{name}.json")
    loaded: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return loaded


def _entries(value: str | Iterable[str]) -> list[str]:
    # A word list is either a JSON list or one space-separated string (long lists read better).
    return value.split() if isinstance(value, str) else [str(v) for v in value]


@cache
def words(name: str, key: str = "words") -> frozenset[str]:
    """A word list as normalised keys."""
    return frozenset(normalise(w) for w in _entries(_get(name, key)))


@cache
def raw_words(name: str, key: str = "words") -> tuple[str, ...]:
    """A word list as written (particles, which must be matched exactly)."""
    return tuple(_entries(_get(name, key)))


@cache
def pattern(name: str, key: str, *, anchored: str = "") -> re.Pattern[str]:
    """A list of regular-expression alternatives (or one expression) compiled once.

    `anchored` wraps the alternation: "^" + … for prefixes, … + "$" for endings.
    """
    value = _get(name, key)
    body = value if isinstance(value, str) else "|".join(f"(?:{v})" for v in value)
    if anchored == "^":
        body = f"^(?:{body})"
    elif anchored == "$":
        body = f"(?:{body})$"
    return re.compile(body, re.IGNORECASE)


def _get(name: str, key: str) -> Any:
    node: Any = data(name)
    for part in key.split("."):
        node = node[part]
    return node


# --------------------------------------------------------------------------- English


@dataclass(frozen=True)
class MappedText:
    """A rewritten text and, for each of its characters, the offset it came from."""

    text: str
    origin: tuple[int, ...]
    source_length: int

    @classmethod
    def identity(cls, text: str) -> MappedText:
        return cls(text, tuple(range(len(text))), len(text))

    def through(self, inner: MappedText) -> MappedText:
        """This text's offsets (it was built from inner.text) mapped through to inner's source."""
        origin = tuple(inner.origin[i] if i < len(inner.origin) else inner.source_length
                       for i in self.origin)
        return MappedText(self.text, origin, inner.source_length)

    def span_in_source(self, start: int, end: int) -> tuple[int, int]:
        """Offsets in the original text covered by [start, end) of this one."""
        if start >= end or not self.origin:
            at = self.origin[start] if start < len(self.origin) else self.source_length
            return at, at
        first = self.origin[start]
        last = self.origin[min(end, len(self.origin)) - 1]
        return first, last + 1


@cache
def _english_rules() -> tuple[re.Pattern[str], dict[str, tuple[str, bool]]]:
    table: dict[str, tuple[str, bool]] = {}
    spec = data("english")
    for ko, phrases in spec["replace"].items():
        for p in phrases:
            table[p.lower()] = (ko, False)
    for ko, phrases in spec["glue"].items():
        for p in phrases:
            table[p.lower()] = (ko, True)
    alts = sorted(table, key=len, reverse=True)
    body = "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in alts)
    # Whole English words only: Korean may touch them on either side ("slack만", "6pm까지").
    return re.compile(rf"(?<![A-Za-z])(?:{body})(?![A-Za-z])", re.IGNORECASE), table


_LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{4,}(?![A-Za-z])")


@cache
def _english_verbs() -> frozenset[str]:
    """The one-word English verbs of the rule long enough to be read with a slip (four letters:
    no swap of "mute" or "stop" is an English word)."""
    _, table = _english_rules()
    return frozenset(
        w for w, (ko, _glue) in table.items() if ko in ("꺼", "켜") and w.isalpha() and len(w) >= 4
    )


def _unswap_english_verbs(text: str, table: dict[str, tuple[str, bool]]) -> str:
    """A long English verb typed with two neighbouring letters swapped ("blcok") as the verb.

    Only a swap: it keeps the length, so every position still points at what the user typed,
    and unlike a wrong letter it does not turn one real word into another ("clock": the Clock
    app, never "block")."""
    verbs = _english_verbs()

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        if low in table:
            return word
        for i in range(len(low) - 1):
            swapped = low[:i] + low[i + 1] + low[i] + low[i + 2 :]
            if swapped != low and swapped in verbs:
                return swapped
        return word

    return _LATIN_WORD.sub(fix, text)


def read_english(text: str) -> MappedText:
    """English verbs and function words rewritten as the Korean the readers know.

    "slack only on 해줘" → "slack만 켜 해줘"; "insta off 2h" → "insta 꺼 2h". App names
    stay as written (the alias table knows them in any case); time words are the time
    parser's (time_en.json) and are left alone here.
    """
    rx, table = _english_rules()
    text = _unswap_english_verbs(text, table)
    out: list[str] = []
    origin: list[int] = []
    pos = 0
    for m in rx.finditer(text):
        key = " ".join(m.group(0).lower().split())
        ko, glue = table[key]
        chunk = text[pos : m.start()]
        if glue:
            chunk = chunk.rstrip()
        out.append(chunk)
        origin.extend(range(pos, pos + len(chunk)))
        # Padding keeps the replacement a word of its own ("off카톡" → " 꺼 카톡").
        piece = ko if glue else (f" {ko} " if ko else " ")
        out.append(piece)
        origin.extend([m.start()] * len(piece))
        pos = m.end()
    out.append(text[pos:])
    origin.extend(range(pos, len(text)))
    return MappedText("".join(out), tuple(origin), len(text))
