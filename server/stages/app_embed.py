"""Mapper v2: resolve a user's app word to an installed label by synonyms + embeddings.

Runs after the alias table. The word is expanded through concept synonym groups
(resources/app_synonyms.json: 문자 ≈ 메시지 ≈ SMS), every expansion is scored against every
installed label's embedding, each app keeps its best score, and the best app is accepted only
above a fitted threshold and with a fitted margin over the runner-up (resources/app_matcher.json,
fitted on eval/data/alias_pairs.jsonl by `fit_app_matcher`). e5's cosines crowd into 0.8–1.0,
so both numbers must be fitted, never guessed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from notillm_local import lexicon, resources
from notillm_local.domain import AppMatch, AppRef, EmbeddingKind, SentenceEncoder
from notillm_local.errors import ModelLoadError
from notillm_local.lexicon import normalise

logger = logging.getLogger(__name__)

# Embedding caches, all bounded (issue 16: a flood of requests with new labels must not grow
# memory or cost a re-embedding of a phone's catalog on every request).
_TEXT_CACHE_MAX = 4096  # single labels (a phone that installs one app re-embeds one) and words
_CATALOG_CACHE_MAX = 32  # label lists kept as ready matrices, besides the pinned default ones
Vectors = npt.NDArray[np.float32]
_HANGUL = re.compile(r"[가-힣]")


def names_more_than(word: str, label: str) -> bool:
    """Whether `word` holds more than one app's name: a glued run that names two apps
    ("레진이랑시리즈", "봄툰레진") is close to each of them in meaning, and an embedding match
    for one would drop the other. A run joined inside by 이랑/하고 always does; in the label's
    script (Hangul), so does one that leaves a piece of two syllables or more beside the longest
    stretch it shares with the label, notification nouns aside ("쿠킹덤" for 쿠키런: 킹덤 leaves
    one, "맬론알림쫌" for 멜론 "맬" and "쫌")."""
    key, name = normalise(word), normalise(label)
    joins = lexicon.pattern("markers", "joins_names")
    if any(0 < m.start() and m.end() < len(key) for m in joins.finditer(key)):
        return True
    if not _HANGUL.search(key) or not _HANGUL.search(name) or re.search(r"[a-z]", name):
        # Across scripts ("뉴욕타임스" for NYTimes, "플레이스토어" for Play 스토어) the part not
        # shared may be the label's Latin part said in Hangul.
        return False
    at, _, size = SequenceMatcher(None, key, name, autojunk=False).find_longest_match()
    nouns = lexicon.pattern("markers", "notification_nouns")
    left = [nouns.sub(" ", joins.sub(" ", key[:at])), nouns.sub(" ", key[at + size :])]
    return any(len(_HANGUL.findall(piece)) >= 2 for part in left for piece in part.split())


def catalog_key(labels: Sequence[str]) -> str:
    """One key per ordered label list: the rows of its matrix follow that order."""
    h = hashlib.blake2b(digest_size=16)
    for label in labels:
        h.update(label.encode("utf-8", "surrogatepass") + b"\x00")
    return h.hexdigest()


class _Lru:
    """A bounded least-recently-used map; the caller holds the matcher's lock."""

    def __init__(self, max_size: int) -> None:
        self._items: OrderedDict[str, Vectors] = OrderedDict()
        self._max = max_size

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> Vectors | None:
        v = self._items.get(key)
        if v is not None:
            self._items.move_to_end(key)
        return v

    def put(self, key: str, value: Vectors) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._max:
            self._items.popitem(last=False)


# "슬랙 앱", "카톡알림": the suffix says what kind of thing the word is, not which app.
_GENERIC_SUFFIXES = ("어플리케이션", "어플", "알림", "app", "앱")


def strip_generic_suffix(word: str) -> str:
    w = word.strip()
    for suffix in _GENERIC_SUFFIXES:
        if w.casefold().endswith(suffix) and len(w) - len(suffix) >= 1:
            stem = w[: len(w) - len(suffix)].strip()
            if len(normalise(stem)) >= 1:
                return stem
    return w


