"""Internal types the pipeline stages speak. Only `schemas` knows the JSON contract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

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
    method: Literal["exact", "alias", "normalised", "fuzzy", "sound", "part", "clipped", "embedding", "model"]
    margin: float = 1.0  # score gap to the runner-up app


@dataclass(frozen=True)
class TimeCondition:
    """When a rule applies: the occurrence in force now or next, and its recurrence."""

    delivery: datetime
    expires: datetime
    recurrence: str = "none"
    days_of_week: tuple[int, ...] = ()
    window_start: str | None = None
    window_end: str | None = None

    def to_contract(self) -> dict[str, Any]:
        return {
            "delivery": self.delivery.isoformat(timespec="seconds"),
            "expires": self.expires.isoformat(timespec="seconds"),
            "recurrence": self.recurrence,
            "days_of_week": list(self.days_of_week),
            "window_start": self.window_start,
            "window_end": self.window_end,
            "activity": None,
            "location": None,
        }


@dataclass(frozen=True)
class GateDecision:
    chitchat: bool
    p_command: float  # the gate's probability that the text is a notification command
    threshold: float = 0.5  # below it the text is rejected as chitchat


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

    def leader(self, word: str, installed: Sequence[AppRef], margin: float) -> AppRef | None:
        """The installed app most like the word when it leads the next by `margin` (no
        threshold on the score itself), else None."""
        ...
