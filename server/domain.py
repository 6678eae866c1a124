"""Internal types the pipeline stages speak. Only `schemas` knows the JSON contract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class AppRef:
    """An installed app: its own label and its package name."""

    label: str
    package: str


@dataclass(frozen=True)
class AppMatch:
    """The mapper's answer for one user word."""

    word: str
    app: AppRef
    score: float  # 1.0 for exact/alias hits; cosine for embedding hits
    method: Literal["exact", "alias", "normalised", "embedding", "model"]
    margin: float = 1.0  # score gap to the runner-up app


@dataclass(frozen=True)
class GateDecision:
    chitchat: bool
    p_command: float  # the gate's probability that the text is a notification command


EmbeddingKind = Literal["query", "passage"]


class SentenceEncoder(Protocol):
    """Maps texts to L2-normalised vectors (one row per text)."""

    @property
    def model_id(self) -> str: ...

    def embed(
        self, texts: Sequence[str], kind: EmbeddingKind = "query"
    ) -> npt.NDArray[np.float32]: ...


class ChitchatGate(Protocol):
    def decide(self, text: str) -> GateDecision: ...


class AppWordMatcher(Protocol):
    """Resolves one user word ("플레이스토어") to one installed app, or None when unsure."""

    def match(self, word: str, installed: Sequence[AppRef]) -> AppMatch | None: ...
