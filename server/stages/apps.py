"""App mapper: the user's word for an app → an installed app's own label and package.

Order (cheapest and surest first): exact label, alias table, normalised spelling, then the
embedding matcher when one is given. Only installed apps are ever answered; a word that names
a known app which is not installed is reported as unresolved rather than guessed.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from notillm_local import resources
from notillm_local.domain import AppMatch, AppRef, AppWordMatcher

logger = logging.getLogger(__name__)

_NOISE = re.compile(r"[\s\-_.·/:+'\"`()\[\]]+")


def normalise(word: str) -> str:
    """Spelling-insensitive key: NFKC, lower case, no spaces or punctuation."""
    return _NOISE.sub("", unicodedata.normalize("NFKC", word).lower())


@dataclass(frozen=True)
class AliasTable:
    """Alias words per app label, plus apps users name that the catalog may lack."""

    aliases: dict[str, tuple[str, ...]]
    known_elsewhere: dict[str, tuple[str, ...]]
    default_packages: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, default_catalog: Sequence[AppRef] = ()) -> AliasTable:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            aliases={k: tuple(v) for k, v in raw["aliases"].items()},
            known_elsewhere={k: tuple(v) for k, v in raw.get("known_elsewhere", {}).items()},
            default_packages={a.label: a.package for a in default_catalog},
        )

    @cached_property
    def word_to_label(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for label, words in self.aliases.items():
            for w in (label, *words):
                out.setdefault(normalise(w), label)
        return out

    @cached_property
    def word_to_elsewhere(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for label, words in self.known_elsewhere.items():
            for w in (label, *words):
                key = normalise(w)
                if key not in self.word_to_label:
                    out.setdefault(key, label)
        return out

    @cached_property
    def max_words(self) -> int:
        """Longest alias in whitespace-separated words (bounds the n-gram search)."""
        every = [w for ws in self.aliases.values() for w in ws] + list(self.aliases)
        every += [w for ws in self.known_elsewhere.values() for w in ws]
        return max(len(w.split()) for w in every)


@dataclass(frozen=True)
class InstalledIndex:
    """One request's installed apps, indexed for lookup."""

    apps: tuple[AppRef, ...]

    @cached_property
    def by_norm_label(self) -> dict[str, AppRef]:
        return {normalise(a.label): a for a in self.apps}

    @cached_property
    def by_package(self) -> dict[str, AppRef]:
        return {a.package: a for a in self.apps}

    @cached_property
    def labels(self) -> tuple[str, ...]:
        return tuple(a.label for a in self.apps)

    @cached_property
    def max_label_words(self) -> int:
        return max((len(a.label.split()) for a in self.apps), default=1)

    @classmethod
    def of(cls, apps: Iterable[AppRef]) -> InstalledIndex:
        seen: dict[str, AppRef] = {}
        for a in apps:
            seen.setdefault(a.package, a)
        return cls(tuple(seen.values()))


@dataclass(frozen=True)
class Unresolved:
    """A word that names an app, but no installed one."""

    word: str
    known_as: str | None  # the app's name when the alias table knows it


class AppMapper:
    def __init__(self, table: AliasTable, embedder: AppWordMatcher | None = None) -> None:
        self._table = table
        self._embedder = embedder

    @property
    def max_words(self) -> int:
        return self._table.max_words

    def lookup(self, word: str, installed: InstalledIndex) -> AppMatch | Unresolved | None:
        """Table-only resolution: exact label, alias, known-elsewhere. No embeddings."""
        key = normalise(word)
        if not key:
            return None
        hit = installed.by_norm_label.get(key)
        if hit is not None:
            return AppMatch(word=word, app=hit, score=1.0, method="exact")
        label = self._table.word_to_label.get(key)
        if label is not None:
            app = installed.by_norm_label.get(normalise(label))
            if app is None:
                # A device may show another label for the same package (an English UI).
                pkg = self._table.default_packages.get(label)
                app = installed.by_package.get(pkg) if pkg else None
            if app is not None:
                return AppMatch(word=word, app=app, score=1.0, method="alias")
            return Unresolved(word=word, known_as=label)
        if key in self._table.word_to_elsewhere:
            label = self._table.word_to_elsewhere[key]
            app = installed.by_norm_label.get(normalise(label))
            if app is not None:  # a device that has it (a custom installedApps list)
                return AppMatch(word=word, app=app, score=1.0, method="alias")
            return Unresolved(word=word, known_as=label)
        return None

    def resolve(self, word: str, installed: InstalledIndex) -> AppMatch | Unresolved | None:
        """Table first, then the embedding matcher (if any) for words the table lacks."""
        found = self.lookup(word, installed)
        if found is not None:
            return found
        if self._embedder is not None and len(normalise(word)) >= 2:
            match = self._embedder.match(word, installed.apps)
            if match is not None:
                logger.debug("embedding match -> %s (%.3f)", match.app.label, match.score)
                return match
        return None

    def is_app_word(self, word: str) -> bool:
        """Whether the table knows this word as some app, installed or not."""
        key = normalise(word)
        return key in self._table.word_to_label or key in self._table.word_to_elsewhere


def load_catalog(path: Path | None = None) -> tuple[AppRef, ...]:
    """An installed-app list as JSON ([{name, packageName}]); default: the shipped catalog."""
    path = path or resources.path("apps_galaxy_ko.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    return tuple(AppRef(label=a["name"], package=a["packageName"]) for a in raw)
