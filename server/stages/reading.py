"""What code read from one turn: the slots, and which stretch of the text read as what.

Frozen once the slot reader is done; the pipeline, the pending-turn merge and the model's
combination with code all pass these around.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from notillm_local.domain import AppMatch, AppRef
from notillm_local.lexicon import normalise
from notillm_local.stages.apps import Unresolved
from notillm_local.stages.words import peel

SpanKind = Literal[
    "app", "keyword", "intent", "exclusion", "all", "context", "filler", "question", "unread"
]


@dataclass(frozen=True)
class ReadSpan:
    """A stretch of the turn (offsets in the text as given) and what read it."""

    start: int
    end: int
    kind: SpanKind
    label: str | None = None


@dataclass(frozen=True)
class SlotReading:
    """What code read from one turn; `unsure` names the slots it could not decide."""

    mute: bool | None = None
    apps: tuple[AppMatch, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()
    content: tuple[str, ...] = ()
    quoted: tuple[str, ...] = ()  # the keywords the user put in quotes: facts of the prompt
    excluded: tuple[str, ...] = ()  # app words the user kept out ("X 빼고", "X는 놔두고")
    unknown_words: tuple[str, ...] = ()  # neither app, keyword, filler nor context
    # The unknown words that stand where no target does (an ending of their own, apart from
    # apps and 알림): the model, once asked, may leave them out of the rule.
    loose_words: tuple[str, ...] = ()
    # Unknown words glued to an exception word ("…전화빼고"): which way the verb goes is unread.
    marked_words: tuple[str, ...] = ()
    says_all: bool = False  # the command says "all" (다, 전부, 모든 알림)
    time_residue: tuple[str, ...] = ()  # time-like words the time parser could not use
    predicates: tuple[str, ...] = ()  # verbs that are not intent cues
    devices: tuple[str, ...] = ()  # phone features that are not notifications ("와이파이")
    activity: str | None = None
    location: str | None = None
    intent_cues: tuple[bool, bool] = (False, False)  # (mute cue seen, allow cue seen)
    asks_about: bool = False  # a question or condition about notifications, not a request
    contradicts: bool = False  # mutes and allows the same thing ("카톡 꺼주고 카톡만 받게")
    # "X 빼고 다 꺼줘": the kept apps became the target and the verb's sense flipped (read
    # from the exception words, which a model's intent may ignore).
    all_but: bool = False
    kept_out: tuple[AppRef, ...] = ()  # the installed apps the user kept out of the rule
    # What the kept-out words read as, installed or not, while the verb is not yet turned round:
    # "X 빼고 다 꺼주세엽" with a word code could not place leaves the flip to after the model.
    kept: tuple[AppMatch | Unresolved, ...] = ()
    unsure: frozenset[str] = frozenset()
    spans: tuple[ReadSpan, ...] = ()

    @property
    def all(self) -> bool:
        return not self.apps and not self.unresolved and not self.content

    @property
    def has_target(self) -> bool:
        return bool(self.apps or self.unresolved or self.content)

    def app_refs(self) -> list[AppRef]:
        out: list[AppRef] = []
        for m in self.apps:
            if m.app not in out:
                out.append(m.app)
        return out

    def context_words(self, prompt: str) -> frozenset[str]:
        """What code read as context (a reason or remark clause), never a keyword: each such word
        as typed and peeled, and each run of context and filler typed with no space between
        ("사우나들어감알림싹다": a statement and "알림 싹다"), which a model may copy whole."""
        words = {normalise(f) for s in self.spans if s.kind == "context"
                 for f in peel(prompt[s.start : s.end])}
        run: list[ReadSpan] = []
        for span in [*sorted(self.spans, key=lambda s: s.start), None]:
            if span and span.kind in ("context", "filler") and (not run or span.start == run[-1].end):
                run.append(span)
                continue
            if len(run) > 1 and any(s.kind == "context" for s in run):
                words.add(normalise(prompt[run[0].start : run[-1].end]))
            run = [span] if span and span.kind in ("context", "filler") else []
        return frozenset(words)

