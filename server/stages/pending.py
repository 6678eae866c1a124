"""Follow-up turns: which of the five pending actions a turn is, from cheap signals.

The signals are what the other stages already compute for the turn (a time was found, apps or
keywords were named, an intent verb was used) plus a few closed word lists (cancel words,
replacement markers). The order below is the order of certainty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime

from notillm_local import lexicon
from notillm_local.contract.schemas import PendingAction
from notillm_local.stages.positions import is_notification_noun
from notillm_local.stages.reading import SlotReading
from notillm_local.stages.timeparse import TimeAxis, TimeOutcome, TimeResult, parse_time
from notillm_local.stages.turn import Turn
from notillm_local.stages.words import words


@dataclass(frozen=True)
class TurnSignals:
    has_time: bool
    has_target: bool  # apps (installed or not) or keywords named
    has_intent_cue: bool
    has_unknown_words: bool
    names_all: bool = False  # "모든 알림", "알림 다": every notification is the target
    original_has_time: bool = True  # the earlier command already named its time
    adds_apps: bool = False  # "넷플도 추가해서", "카톡까지": apps joined to the earlier ones
    # The same apps the other way round ("카톡 꺼줘" → "아 카톡만 받고 나머지 다 끄는 걸로")
    reverses: bool = False


    @classmethod
    def of(cls, turn: Turn, original: Turn) -> TurnSignals:
        s = turn.slots
        return cls(
            has_time=turn.has_time,
            # "문자빼고 다 막아": the kept apps are a target too, read before the verb turns round.
            has_target=s.has_target or bool(s.kept),
            has_intent_cue=any(s.intent_cues),
            has_unknown_words=bool(s.unknown_words),
            names_all=turn.names_all,
            original_has_time=original.has_time,
            # "디코랑 유튜브 둘 다" after "디스코드 알림 꺼주세요": the earlier apps and more.
            adds_apps=bool(s.apps or s.unresolved) and (adds_to(turn) or (
                bool(original.slots.apps)
                and set(s.app_refs()) > set(original.slots.app_refs())
            )),
            reverses=bool(s.apps) and set(s.app_refs()) == set(original.slots.app_refs())
            and None not in (s.mute, original.slots.mute) and s.mute != original.slots.mute,
        )


def is_cancel(text: str) -> bool:
    # Cancel expressions. A turn is a cancel when it holds one and names no time and no target
    # ("아 됐다 그냥 놔둬", "방금 거 없던 걸로 해줘"); with new values the values are the answer.
    return bool(lexicon.pattern("markers", "cancel").search(text))


def set_aside_end(text: str) -> int:
    """Where the openers that put the earlier command aside end (`markers.set_aside_opener`:
    "아 잠깐 그 전에", "순서바꿔서이것부터:", "그건 나중에 보고,"), or 0. With nothing after
    them they set nothing aside: the turn is read whole ("그건 일단 패스" alone cancels)."""
    opener = lexicon.pattern("markers", "set_aside_opener.words")
    at = end = len(text) - len(text.lstrip())
    while (m := opener.match(text, at)) is not None and m.end() > at:
        at = end = m.end()
        while at < len(text) and (text[at].isspace() or text[at] in ":,.!~"):
            at += 1
    return at if end and at < len(text) else 0


def defers(text: str) -> bool:
    return bool(lexicon.pattern("markers", "defers.words").search(text))


def asks_back(text: str) -> bool:
    """The turn asks the question back ("얼마나", "언제까지") instead of answering it."""
    return bool(lexicon.pattern("markers", "asks_back.words").search(text))


def update_focus(text: str) -> str:
    """For "아니 카톡 말고 슬랙으로", the words that carry the new value ("슬랙으로"). An
    exception inside a command of its own ("유튜브 빼고 다 꺼") carries no new value alone."""
    marks = [
        m for m in lexicon.pattern("markers", "after_replace").finditer(text)
        if not _exception_before_all(text, m)
    ]
    return text[marks[-1].end() :].lstrip() if marks else text


def _exception_before_all(text: str, m: re.Match[str]) -> bool:
    """"문자빼고 다 막아", "카톡 말고 다 무음": an exception inside a command of its own, not a
    changed value."""
    every = lexicon.pattern("markers", "all_opening", anchored="^")
    kept_out = ("빼", "제외", "말고", "놔", "냅", "내버려", "남겨", "그대로", "그냥")
    return m.group(0).startswith(kept_out) and bool(every.search(text[m.end() :].lstrip()))


def dropped_part(text: str) -> tuple[str, str] | None:
    """("넷플은 ", " 9시까지") for "넷플은 빼고 9시까지": the words before a drop marker name apps
    to take out of the earlier command; the words after it carry the other new values. None when
    there is no such marker, or it opens a command of its own ("문자빼고 다 막아")."""
    for m in lexicon.pattern("markers", "drop").finditer(text):
        if not _exception_before_all(text, m) and text[: m.start()].strip():
            return text[: m.start()], text[m.end() :]
    return None


def without_dropped(first: Turn, dropped: Turn, rest: Turn) -> Turn | None:
    """The earlier command with the dropped apps taken out of its list, when every app the drop
    names is in it, some app is left, and the rest of the turn names no app of its own (then it
    is a replacement, "카톡 말고 슬랙으로"). None otherwise: the turn is read as before."""
    gone = {m.app for m in dropped.slots.apps}
    kept = tuple(m for m in first.slots.apps if m.app not in gone)
    if (
        not gone
        or dropped.slots.unresolved
        or rest.slots.apps
        or rest.slots.unresolved
        or not gone <= {m.app for m in first.slots.apps}
        or not kept
    ):
        return None
    return replace(first, slots=replace(first.slots, apps=kept))


def replaces(text: str) -> bool:
    """Whether the turn changes part of the earlier command ("카톡 말고 슬랙", "반대로").

    "그거 말고" puts the earlier command aside as a whole ("일단 그거 말고 급한 거…"): an opener
    before a command of its own, not a change of one of its values.
    """
    opener = lexicon.pattern("markers", "set_aside", anchored="$")
    return any(
        not opener.search(text[: m.start()].rstrip()) and not _exception_before_all(text, m)
        for m in lexicon.pattern("markers", "replace").finditer(text)
    )


def ends_in_cancel(text: str) -> bool:
    """The turn's last word cancels ("…직접 껐어 취소", "…로그아웃했으니까 이제 됐어")."""
    word = lexicon.pattern("markers", "cancel_word").pattern
    return bool(re.search(rf"(?:{word})[가-힣]{{0,2}}[\s.!~ㅋㅎㅠㅜ]*$", text))


