"""Mapper v2: resolve a user's app word to an installed label by synonyms + embeddings.

Runs after the alias table. The word is expanded through concept synonym groups
(models/app_synonyms.json: 문자 ≈ 메시지 ≈ SMS), every expansion is scored against every
installed label's embedding, each app keeps its best score, and the best app is accepted only
above a fitted threshold and with a fitted margin over the runner-up (models/app_matcher.json,
fitted on eval/data/alias_pairs.jsonl by `fit_app_matcher`). e5's cosines crowd into 0.8–1.0,
so both numbers must be fitted, never guessed.
"""

from __future__ import annotations

import json
import logging
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from notillm_local import resources
from notillm_local.domain import AppMatch, AppRef, EmbeddingKind, SentenceEncoder
from notillm_local.errors import ModelLoadError

logger = logging.getLogger(__name__)

_LABEL_CACHE_MAX = 4096  # labels across every device we have seen; far above any real catalog


def normalise(word: str) -> str:
    """Case-, width- and space-insensitive key ("Play 스토어" == "play스토어")."""
    return "".join(unicodedata.normalize("NFKC", word).casefold().split())


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
        self._labels: dict[str, npt.NDArray[np.float32]] = {}
        self._words: dict[str, npt.NDArray[np.float32]] = {}
        self._lock = threading.Lock()

    # --- embedding caches (computed once per string) ----------------------------------------
    def _cached(
        self, cache: dict[str, npt.NDArray[np.float32]], texts: Sequence[str], kind: EmbeddingKind
    ) -> npt.NDArray[np.float32]:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in cache))
        if missing:
            vecs = self.encoder.embed(missing, kind)
            with self._lock:
                if len(cache) + len(missing) > _LABEL_CACHE_MAX:
                    cache.clear()  # crude but bounded; refilling costs one batch
                cache.update(zip(missing, vecs, strict=True))
                return np.stack([cache[t] for t in texts])
        with self._lock:
            return np.stack([cache[t] for t in texts])

    def label_vectors(self, labels: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._cached(self._labels, labels, self.label_kind)

    def warm(self, installed: Sequence[AppRef]) -> None:
        """Embed a catalog's labels ahead of the first request."""
        if installed:
            self.label_vectors([a.label for a in installed])

    # --- scoring ----------------------------------------------------------------------------
    def scores(self, word: str, installed: Sequence[AppRef]) -> npt.NDArray[np.float32]:
        """Each installed app's best cosine over the word's expansions."""
        expansions = self.synonyms.expand(word)
        w = self._cached(self._words, expansions, self.word_kind)
        lab = self.label_vectors([a.label for a in installed])
        return (w @ lab.T).max(axis=0)

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
        return AppMatch(
            word=word, app=installed[int(order[0])], score=best, method="embedding",
            margin=best - runner,
        )
