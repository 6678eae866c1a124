"""The example record and what it must never equal.

The adapter's prompt prefix and the record layout it is trained and served with, the slot-answer
words, `Example` (one command, its installed list and its three answers), and the evaluation
prompts no generated sentence may equal (`eval_files`, `eval_prompts`, compared by `squash`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from notillm_local.eval import data_path

SEED = 20260807
# The prompt prefix the adapter is trained with (and served with: resources/adapters/prefix.txt).
# The few-shot cases are learnt into the adapter, so only the header line stays.
ADAPTER_PREFIX = "다음은 휴대폰 알림 명령을 분석한 기록이다.\n"

MUTE_WORD, ALLOW_WORD = "끄기", "허용"
NONE_WORD, OTHER_APP_WORD = "없음", "기타"
MAX_ITEMS = 8  # apps.gbnf / keywords.gbnf: one item plus {0,7}

EVAL_DIR = data_path("dev.jsonl").parent
TRAIN_FILE = data_path("train.jsonl")


def eval_files() -> list[Path]:
    """Every evaluation file: all of eval/data/*.jsonl but the training cases."""
    return sorted(p for p in EVAL_DIR.glob("*.jsonl") if p.name != TRAIN_FILE.name)


def one_line(text: str) -> str:
    """The sentence as the extractor puts it in the prompt: whitespace runs become one space."""
    return re.sub(r"\s+", " ", text).strip()


def squash(text: str) -> str:
    """The comparison key against evaluation prompts: no whitespace at all, case folded."""
    return re.sub(r"\s+", "", text).casefold()


def record_prompt(sentence: str) -> str:
    """What follows the prefix for one command, up to where the model answers the intent."""
    return f"\n문장: {one_line(sentence)}\n의도:"


@dataclass(frozen=True)
class Example:
    sentence: str
    intent: str  # 끄기 | 허용
    apps: str  # "없음" | "item[, item]{0,7}", item = an installed label or "기타"
    keywords: str  # "없음" | "word[, word]{0,7}"
    source: str  # "family:<name>" | "train.jsonl:<id>"
    installed: tuple[tuple[str, str], ...] | None = None  # (label, package); None = default
    tags: tuple[str, ...] = ()

    @property
    def answers(self) -> tuple[str, str, str]:
        """The three generated answers, each exactly as its grammar admits it."""
        return f" {self.intent}\n", f" {self.apps}\n", f" {self.keywords}\n"

    @property
    def separators(self) -> tuple[str, str]:
        """The slot headers the extractor appends after the intent and apps answers."""
        return "앱:", "키워드:"

    @property
    def family(self) -> str:
        return self.source.split(":", 1)[1] if self.source.startswith("family:") else "train.jsonl"

    def text(self, prefix: str = ADAPTER_PREFIX) -> str:
        return (
            prefix + record_prompt(self.sentence)
            + f" {self.intent}\n앱: {self.apps}\n키워드: {self.keywords}\n"
        )


# --------------------------------------------------------------------------- evaluation sets


def eval_prompts(files: Iterable[Path] | None = None) -> set[str]:
    """Every sentence of every evaluation file (prompts, pending originals, gate texts), squashed."""
    out: set[str] = set()
    for path in eval_files() if files is None else files:
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            inp = row.get("input") if isinstance(row.get("input"), dict) else row
            for key in ("prompt", "pendingOriginal", "text", "word"):
                v = inp.get(key) if isinstance(inp, dict) else None
                if isinstance(v, str) and v.strip():
                    out.add(squash(v))
    return out