def decide(text: str, turn: TurnSignals) -> PendingAction:
    if is_cancel(text) and not turn.has_time and not turn.has_target:
        return PendingAction.CANCEL
    opens = lexicon.pattern("markers", "cancel_opening.words", anchored="^").search(text.lstrip())
    if not turn.has_intent_cue and (ends_in_cancel(text) or opens and not turn.has_target):
        # A statement and then the cancel word, no verb of a command: the words before it say
        # why ("인스타 로그아웃해버렸으니까 이제 됐어"), they name no new value; so do the words
        # after a cancel that opens the turn ("그냥 놔둬 오늘 월급날이라 알림 봐야 돼").
        return PendingAction.CANCEL
    if not (turn.has_time or turn.has_target or turn.has_intent_cue):
        return PendingAction.UNRESOLVED
    if not (turn.has_time or turn.has_intent_cue) and defers(text):
        return PendingAction.UNRESOLVED  # "일정 좀 확인해 보고...": 일정 is no new target
    if not (turn.has_time or turn.has_target or turn.names_all) and asks_back(text):
        # "얼마나 꺼야 되지..": the verb repeats the earlier command's; the question is still open.
        return PendingAction.UNRESOLVED
    if (
        turn.has_time
        and not turn.has_target
        and not turn.names_all
        and not turn.original_has_time
    ):
        # The question was "how long?" and this answers it ("…까지로 해줘" included).
        return PendingAction.CONTINUE
    if is_cancel(text) and turn.has_time and turn.has_intent_cue and (
        turn.has_target or turn.names_all
    ):
        # "패스! 대신 금요일 6시까지 당근 알림 꺼줘": the earlier command dropped, a whole new one.
        return PendingAction.NEW_REQUEST
    if replaces(text) or turn.adds_apps or turn.reverses:
        # A changed or a widened target ("넷플도 추가해서 3시간"), or the same apps the other way
        # round, changes the earlier command.
        return PendingAction.UPDATE
    if turn.has_time and turn.has_intent_cue and (turn.has_target or turn.names_all):
        # A whole command by itself: it stands alone rather than completing the old one.
        return PendingAction.NEW_REQUEST
    if turn.has_target and not turn.has_time:
        return PendingAction.UPDATE
    return PendingAction.CONTINUE


