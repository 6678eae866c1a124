"""The chitchat gate: LogisticRegression on sentence embeddings, before any model call.

The trained gate is a small JSON file (coefficients, threshold, the hash of its training data
and the identity of the encoder it was trained on): loading it runs no code, and a gate whose
encoder differs from the one given is refused, since its coefficients would be meaningless.

The threshold is deliberately low: a command wrongly rejected is lost to the user, while
chitchat wrongly let through only costs one model call. So the gate rejects only when the
probability of a command is below a threshold fitted by cross-validation with that asymmetry.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .domain import GateDecision, SentenceEncoder
from .errors import ModelLoadError
from .settings import MODELS_DIR, REPO_ROOT

logger = logging.getLogger(__name__)

GATE_FORMAT = 1
DEFAULT_GATE_PATH = MODELS_DIR / "gate" / "gate.json"
DEFAULT_REPORT_PATH = MODELS_DIR / "gate" / "report.md"
DEFAULT_TRAIN_PATH = REPO_ROOT / "eval" / "data" / "gate_train.jsonl"
DEFAULT_HELDOUT_PATH = REPO_ROOT / "eval" / "data" / "gate_heldout.jsonl"
LABELS = ("chitchat", "command")

# Rejecting a command costs this many times more than letting chitchat through.
REJECT_COMMAND_COST = 5.0
# Never reject above this p_command whatever the CV says: an unsure gate lets the text through.
MAX_THRESHOLD = 0.5
C_GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 4.0, 16.0, 64.0)
CV_FOLDS = 5
SEED = 0


def _encoder_identity(encoder: SentenceEncoder) -> dict[str, str]:
    weights = getattr(encoder, "weights_hash", None)
    if not weights:
        raise ModelLoadError("the gate needs an encoder that reports its weights_hash")
    return {"model_id": encoder.model_id, "weights_hash": str(weights)}


def gate_matches(path: Path, encoder: SentenceEncoder) -> bool:
    """Whether the gate file exists and was trained on exactly this encoder export."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    got = data.get("encoder") if isinstance(data, dict) else None
    return isinstance(got, dict) and all(
        got.get(k) == v for k, v in _encoder_identity(encoder).items()
    )


def read_labelled(path: Path) -> tuple[list[str], npt.NDArray[np.int64]]:
    """A JSONL file of {"text", "label"} rows; label 1 = command."""
    texts: list[str] = []
    labels: list[int] = []
    with Path(path).open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("label") not in LABELS:
                raise ValueError(f"{path}:{n}: label must be one of {LABELS}")
            texts.append(str(row["text"]))
            labels.append(LABELS.index(row["label"]))
    if len(set(labels)) != 2:
        raise ValueError(f"{path}: needs both labels")
    return texts, np.asarray(labels, dtype=np.int64)


def _sigmoid(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return 1.0 / (1.0 + np.exp(-z))


class LogisticChitchatGate:
    """ChitchatGate over a saved gate.json and the encoder it was trained with."""

    def __init__(self, path: Path, encoder: SentenceEncoder) -> None:
        self.path = Path(path)
        self.encoder = encoder
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise ModelLoadError(f"gate file missing: {self.path}") from exc
        except (OSError, ValueError) as exc:
            raise ModelLoadError(f"gate file unreadable: {self.path}: {exc}") from exc
        if not isinstance(data, dict) or data.get("format") != GATE_FORMAT:
            raise ModelLoadError(f"gate file {self.path} has an unknown format")
        want = _encoder_identity(encoder)
        got = data.get("encoder") or {}
        if got.get("model_id") != want["model_id"] or got.get("weights_hash") != want["weights_hash"]:
            raise ModelLoadError(
                f"gate {self.path} was trained on encoder {got.get('model_id')} "
                f"({str(got.get('weights_hash'))[:12]}), not on the loaded "
                f"{want['model_id']} ({want['weights_hash'][:12]}); retrain it "
                "(notillm-local train-gate)"
            )
        try:
            self.coef = np.asarray(data["coef"], dtype=np.float64)
            self.intercept = float(data["intercept"])
            self.threshold = float(data["threshold"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(f"gate file {self.path} is malformed: {exc}") from exc
        dim = getattr(encoder, "dim", None)
        if dim is not None and self.coef.shape != (int(dim),):
            raise ModelLoadError(f"gate has {self.coef.shape} coefficients, encoder dim {dim}")
        if not (0.0 < self.threshold < 1.0) or not np.all(np.isfinite(self.coef)):
            raise ModelLoadError(f"gate file {self.path} holds invalid numbers")
        self.train_sha256 = str(data.get("train_data", {}).get("sha256", ""))

    def p_command(self, texts: Sequence[str]) -> npt.NDArray[np.float64]:
        x = self.encoder.embed(texts, "query").astype(np.float64)
        return _sigmoid(x @ self.coef + self.intercept)

    def decide(self, text: str) -> GateDecision:
        p = float(self.p_command([text])[0])
        return GateDecision(chitchat=p < self.threshold, p_command=p)


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
    train_path: Path = DEFAULT_TRAIN_PATH,
    out_path: Path = DEFAULT_GATE_PATH,
    *,
    heldout_path: Path | None = DEFAULT_HELDOUT_PATH,
    report_path: Path | None = DEFAULT_REPORT_PATH,
) -> dict[str, Any]:
    """Fit the gate, save gate.json (and report.md when a held-out set is given); return metrics."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import StandardScaler

    train_path, out_path = Path(train_path), Path(out_path)
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
        "encoder": _encoder_identity(encoder),
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
