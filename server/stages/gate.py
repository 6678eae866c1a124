"""The chitchat gate: LogisticRegression on sentence embeddings, before any model call.

The trained gate is a small JSON file (coefficients, threshold, the hash of its training data
and the identity of the encoder it was trained on): loading it runs no code, and a gate whose
encoder differs from the one given is refused, since its coefficients would be meaningless.

The threshold is deliberately low: a command wrongly rejected is lost to the user, while
chitchat wrongly let through only costs one model call. So the gate rejects only when the
probability of a command is below a threshold fitted by cross-validation with that asymmetry.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from notillm_local import resources
from notillm_local.domain import GateDecision, SentenceEncoder
from notillm_local.errors import ModelLoadError

logger = logging.getLogger(__name__)

GATE_FORMAT = 1
LABELS = ("chitchat", "command")


def default_gate_path() -> Path:
    return resources.path("gate", "gate.json")


class EncoderIdentity(Protocol):
    """What ties a gate to one encoder export (an encoder, or its manifest)."""

    @property
    def model_id(self) -> str: ...

    @property
    def weights_hash(self) -> str: ...


def encoder_identity(encoder: SentenceEncoder | EncoderIdentity) -> dict[str, str]:
    weights = getattr(encoder, "weights_hash", None)
    if not weights:
        raise ModelLoadError("the gate needs an encoder that reports its weights_hash")
    return {"model_id": encoder.model_id, "weights_hash": str(weights)}


def gate_matches(path: Path, encoder: SentenceEncoder | EncoderIdentity) -> bool:
    """Whether the gate file exists and was trained on exactly this encoder export."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    got = data.get("encoder") if isinstance(data, dict) else None
    return isinstance(got, dict) and all(
        got.get(k) == v for k, v in encoder_identity(encoder).items()
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
        want = encoder_identity(encoder)
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
        return GateDecision(chitchat=p < self.threshold, p_command=p, threshold=self.threshold)