def is_unsure(text: str, turn: TurnSignals) -> bool:
    """Where the cheap signals disagree: cancel words next to new values ("취소하고 슬랙 1시간").

    A turn with nothing usable is not "unsure": UNRESOLVED asks again and can never produce a
    wrong rule, and the base model read every such turn in the dev set as CANCEL.
    """
    cancel_word = lexicon.pattern("markers", "cancel_word")
    return bool(cancel_word.search(text)) and (turn.has_time or turn.has_target)


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


def adds_to(turn: Turn) -> bool:
    """Whether the turn adds its apps to the earlier command's: an app word of the turn ends in
    an additive particle ("넷플도", "카톡까지") or the turn says 같이/함께/추가."""
    additive = lexicon.pattern("markers", "additive_app")
    for span in turn.slots.spans:
        if span.kind != "app":
            continue
        after = turn.text[span.end :].split(maxsplit=1)
        nxt = after[0] if after else ""
        # "디스코드 알림도 추가": the particle may end the notification noun after the app.
        # "넷플 더": one more app, 더 right after it ("한 번 더 생각해볼게" adds nothing, nor does
        # "카톡 더 이상 안 받을래").
        more = nxt == "더" and not (after[1:] and after[1].startswith("이상"))
        if additive.search(turn.text[span.start : span.end]) or more or (
            additive.search(nxt) and is_notification_noun(additive.sub("", nxt))
        ):
            return True
    additive_words = lexicon.words("markers", "additive_words")
    return any(lexicon.normalise(w.text) in additive_words for w in words(turn.text))


def merge(first: Turn, turn: Turn, now: datetime) -> Turn:
    """The earlier command with the new turn's values winning wherever the turn has one."""
    a, b = first.slots, turn.slots
    b_names = bool(b.apps or b.unresolved)
    if b_names and a.apps and adds_to(turn):
        # "아니 넷플도 같이 2시간" after "유튜브 알림 꺼주셈": 도/같이 adds the app to the earlier
        # ones instead of replacing them (natural_d's first run muted Netflix alone).
        b = replace(b, apps=a.apps + tuple(m for m in b.apps if m.app not in {x.app for x in a.apps}),
                    unresolved=a.unresolved + b.unresolved)
    mute = b.mute if any(b.intent_cues) and b.mute is not None else a.mute
    slots = SlotReading(
        mute=mute if mute is not None else b.mute,
        apps=b.apps if b_names else a.apps,
        unresolved=b.unresolved if b_names else a.unresolved,
        content=b.content if b.content else (() if b_names else a.content),
        excluded=b.excluded or a.excluded,
        activity=b.activity or a.activity,
        location=b.location or a.location,
        intent_cues=(a.intent_cues[0] or b.intent_cues[0], a.intent_cues[1] or b.intent_cues[1]),
        unknown_words=b.unknown_words if b_names or b.unknown_words else a.unknown_words,
        loose_words=b.loose_words if b_names or b.unknown_words else a.loose_words,
        time_residue=b.time_residue or a.time_residue,
        spans=b.spans,
    )
    time = turn.time if turn.has_time else first.time
    if turn.has_time:
        time = _hours_of_recurrence(first.time, turn.time, now) or time
    return replace(turn, text=f"{first.text} {turn.text}", time=time, slots=slots,
                   llm_calls=first.llm_calls + turn.llm_calls)


def _hours_of_recurrence(first: TimeResult, then: TimeResult, now: datetime) -> TimeResult | None:
    """"매주 토일 알림 다 끄고 싶어" → "아침 8시부터 낮 12시까지": the hours of the days the earlier
    command repeats on, not a one-off window tomorrow. Read as one time phrase, the earlier
    command's days first; None where the two do not make one repeating time."""
    if first.axis not in (TimeAxis.WEEKLY, TimeAxis.DAILY) or not first.spans:
        return None
    if then.axis not in (TimeAxis.WINDOW, TimeAxis.UNTIL_ABSOLUTE) or not then.spans:
        return None
    if first.condition is not None and first.condition.window_start != first.condition.window_end:
        return None  # the earlier command named its hours already: the new ones replace them
    text = " ".join(s.text for s in (*first.spans, *then.spans))
    joined = parse_time(text, now)
    if joined.outcome is not TimeOutcome.OK or joined.axis is not first.axis:
        return None
    return replace(joined, spans=then.spans)


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
