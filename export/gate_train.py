"""Training the chitchat gate (`notillm-local train-gate`): scikit-learn, never loaded by serving.

The fitted StandardScaler + LogisticRegression is folded into one linear model and written as
the small JSON file that `notillm_local.stages.gate` serves.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from notillm_local.domain import SentenceEncoder
from notillm_local.eval import data_path
from notillm_local.stages.gate import (
    GATE_FORMAT,
    LABELS,
    LogisticChitchatGate,
    default_gate_path,
    encoder_identity,
    read_labelled,
)

logger = logging.getLogger(__name__)

# Rejecting a command costs this many times more than letting chitchat through.
REJECT_COMMAND_COST = 5.0
# Never reject above this p_command whatever the CV says: an unsure gate lets the text through.
MAX_THRESHOLD = 0.5
C_GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 4.0, 16.0, 64.0)
CV_FOLDS = 5
SEED = 0


def default_train_path() -> Path:
    return data_path("gate_train.jsonl")


def default_heldout_path() -> Path:
    return data_path("gate_heldout.jsonl")


def _choose_threshold(p_oof: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> float:
    """Lowest-cost threshold on out-of-fold probabilities, rejected commands weighted up."""
    candidates = np.unique(np.concatenate([p_oof, [MAX_THRESHOLD]]))
    candidates = candidates[candidates <= MAX_THRESHOLD]
    best_t, best_cost = MAX_THRESHOLD, math.inf
    for t in candidates:
        rejected_cmd = np.sum((p_oof < t) & (y == 1))
        passed_chat = np.sum((p_oof >= t) & (y == 0))
        cost = REJECT_COMMAND_COST * rejected_cmd + passed_chat
        # ties: prefer the lower threshold (lets more through)
        if cost < best_cost:
            best_t, best_cost = float(t), float(cost)
    # Put the threshold midway into the gap below the chosen point, not on a training example.
    below = p_oof[p_oof < best_t]
    if below.size:
        best_t = float((best_t + below.max()) / 2)
    return best_t


def evaluate_gate(gate: LogisticChitchatGate, path: Path) -> dict[str, Any]:
    texts, y = read_labelled(path)
    p = gate.p_command(texts)
    pred = (p >= gate.threshold).astype(np.int64)
    cm = [[int(np.sum((y == a) & (pred == b))) for b in (0, 1)] for a in (0, 1)]
    errors = [
        {"text": t, "label": LABELS[int(a)], "p_command": round(float(q), 4)}
        for t, a, b, q in zip(texts, y, pred, p, strict=True) if a != b
    ]
    return {
        "path": str(path),
        "n": len(texts),
        "accuracy": float(np.mean(pred == y)),
        "confusion": {"labels": list(LABELS), "rows_true_cols_pred": cm},
        "errors": errors,
    }


def train_gate(
    encoder: SentenceEncoder,
    train_path: Path | None = None,
    out_path: Path | None = None,
    *,
    heldout_path: Path | None = None,
    report_path: Path | None = None,
) -> dict[str, Any]:
    """Fit the gate, save gate.json (and report.md when a held-out set is given); return metrics."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import StandardScaler

    train_path = Path(train_path or default_train_path())
    out_path = Path(out_path or default_gate_path())
    heldout_path = heldout_path or default_heldout_path()
    if report_path is None:
        report_path = out_path.with_name("report.md")
    texts, y = read_labelled(train_path)
    x = encoder.embed(texts, "query").astype(np.float64)
    folds = StratifiedKFold(n_splits=CV_FOLDS, shuffle=True, random_state=SEED)

    # Standardising first matters: e5's unit vectors vary little per dimension, and an
    # unscaled LR needed C in the hundreds to separate near misses (measured in docs/encoder.md).
    def model(c: float) -> Pipeline:
        return make_pipeline(
            StandardScaler(), LogisticRegression(C=c, class_weight="balanced", max_iter=5000)
        )

    scores: dict[float, float] = {}
    oof: dict[float, npt.NDArray[np.float64]] = {}
    for c in C_GRID:
        oof[c] = cross_val_predict(model(c), x, y, cv=folds, method="predict_proba")[:, 1]
        scores[c] = float(np.mean((oof[c] >= 0.5) == y))
    best_c = max(C_GRID, key=lambda c: (scores[c], -c))  # ties: the stronger regulariser
    threshold = _choose_threshold(oof[best_c], y)
    cv_pred = oof[best_c] >= threshold
    final = model(best_c).fit(x, y)
    scaler, lr = final[0], final[-1]
    # Fold the scaler into the linear model so serving is one dot product.
    coef = lr.coef_[0] / scaler.scale_
    intercept = float(lr.intercept_[0] - np.dot(coef, scaler.mean_))

    metrics: dict[str, Any] = {
        "n_train": len(texts),
        "train_counts": {lab: int(np.sum(y == i)) for i, lab in enumerate(LABELS)},
        "C": best_c,
        "cv_accuracy_at_0.5": scores[best_c],
        "cv_accuracy_by_C": {str(c): round(s, 4) for c, s in scores.items()},
        "threshold": threshold,
        "cv_accuracy_at_threshold": float(np.mean(cv_pred == y)),
        "cv_commands_rejected": int(np.sum(~cv_pred & (y == 1))),
        "cv_chitchat_passed": int(np.sum(cv_pred & (y == 0))),
    }
    data = {
        "format": GATE_FORMAT,
        "kind": "logistic_regression",
        "labels": list(LABELS),
        "coef": [float(v) for v in coef],
        "intercept": intercept,
        "threshold": threshold,
        "encoder": encoder_identity(encoder),
        "embedding_kind": "query",
        "train_data": {
            "file": train_path.name,
            "sha256": hashlib.sha256(train_path.read_bytes()).hexdigest(),
            "n": len(texts),
        },
        "fit": {k: v for k, v in metrics.items() if k not in ("n_train",)}
        | {"reject_command_cost": REJECT_COMMAND_COST, "cv_folds": CV_FOLDS},
    }
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(out_path)
    logger.info("gate saved to %s (C=%s, threshold %.3f)", out_path, best_c, threshold)

    if heldout_path is not None and Path(heldout_path).is_file():
        gate = LogisticChitchatGate(out_path, encoder)
        metrics["heldout"] = evaluate_gate(gate, Path(heldout_path))
        logger.info("gate held-out accuracy %.4f", metrics["heldout"]["accuracy"])
        if report_path is not None:
            write_report(metrics, data, Path(report_path))
    return metrics


