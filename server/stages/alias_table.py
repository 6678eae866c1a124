"""The alias table: the words people use for each app (the catalog's and apps it lacks), and
the misspellings of them the mapper still reads as that app (`AliasTable.near`)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from notillm_local import lexicon
from notillm_local.domain import AppRef
from notillm_local.lexicon import normalise
from notillm_local.stages.sound import letters_spelt
from notillm_local.stages.typos import (
    _is_final,
    _jamo,
    _one_letter_said_alike,
    _vowels_swap,
    last_vowel_slipped,
    latin_slip,
    one_syllable_slipped,
)

_FUZZY_MIN_JAMO = 6
_FUZZY_TWO_EDITS_JAMO = 10


@dataclass(frozen=True)
class AliasTable:
    """Alias words per app label, plus apps users name that the catalog may lack."""

    aliases: dict[str, tuple[str, ...]]
    known_elsewhere: dict[str, tuple[str, ...]]
    default_packages: dict[str, str] = field(default_factory=dict)
    # Android packages of apps the default catalog lacks: a device may show one under a label
    # in any script ("微信" for WeChat), and the package finds it.
    known_packages: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, default_catalog: Sequence[AppRef] = ()) -> AliasTable:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            aliases={k: tuple(v) for k, v in raw["aliases"].items()},
            known_elsewhere={k: tuple(v) for k, v in raw.get("known_elsewhere", {}).items()},
            default_packages={a.label: a.package for a in default_catalog},
            known_packages={k: tuple(v) for k, v in raw.get("known_packages", {}).items()},
        )

    @cached_property
    def word_to_label(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for label, words in self.aliases.items():
            for w in (label, *words):
                out.setdefault(normalise(w), label)
        for label, words in self.aliases.items():
            for w in (label, *words):
                spelt = letters_spelt(normalise(w))
                if spelt:
                    out.setdefault(spelt, label)
        return out

    @cached_property
    def _words_by_label(self) -> dict[str, frozenset[str]]:
        return {
            label: frozenset(normalise(w) for w in (label, *words))
            for table in (self.known_elsewhere, self.aliases) for label, words in table.items()
        }

    def words_of(self, label: str) -> frozenset[str]:
        """Every word (normalised) the table knows for the app `label`, the label included."""
        return self._words_by_label.get(label, frozenset())

    @cached_property
    def word_to_elsewhere(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for label, words in self.known_elsewhere.items():
            for w in (label, *words):
                for key in (normalise(w), letters_spelt(normalise(w))):
                    if key and key not in self.word_to_label:
                        out.setdefault(key, label)
        return out

    @cached_property
    def _fuzzy_keys(self) -> tuple[list[str], list[str]]:
        """Every known app word as jamo (Hangul decomposed), and the word it stands for. The
        letter names spelt out ("카카오티") are read as written only: one jamo off them is more
        often another name ("카카오토" is 카카오톡)."""
        written = {
            normalise(w)
            for table in (self.aliases, self.known_elsewhere)
            for label, ws in table.items() for w in (label, *ws)
        }
        words = [w for w in (*self.word_to_label, *self.word_to_elsewhere) if w in written]
        return [_jamo(w) for w in words], words

    def near(self, word: str, labels: Sequence[str] = ()) -> str | None:
        """The known app word `word` misspells ("카카오토" → "카카오톡"), if one clearly is;
        `labels` (a device's own labels) count as known words too ("위벗스" for a 위버스 that
        no table lists).

        Compared on jamo, so one wrong consonant or vowel is one edit. Only words of six jamo
        or more (two syllables with a final consonant, or three) are tried — shorter words are
        one edit from too many real words ("문제" is one jamo from "문자") — and only a single
        app within the distance counts: two candidates means the word is not clearly either.
        """
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        key = normalise(word)
        query = _jamo(key)
        keys, words = self._fuzzy_keys
        extra = [k for k in dict.fromkeys(normalise(x) for x in labels)
                 if k and k not in self.word_to_label and k not in self.word_to_elsewhere]
        if extra:
            keys, words = [*keys, *(_jamo(k) for k in extra)], [*words, *extra]
        # A letter held down ("zooom", "slaaack") is the name with that letter once or twice.
        held = re.sub(r"([a-z])\1{2,}", r"\1\1", key)
        if held != key and re.fullmatch(r"[a-z]+", key):
            found = {self.app_of(w): w for w in words if w in (held, re.sub(r"([a-z])\1+", r"\1", key))}
            if len(found) == 1:
                return next(iter(found.values()))
            key = held
        if re.fullmatch(r"[a-z]{5,}", key):
            # Latin names slip by letters, not jamo ("gmial"): one slip, one app only.
            found = {self.app_of(w): w for w in words if w.isascii() and latin_slip(key, w)}
            return next(iter(found.values())) if len(found) == 1 else None
        if len(query) < _FUZZY_MIN_JAMO:
            if key in lexicon.words("markers", "ordinary_words"):
                return None  # "보고 싶어": a verb, though one letter from 포고
            return self._near_short(key, query, keys, words)
        limit = 2 if len(query) >= _FUZZY_TWO_EDITS_JAMO else 1
        # One pass at two edits: the words within `limit`, and the two-edit slips of a swap.
        near = process.extract(query, keys, scorer=Levenshtein.distance, score_cutoff=2, limit=None)
        hits = [h for h in near if h[1] <= limit]
        if not hits:
            return (
                self._vowels_swapped(query, near, keys, words) or self._prefix_of(key, words)
                or self._syllable_slipped(key, words)
            )
        best = min(d for _, d, _ in hits)
        apps = {self.app_of(words[i]) for _, d, i in hits if d == best}
        if len(apps) != 1:
            return None
        return next(words[i] for _, d, i in hits if d == best)

    def _near_short(
        self, key: str, query: str, keys: list[str], words: list[str]
    ) -> str | None:
        """Two-syllable words: only a wrong final consonant ("카톸", "카통" for "카톡").

        A final consonant is what a fast thumb gets wrong; a different vowel or initial makes
        another word too often ("문제" is not "문자").
        """
        if len(query) < 4:
            return None
        if _is_final(query[-1]):
            found = {
                self.app_of(w): w
                for k, w in zip(keys, words, strict=True)
                if len(k) == len(query) and k[:-1] == query[:-1] and _is_final(k[-1])
                and k != query
            }
        else:
            found = {}
        if not found:
            # An initial typed plain, tense or aspirated ("카똑", "까톡" for "카톡"), or a vowel
            # that sounds the same ("벤드" for "밴드"): the same word as said, not another word.
            found = {
                self.app_of(w): w
                for k, w in zip(keys, words, strict=True)
                if len(k) == len(query)
                and _one_letter_said_alike(k, query)
            }
        if not found:
            found = {
                self.app_of(w): w for k, w in zip(keys, words, strict=True)
                if len(key) == 2 and len(w) == 2 and last_vowel_slipped(k, query)
            }
        return next(iter(found.values())) if len(found) == 1 else None

    def _vowels_swapped(
        self, query: str, near: list[tuple[str, int, int]], keys: list[str], words: list[str]
    ) -> str | None:
        """The one known app word `query` types with two vowels in swapped places ("유트뷰" for
        유튜브: the fingers' order, two edits by letter count but one slip); `near` are the
        words within two edits."""
        found = [i for _, d, i in near if d == 2 and _vowels_swap(query, keys[i])]
        apps = {self.app_of(words[i]) for i in found}
        return words[found[0]] if len(apps) == 1 else None

    def _prefix_of(self, key: str, words: list[str]) -> str | None:
        """A name cut short ("넷플릭" for "넷플릭스"): three syllables or more, one app only."""
        if len(key) < 3:
            return None
        found = {self.app_of(w): w for w in words if w.startswith(key) and len(w) > len(key)}
        return next(iter(found.values())) if len(found) == 1 else None

    def _syllable_slipped(self, key: str, words: list[str]) -> str | None:
        """A long name with one syllable mistyped (`one_syllable_slipped`), one app only."""
        found = {self.app_of(w): w for w in words if one_syllable_slipped(key, w)}
        return next(iter(found.values())) if len(found) == 1 else None

    def app_of(self, key: str) -> str:
        return self.word_to_label.get(key) or self.word_to_elsewhere.get(key, key)

    @cached_property
    def max_words(self) -> int:
        """Longest alias in whitespace-separated words (bounds the n-gram search)."""
        every = [w for ws in self.aliases.values() for w in ws] + list(self.aliases)
        every += [w for ws in self.known_elsewhere.values() for w in ws]
        return max(len(w.split()) for w in every)
