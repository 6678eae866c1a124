"""Fitting the embedding app matcher's threshold and margin on the alias pairs (export tooling)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from notillm_local import resources
from notillm_local.domain import AppRef, SentenceEncoder
from notillm_local.eval import data_path
from notillm_local.stages.app_embed import EmbeddingAppMatcher, SynonymGroups, normalise

logger = logging.getLogger(__name__)


def read_catalog(path: Path | None = None) -> list[AppRef]:
    rows = json.loads(Path(path or resources.path("apps_galaxy_ko.json")).read_text(encoding="utf-8"))
    return [AppRef(label=r["name"], package=r["packageName"]) for r in rows]


def read_alias_pairs(path: Path | None = None) -> list[tuple[str, str | None]]:
    out = []
    with Path(path or data_path("alias_pairs.jsonl")).open(encoding="utf-8") as fh:
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
    pairs_path: Path | None = None,
    catalog_path: Path | None = None,
    out_path: Path | None = None,
    *,
    synonyms: SynonymGroups | None = None,
) -> dict[str, Any]:
    """Pick embedding kinds, threshold and margin on the alias set; write app_matcher.json.

    A wrong app silently mutes the wrong thing, while None only asks the user, so a wrong
    accept costs twice a missed one.
    """
    pairs_path = pairs_path or data_path("alias_pairs.jsonl")
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