def write_report(metrics: dict[str, Any], data: dict[str, Any], path: Path) -> None:
    held = metrics["heldout"]
    cm = held["confusion"]["rows_true_cols_pred"]
    lines = [
        "# Chitchat gate report",
        "",
        "Generated by `train_gate` (`notillm-local train-gate`); do not edit by hand.",
        "",
        f"- encoder: `{data['encoder']['model_id']}` (weights "
        f"`{data['encoder']['weights_hash'][:16]}…`)",
        f"- training data: `{data['train_data']['file']}`, {metrics['n_train']} utterances "
        f"({metrics['train_counts']['command']} command, "
        f"{metrics['train_counts']['chitchat']} chitchat), sha256 "
        f"`{data['train_data']['sha256'][:16]}…`",
        f"- StandardScaler + LogisticRegression C={metrics['C']} (balanced classes), chosen by {CV_FOLDS}-fold CV "
        f"accuracy: {metrics['cv_accuracy_by_C']}",
        f"- threshold: reject when p_command < **{metrics['threshold']:.3f}** (CV, a rejected "
        f"command costing {REJECT_COMMAND_COST:g}× a passed chitchat, capped at "
        f"{MAX_THRESHOLD}); CV accuracy at it {metrics['cv_accuracy_at_threshold']:.4f}, "
        f"commands rejected {metrics['cv_commands_rejected']}, chitchat passed "
        f"{metrics['cv_chitchat_passed']}",
        "",
        f"## Held-out set (`{Path(held['path']).name}`, n={held['n']})",
        "",
        f"Accuracy: **{held['accuracy']:.4f}**",
        "",
        "| true \\ predicted | chitchat (rejected) | command (passed) |",
        "|---|---|---|",
        f"| chitchat | {cm[0][0]} | {cm[0][1]} |",
        f"| command | {cm[1][0]} | {cm[1][1]} |",
        "",
    ]
    if held["errors"]:
        lines += ["Errors:", ""]
        lines += [
            f"- `{e['text']}` — labelled {e['label']}, p_command {e['p_command']:.3f}"
            for e in held["errors"]
        ]
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