class SynonymGroups:
    def __init__(self, groups: Iterable[Sequence[str]]) -> None:
        self._by_key: dict[str, list[str]] = {}
        for group in groups:
            members = [str(m) for m in group]
            for m in members:
                # a word in two groups expands to both
                bucket = self._by_key.setdefault(normalise(m), [])
                bucket.extend(x for x in members if x not in bucket)

    @classmethod
    def load(cls, path: Path | None = None) -> SynonymGroups:
        path = path or resources.path("app_synonyms.json")
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(data["groups"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelLoadError(f"synonym groups unreadable: {path}: {exc}") from exc

    def expand(self, word: str) -> list[str]:
        word = word.strip()
        out = [word]
        stem = strip_generic_suffix(word)
        if stem != word:
            out.append(stem)
        for w in list(out):
            out += [m for m in self._by_key.get(normalise(w), []) if m not in out]
        return out


def load_matcher_config(path: Path | None = None) -> dict[str, Any]:
    path = path or resources.path("app_matcher.json")
    try:
        cfg = json.loads(Path(path).read_text(encoding="utf-8"))
        float(cfg["threshold"])
        float(cfg["margin"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelLoadError(f"app matcher config unreadable: {path}: {exc}") from exc
    return dict(cfg)


class EmbeddingAppMatcher:
    """AppWordMatcher: synonym expansion, then cosine against installed labels."""

    def __init__(
        self,
        encoder: SentenceEncoder,
        *,
        synonyms: SynonymGroups | None = None,
        threshold: float | None = None,
        margin: float | None = None,
        word_kind: EmbeddingKind | None = None,
        label_kind: EmbeddingKind | None = None,
        config_path: Path | None = None,
    ) -> None:
        cfg: dict[str, Any] = {}
        if None in (threshold, margin, word_kind, label_kind):
            cfg = load_matcher_config(config_path)
        self.encoder = encoder
        self.synonyms = synonyms if synonyms is not None else SynonymGroups.load()
        self.threshold = float(threshold if threshold is not None else cfg["threshold"])
        self.margin = float(margin if margin is not None else cfg["margin"])
        self.word_kind: EmbeddingKind = word_kind or cfg.get("word_kind", "query")
        self.label_kind: EmbeddingKind = label_kind or cfg.get("label_kind", "query")
        self._labels = _Lru(_TEXT_CACHE_MAX)
        self._words = _Lru(_TEXT_CACHE_MAX)
        self._catalogs = _Lru(_CATALOG_CACHE_MAX)
        self._pinned: dict[str, Vectors] = {}  # warm(): the default catalog, computed once
        self._building: dict[str, threading.Event] = {}  # catalogs being embedded right now
        self._lock = threading.Lock()
        self.embedded_texts = 0  # texts sent to the encoder so far (tests count cache misses)

    # --- embedding caches ------------------------------------------------------------------
    def _cached(self, cache: _Lru, texts: Sequence[str], kind: EmbeddingKind) -> Vectors:
        """Vectors for `texts` in order, embedding only those the cache lacks."""
        with self._lock:
            found = {t: v for t in dict.fromkeys(texts) if (v := cache.get(t)) is not None}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            vecs = self.encoder.embed(missing, kind)
            found.update(zip(missing, vecs, strict=True))
            with self._lock:
                self.embedded_texts += len(missing)
                for t, v in zip(missing, vecs, strict=True):
                    cache.put(t, v)
        return np.stack([found[t] for t in texts])

    def label_vectors(self, labels: Sequence[str]) -> Vectors:
        """The matrix of a label list, cached per list. One thread embeds a new list; others
        asking for the same list meanwhile wait for it instead of embedding it again."""
        key = catalog_key(labels)
        with self._lock:
            found = self._find_catalog(key)
            if found is not None:
                return found
            other = self._building.get(key)
            mine = threading.Event()
            if other is None:
                self._building[key] = mine
        if other is not None:
            other.wait()
            with self._lock:
                found = self._find_catalog(key)
            # None: the other thread failed, or its matrix was evicted already; embed it here.
            return found if found is not None else self._cached(
                self._labels, labels, self.label_kind
            )
        try:
            matrix = self._cached(self._labels, labels, self.label_kind)
            with self._lock:
                self._catalogs.put(key, matrix)
            return matrix
        finally:
            with self._lock:
                del self._building[key]
            mine.set()

    def _find_catalog(self, key: str) -> Vectors | None:
        found = self._pinned.get(key)
        return found if found is not None else self._catalogs.get(key)

    def warm(self, installed: Sequence[AppRef]) -> None:
        """Embed a catalog's labels ahead of the first request, and keep them for good."""
        if installed:
            labels = [a.label for a in installed]
            matrix = self.label_vectors(labels)
            with self._lock:
                self._pinned[catalog_key(labels)] = matrix

    # --- scoring ----------------------------------------------------------------------------
    def scores(self, word: str, installed: Sequence[AppRef]) -> Vectors:
        """Each installed app's best cosine over the word's expansions."""
        expansions = self.synonyms.expand(word)
        w = self._cached(self._words, expansions, self.word_kind)
        lab = self.label_vectors([a.label for a in installed])
        return (w @ lab.T).max(axis=0)

    def leader(self, word: str, installed: Sequence[AppRef], margin: float) -> AppRef | None:
        if not word.strip() or not installed:
            return None
        s = self.scores(word, installed)
        order = np.argsort(-s)
        best = installed[int(order[0])]
        # A label listed twice is one app, not its own runner-up.
        runner = next((int(i) for i in order[1:] if installed[int(i)].label != best.label), None)
        if runner is not None and float(s[order[0]] - s[runner]) < margin:
            return None
        return best

    def match(self, word: str, installed: Sequence[AppRef]) -> AppMatch | None:
        if not word.strip() or not installed:
            return None
        keys = {normalise(e) for e in self.synonyms.expand(word)}
        exact = [a for a in installed if normalise(a.label) in keys]
        if len(exact) == 1:
            return AppMatch(word=word, app=exact[0], score=1.0, method="normalised")
        s = self.scores(word, installed)
        order = np.argsort(-s)
        best = float(s[order[0]])
        runner = float(s[order[1]]) if len(order) > 1 else 0.0
        if best < self.threshold or best - runner < self.margin:
            return None
        if names_more_than(word, installed[int(order[0])].label):
            return None
        return AppMatch(
            word=word, app=installed[int(order[0])], score=best, method="embedding",
            margin=best - runner,
        )
