"""Follow-up turns: which of the five pending actions a turn is, from cheap signals.

The signals are what the other stages already compute for the turn (a time was found, apps or
keywords were named, an intent verb was used) plus a few closed word lists (cancel words,
replacement markers). The order below is the order of certainty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from notillm_local.contract.schemas import PendingAction

# Cancel expressions. A turn is a cancel when it holds one and names no time and no target
# ("아 됐다 그냥 놔둬", "방금 거 없던 걸로 해줘"); with new values the values are the answer.
_CANCEL = re.compile(
    r"됐[어다고음네]|됐습니다|되었어|괜찮[아습]|취소|그만|관둬|관두|관둘|하지\s*말|하지\s*마"
    r"|안\s*할[래게]|안\s*해도|안\s*해|필요\s*없|없던\s*(?:걸|일|거)|노노|^\s*ㄴㄴ\s*$|싫어"
    r"|^\s*아니야|^\s*아냐|나중에|다음에|패스|스킵|놔\s*둬|놔\s*두|냅둬|내버려|cancel|never\s*mind",
    re.IGNORECASE,
)
_REPLACE = re.compile(
    r"말고|아니고|아니라|대신|바꿔|바꿀래|변경|로\s*바|으로\s*바|ㄴㄴ|아니\s"
    r"|빼고|제외하고"
)
# The part of an update turn after its replacement marker is the new value ("카톡 말고 슬랙",
# "페북은 빼고 인스타만").
_AFTER_REPLACE = re.compile(r"^.*(?:말고|아니고|아니라|대신에?|빼고|제외하고)\s*")


@dataclass(frozen=True)
class TurnSignals:
    has_time: bool
    has_target: bool  # apps (installed or not) or keywords named
    has_intent_cue: bool
    has_unknown_words: bool
    names_all: bool = False  # "모든 알림", "알림 다": every notification is the target
    original_has_time: bool = True  # the earlier command already named its time


def is_cancel(text: str) -> bool:
    return bool(_CANCEL.search(text))


def update_focus(text: str) -> str:
    """For "아니 카톡 말고 슬랙으로", the words that carry the new value ("슬랙으로")."""
    return _AFTER_REPLACE.sub("", text)


def decide(text: str, turn: TurnSignals) -> PendingAction:
    if is_cancel(text) and not turn.has_time and not turn.has_target:
        return PendingAction.CANCEL
    if not (turn.has_time or turn.has_target or turn.has_intent_cue):
        return PendingAction.UNRESOLVED
    if (
        turn.has_time
        and not turn.has_target
        and not turn.names_all
        and not turn.original_has_time
    ):
        # The question was "how long?" and this answers it ("…까지로 해줘" included).
        return PendingAction.CONTINUE
    if _REPLACE.search(text):
        return PendingAction.UPDATE
    if turn.has_time and turn.has_intent_cue and (turn.has_target or turn.names_all):
        # A whole command by itself: it stands alone rather than completing the old one.
        return PendingAction.NEW_REQUEST
    if turn.has_target and not turn.has_time:
        return PendingAction.UPDATE
    return PendingAction.CONTINUE


_CANCEL_WORD = re.compile(r"됐|취소|관둬|관두|그만|없던|필요\s*없|cancel", re.IGNORECASE)


def is_unsure(text: str, turn: TurnSignals) -> bool:
    """Where the cheap signals disagree: cancel words next to new values ("취소하고 슬랙 1시간").

    A turn with nothing usable is not "unsure": UNRESOLVED asks again and can never produce a
    wrong rule, and the base model read every such turn in the dev set as CANCEL.
    """
    return bool(_CANCEL_WORD.search(text)) and (turn.has_time or turn.has_target)


PENDING_FEW_SHOT = """다음은 알림 설정 대화 기록이다. 앞선 명령에 정보가 모자라 되물었고, 사용자의 답을 분류한다.
CANCEL=취소, UNRESOLVED=쓸모있는 정보 없음, CONTINUE=모자란 정보를 채움, UPDATE=일부를 바꿈, NEW_REQUEST=새로운 명령.

앞선 명령: 카톡만 받아줘
답: 1시간
분류: CONTINUE

앞선 명령: 카톡 알림 꺼줘
답: 됐어
분류: CANCEL

앞선 명령: 카톡만 받아줘
답: 음...
분류: UNRESOLVED

앞선 명령: 인스타 알림 꺼줘
답: 아니 인스타 말고 페북
분류: UPDATE

앞선 명령: 슬랙만 받을래
답: 매일 밤 11시부터 아침 7시까지 모든 알림 꺼줘
분류: NEW_REQUEST
"""


class PendingClassifier:
    """The local model, held by the five-way grammar, for turns the signals cannot place."""

    def __init__(self, model: object, grammar_text: str) -> None:
        from notillm_local.engines.local import LocalModel

        assert isinstance(model, LocalModel)
        self._model = model
        self._grammar = grammar_text
        self._prefix: list[int] | None = None

    def classify(
        self, original: str, text: str, *, timeout_s: float, max_waiting: int
    ) -> PendingAction:
        m = self._model
        with m.turn(timeout_s=timeout_s, max_waiting=max_waiting):
            if self._prefix is None:
                self._prefix = m.bos() + m.tokenize(PENDING_FEW_SHOT)
            one_line = " ".join(original.split()), " ".join(text.split())
            tokens = self._prefix + m.tokenize(
                f"\n앞선 명령: {one_line[0]}\n답: {one_line[1]}\n분류:"
            )
            said = m.generate(tokens, m.grammar(self._grammar), max_tokens=8).strip()
        return PendingAction(said)
