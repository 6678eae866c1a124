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

from .domain import AppMatch, AppRef, EmbeddingKind, SentenceEncoder
from .errors import ModelLoadError
from .settings import DEFAULT_APPS_CATALOG, MODELS_DIR, REPO_ROOT

logger = logging.getLogger(__name__)

DEFAULT_SYNONYMS_PATH = MODELS_DIR / "app_synonyms.json"
DEFAULT_MATCHER_PATH = MODELS_DIR / "app_matcher.json"
DEFAULT_ALIAS_PAIRS_PATH = REPO_ROOT / "eval" / "data" / "alias_pairs.jsonl"
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
    def load(cls, path: Path = DEFAULT_SYNONYMS_PATH) -> SynonymGroups:
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


def load_matcher_config(path: Path = DEFAULT_MATCHER_PATH) -> dict[str, Any]:
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
        config_path: Path = DEFAULT_MATCHER_PATH,
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


# --- fitting ------------------------------------------------------------------------------
def read_catalog(path: Path = DEFAULT_APPS_CATALOG) -> list[AppRef]:
    rows = json.loads(Path(path).read_text(encoding="utf-8"))
    return [AppRef(label=r["name"], package=r["packageName"]) for r in rows]


def read_alias_pairs(path: Path = DEFAULT_ALIAS_PAIRS_PATH) -> list[tuple[str, str | None]]:
    out = []
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                out.append((str(row["word"]), row["label"]))
    return out


def _decide(best: npt.NDArray[np.float64], gap: npt.NDArray[np.float64],
            exact: npt.NDArray[np.bool_], t: float, m: float) -> npt.NDArray[np.bool_]:
    return exact | ((best >= t) & (gap >= m))


def evaluate_pairs(
    matcher: EmbeddingAppMatcher, pairs: Sequence[tuple[str, str | None]],
    installed: Sequence[AppRef],
) -> dict[str, Any]:
    wrong: list[dict[str, Any]] = []
    correct = 0
    for word, label in pairs:
        hit = matcher.match(word, installed)
        got = hit.app.label if hit else None
        if got == label:
            correct += 1
        else:
            wrong.append({"word": word, "label": label, "got": got,
                          "score": round(hit.score, 4) if hit else None})
    return {"n": len(pairs), "accuracy": correct / len(pairs), "errors": wrong}


def fit_app_matcher(
    encoder: SentenceEncoder,
    pairs_path: Path = DEFAULT_ALIAS_PAIRS_PATH,
    catalog_path: Path = DEFAULT_APPS_CATALOG,
    out_path: Path | None = DEFAULT_MATCHER_PATH,
    *,
    synonyms: SynonymGroups | None = None,
) -> dict[str, Any]:
    """Pick embedding kinds, threshold and margin on the alias set; write app_matcher.json.

    A wrong app silently mutes the wrong thing, while None only asks the user, so a wrong
    accept costs twice a missed one.
    """
    pairs = read_alias_pairs(pairs_path)
    installed = read_catalog(catalog_path)
    labels = [a.label for a in installed]
    syn = synonyms if synonyms is not None else SynonymGroups.load()
    truth = np.array([labels.index(lab) if lab is not None else -1 for _, lab in pairs])
    results: dict[str, Any] = {}
    best_cfg: dict[str, Any] | None = None
    for word_kind in ("query", "passage"):
        for label_kind in ("query", "passage"):
            m = EmbeddingAppMatcher(encoder, synonyms=syn, threshold=0.0, margin=0.0,
                                    word_kind=word_kind, label_kind=label_kind)  # type: ignore[arg-type]
            top, best, gap, exact = [], [], [], []
            for word, _ in pairs:
                keys = {normalise(e) for e in syn.expand(word)}
                ex = [i for i, lab in enumerate(labels) if normalise(lab) in keys]
                s = m.scores(word, installed)
                o = np.argsort(-s)
                top.append(ex[0] if len(ex) == 1 else int(o[0]))
                exact.append(len(ex) == 1)
                best.append(float(s[o[0]]))
                gap.append(float(s[o[0]] - s[o[1]]))
            top_a, best_a, gap_a, exact_a = map(np.asarray, (top, best, gap, exact))
            installed_mask = truth >= 0
            raw_top1 = float(np.mean(top_a[installed_mask] == truth[installed_mask]))
            fit = None
            for t in np.arange(0.80, 0.991, 0.0025):
                for mg in np.arange(0.0, 0.0601, 0.0025):
                    acc = _decide(best_a, gap_a, exact_a, float(t), float(mg))
                    pred = np.where(acc, top_a, -1)
                    wrong_accept = int(np.sum((pred >= 0) & (pred != truth)))
                    missed = int(np.sum((pred == -1) & (truth >= 0)))
                    cost = 2 * wrong_accept + missed
                    key = (cost, -float(np.mean(pred == truth)), -t, -mg)
                    if fit is None or key < fit[0]:
                        fit = (key, float(t), float(mg), float(np.mean(pred == truth)),
                               wrong_accept, missed)
            assert fit is not None
            name = f"{word_kind}/{label_kind}"
            results[name] = {
                "raw_top1_installed": round(raw_top1, 4),
                "threshold": round(fit[1], 4), "margin": round(fit[2], 4),
                "accuracy": round(fit[3], 4), "wrong_accepts": fit[4], "missed": fit[5],
            }
            if best_cfg is None or fit[0] < best_cfg["_key"]:
                best_cfg = {"_key": fit[0], "word_kind": word_kind, "label_kind": label_kind,
                            "threshold": round(fit[1], 4), "margin": round(fit[2], 4)}
    assert best_cfg is not None
    best_cfg.pop("_key")
    final = EmbeddingAppMatcher(encoder, synonyms=syn, **best_cfg)
    report = evaluate_pairs(final, pairs, installed)
    # the same numbers without synonym expansion, to show what the embeddings do alone
    bare = EmbeddingAppMatcher(encoder, synonyms=SynonymGroups([]), **best_cfg)
    bare_report = evaluate_pairs(bare, pairs, installed)
    config = best_cfg | {
        "fitted_on": Path(pairs_path).name,
        "n_pairs": len(pairs),
        "n_not_installed": int(np.sum(truth < 0)),
        "accuracy": round(report["accuracy"], 4),
        "accuracy_without_synonyms": round(bare_report["accuracy"], 4),
        "encoder": {"model_id": encoder.model_id,
                    "weights_hash": str(getattr(encoder, "weights_hash", ""))},
        "by_kind": results,
    }
    if out_path is not None:
        Path(out_path).write_text(json.dumps(config, indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
        logger.info("app matcher fitted: %s", {k: config[k] for k in best_cfg})
    return config | {"errors": report["errors"], "errors_without_synonyms": bare_report["errors"]}
