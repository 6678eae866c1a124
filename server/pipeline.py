"""One request, top to bottom: pending → gate → time → slots → model → validation → answer.

This module only wires the stages in that order and times them; what each stage decides lives
in its own module (stages/, contract/validate.py), and every model is handed in at start-up.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Protocol

from notillm_local import lexicon
from notillm_local.contract import answer
from notillm_local.contract.schemas import (
    DialogIntent,
    FailReason,
    HandleRequest,
    HandleResponse,
    InstalledApp,
    Meta,
    PendingAction,
    Trace,
    TraceGate,
    TraceSlot,
    TraceStage,
)
from notillm_local.contract.validate import Verdict, judge, respond, verdict_of
from notillm_local.domain import AppRef, ChitchatGate, GateDecision
from notillm_local.errors import (
    DeadlineExceeded,
    ExtractionError,
    GrammarError,
    HostedEngineError,
    Overloaded,
)
from notillm_local.stages import pending
from notillm_local.stages.apps import InstalledIndex, jamo_distance
from notillm_local.stages.extract import SlotExtractor
from notillm_local.stages.reading import ReadSpan
from notillm_local.stages.timeparse import (
    TimeAxis,
    TimeOutcome,
    TimeResult,
    TimeSpan,
    parse_time,
)
from notillm_local.stages.trace import spans_of
from notillm_local.stages.turn import Turn

logger = logging.getLogger(__name__)
_HANGUL_RUN = re.compile(r"[가-힣]+")

_HANGUL = re.compile(r"[가-힣]+")


@dataclass
class Decision:
    """The pipeline's verdict before it becomes a contract answer."""

    verdict: Verdict
    intent: DialogIntent
    pending_action: PendingAction | None = None
    llm_calls: int = 0
    hosted_calls: int = 0
    cost_usd: float = 0.0
    engine: str = "local"
    reason: str | None = None


@dataclass
class _Request:
    """One request in flight: its deadline, and the trace when it asked for one."""

    t0: float
    deadline_s: float
    trace: Trace | None
    turns: list[tuple[str, Turn]] = field(default_factory=list)

    def remaining(self) -> float:
        left = self.deadline_s - (time.perf_counter() - self.t0)
        if left <= 0:
            raise DeadlineExceeded("request deadline passed")
        return left

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time a stage into the trace, and stop work that starts after the deadline."""
        self.remaining()
        t = time.perf_counter()
        try:
            yield
        finally:
            if self.trace is not None:
                ms = round((time.perf_counter() - t) * 1000, 2)
                self.trace.stages.append(TraceStage(name=name, ms=ms))

    def slot(self, slot: str, by: str, value: str | None, note: str | None = None) -> None:
        if self.trace is not None:
            self.trace.slots.append(
                TraceSlot(slot=slot, decidedBy=by, value=value, note=note)  # type: ignore[arg-type]
            )


class HostedFallback(Protocol):
    """What the pipeline needs of the hosted engine (engines/hosted.py implements it)."""

    def handle(
        self, req: HandleRequest, installed: list[InstalledApp], timeout_s: float | None = None
    ) -> HandleResponse: ...


# Local outcomes that may be the local side's fault and so are worth a hosted try (hybrid).
_HOSTED_WORTHY = {FailReason.APP_UNRESOLVED, FailReason.CONFLICT, FailReason.FALLBACK_UNAVAILABLE}


class Pipeline:
    def __init__(
        self,
        *,
        extractor: SlotExtractor,
        default_apps: tuple[AppRef, ...],
        gate: ChitchatGate | None,
        hosted: HostedFallback | None,
        model_id: str | None,
        deadline_s: float,
        queue_size: int,
        pending_model: pending.PendingClassifier | None = None,
    ) -> None:
        self._extractor = extractor
        self._pending_model = pending_model
        self._default_index = InstalledIndex.of(default_apps)
        self._gate = gate
        self._hosted = hosted
        self._model_id = model_id
        self._deadline_s = deadline_s
        self._queue_size = queue_size
        self._app_time_words = _apps_that_look_like_time(extractor.app_words)
        # App names as people write them (aliases with their spaces), longest first.
        self._app_names = tuple(
            sorted({w for w in extractor.app_names if len(w) >= 2}, key=len, reverse=True)
        )

    # -- entry ----------------------------------------------------------------------------
    def handle(self, req: HandleRequest) -> HandleResponse:
        run = _Request(time.perf_counter(), self._deadline_s, Trace() if req.trace else None)
        installed = self._installed(req)
        try:
            decision = self._decide(req, installed, run)
        except (ExtractionError, GrammarError) as exc:
            # The type only: the message carries model output and grammar text (prompt words).
            logger.warning("local extraction failed: %s", type(exc).__name__)
            decision = Decision(
                verdict=Verdict(
                    ok=False,
                    fail=FailReason.FALLBACK_UNAVAILABLE,
                    message=answer.failure(FailReason.FALLBACK_UNAVAILABLE),
                ),
                intent=DialogIntent.PENDING if req.pending else DialogIntent.EXTRACT,
                llm_calls=1,
                reason=f"local model output unusable: {type(exc).__name__}",
            )
        if self._hosted is not None and decision.verdict.fail in _HOSTED_WORTHY:
            with run.stage("hosted"):
                decision = self._try_hosted(req, installed, decision, run)
        return self._respond(decision, run)

    def _installed(self, req: HandleRequest) -> InstalledIndex:
        if req.installedApps is None:
            return self._default_index
        return InstalledIndex.of(AppRef(a.name, a.packageName) for a in req.installedApps)

    # -- stages ---------------------------------------------------------------------------
    def _read(
        self, text: str, now: datetime, installed: InstalledIndex, run: _Request, turn: str,
        lone_time_ends: bool = False, opener: int = 0,
    ) -> Turn:
        """Code's reading of one turn: time first, then the slots outside the time spans.
        `opener`: the length of an opening that puts the earlier command aside, context."""
        seen = " " * opener + text[opener:]
        with run.stage(f"time:{turn}"):
            time_text = _fix_time_typos(self._without_app_names(seen))
            tr = parse_time(time_text, now, lone_time_ends)
            cut = self._apps_cut_by(time_text, (*tr.spans, *tr.unread), installed)
            cut = self._misspelt_apps_cut_by(cut, tr.spans, installed)
            if cut != time_text:
                # A time span ended inside an app's name ("2시간 에브리타임": "에" is no marker).
                tr = parse_time(cut, now, lone_time_ends)
        with run.stage(f"slots:{turn}"):
            reading = self._extractor.read(seen, _time_spans(tr), installed)
        if opener:
            reading = replace(reading, spans=(ReadSpan(0, opener, "context"), *reading.spans))
        read = Turn(text=text, time=tr, slots=reading)
        run.turns.append((turn, read))
        return read

    def _without_app_names(self, text: str) -> str:
        """`text` with app names that contain time words blanked ("오늘의집" is no "오늘"), and
        their misspellings one letter off ("오늘의잡"), which the app reader still finds."""
        for word in self._app_time_words:
            at = text.find(word)
            while at >= 0:
                text = text[:at] + " " * len(word) + text[at + len(word) :]
                at = text.find(word, at + len(word))
            for at in _misspelt_at(text, word):
                text = text[:at] + " " * len(word) + text[at + len(word) :]
        return text

    def _apps_cut_by(
        self, text: str, spans: Sequence[TimeSpan], installed: InstalledIndex
    ) -> str:
        """`text` with the app names a time span cuts into blanked (unchanged if none).

        "2시간 에브리타임": "에" is no marker; "2시간 내 파일": "내" (within) is part of the
        app "내 파일". An app name that straddles a span's edge wins over the time reading,
        unless it starts inside a marker of two syllables: "자정까지멜론" holds no 지멜.
        """
        if not spans:
            return text
        folded = text.casefold()
        pairs = lexicon.words("reading", "time_marker_pairs")
        for word in (*installed.labels, *self._app_names):
            key = word.casefold()
            at = folded.find(key)
            while at >= 0:
                end = at + len(key)
                if folded[max(0, at - 1) : at + 1] in pairs:
                    at = folded.find(key, end)
                    continue
                if any(at < s.end and s.start < end and not (s.start <= at and end <= s.end)
                       for s in spans):
                    text = text[:at] + " " * len(key) + text[end:]
                    folded = folded[:at] + " " * len(key) + folded[end:]
                at = folded.find(key, end)
        return text

    def _misspelt_apps_cut_by(
        self, text: str, spans: Sequence[TimeSpan], installed: InstalledIndex
    ) -> str:
        """`text` with a misspelt app name blanked where a time span starts inside it
        ("지매일": 지메일 with a wrong vowel, not 지 + 매일 "every day")."""
        mapper = self._extractor.mapper
        hangul = _HANGUL_RUN
        for span in spans:
            start = span.start
            if not hangul.match(text, start):
                continue  # "슬랙3시간": a number starts the time, no name runs into it
            while start > 0 and "가" <= text[start - 1] <= "힣" and span.start - start < 4:
                start -= 1
            if start == span.start:
                continue  # the span starts a word: "카톡 매일 밤"
            for end in range(span.end, span.start, -1):
                word = text[start:end]
                if len(word) >= 3 and hangul.fullmatch(word) and mapper.misspells_app(
                    word, installed
                ):
                    text = text[:start] + " " * (end - start) + text[end:]
                    break
        return text

    def _with_model(self, t: Turn, installed: InstalledIndex, run: _Request) -> Turn:
        """Let the model decide the slots code left unsure (every slot in model mode)."""
        if not self._extractor.wants_model(t.slots):
            return t
        with run.stage("model"):
            ex = self._extractor.decide(
                t.text,
                _time_spans(t.time),
                t.slots,
                installed,
                timeout_s=run.remaining(),
                max_waiting=self._queue_size,
            )
        for slot in sorted(ex.decided_by_model):
            run.slot(slot, "model", _slot_value(slot, ex.reading), note=ex.agreement)
        decided = replace(t, slots=ex.reading, llm_calls=t.llm_calls + ex.llm_calls)
        run.turns = [(name, decided if read is t else read) for name, read in run.turns]
        return decided

    def _decide(self, req: HandleRequest, installed: InstalledIndex, run: _Request) -> Decision:
        now = req.currentTime
        if req.pending and req.pendingOriginal and req.pendingOriginal.strip():
            return self._decide_pending(req, installed, run)
        t: Turn | None = None
        if self._gate is not None:
            with run.stage("gate"):
                verdict = self._gate.decide(req.prompt)
            self._trace_gate(run, verdict)
            if verdict.chitchat:
                # A second opinion on a rejection from code's own reading (no model call):
                # a wasted model call is cheaper than refusing a real command.
                t = self._read(req.prompt, now, installed, run, "prompt")
                if not t.reads_as_command:
                    return self._chitchat(f"gate p_command={verdict.p_command:.3f}")
        if t is None:
            t = self._read(req.prompt, now, installed, run, "prompt")
        if t.names_nothing:
            return self._chitchat("no intent verb, app or notification word")
        t = self._with_model(t, installed, run)
        return self._rule(t, now, DialogIntent.EXTRACT, None, run)

    def _decide_pending(
        self, req: HandleRequest, installed: InstalledIndex, run: _Request
    ) -> Decision:
        now = req.currentTime
        original = req.pendingOriginal or ""
        # Cheap signals first: both turns are read by code alone to pick the action.
        # "아 잠깐 그 전에 …": an opener that puts the earlier command aside is context, and the
        # rest is read (and judged) on its own.
        opener = pending.set_aside_end(req.prompt)
        prompt = " " * opener + req.prompt[opener:]
        turn = self._read(req.prompt, now, installed, run, "prompt", opener=opener)
        first = self._read(original, now, installed, run, "pendingOriginal")
        if _lone_clock(turn) and (
            first.time.outcome is TimeOutcome.NO_TIME or pending.replaces(prompt)
        ):
            # The answer to "until when?" ("내일 아침 9시", "tomorrow 9am") is the end, and so is
            # a clock that replaces the earlier one ("아니 8시로 늦춰줘").
            run.turns = [(name, read) for name, read in run.turns if read is not turn]
            turn = self._read(
                req.prompt, now, installed, run, "prompt", lone_time_ends=True, opener=opener
            )
        signals = pending.TurnSignals.of(turn, first)
        action = pending.decide(prompt, signals)
        calls = 0
        if self._pending_model is not None and pending.is_unsure(req.prompt, signals):
            with run.stage("model:pending"):
                action = self._pending_model.classify(
                    original, req.prompt, timeout_s=run.remaining(), max_waiting=self._queue_size
                )
            calls = 1
        run.slot("pendingAction", "model" if calls else "code", action.value)
        pend = DialogIntent.PENDING
        if action is PendingAction.CANCEL:
            return Decision(
                Verdict(ok=False, fail=FailReason.CANCELLED,
                        message=answer.failure(FailReason.CANCELLED)),
                intent=pend, pending_action=action, llm_calls=calls,
            )
        if action is PendingAction.UNRESOLVED:
            return Decision(
                Verdict(ok=False, fail=FailReason.INCOMPLETE, needs_supplement=True,
                        message=answer.ask("time")),
                intent=pend, pending_action=action, llm_calls=calls,
            )
        if action is PendingAction.NEW_REQUEST:
            turn = replace(self._with_model(turn, installed, run), llm_calls=calls)
            return self._rule(turn, now, pend, action, run)
        drop = pending.dropped_part(prompt) if action is PendingAction.UPDATE else None
        if drop is not None:
            # "넷플은 빼고 9시까지" after "유튜브랑 넷플 알림 꺼줘": Netflix leaves the list, and
            # the rest of the turn (a time here) completes the command.
            rest = self._read(drop[1], now, installed, run, "prompt", lone_time_ends=True)
            dropped = self._read(drop[0], now, installed, run, "prompt", lone_time_ends=True)
            if not rest.has_time and dropped.has_time:
                rest = replace(rest, time=dropped.time)  # "9시까지 넷플은 빼줘"
            if pending.without_dropped(first, dropped, rest) is not None:
                turn = rest
            else:
                drop = None
        if action is PendingAction.UPDATE and drop is None:
            focus = pending.update_focus(prompt)
            if focus != prompt and focus.strip():
                whole = turn
                # "5시 말고 7시로 미뤄줘": the new value is what follows the marker, and a clock
                # alone there is the new end, as in an answer to "until when?".
                turn = self._read(focus, now, installed, run, "prompt", lone_time_ends=True)
                if whole.has_time and not turn.has_time:
                    # A time was said but none read in the new value: never keep the old one.
                    return Decision(
                        Verdict(ok=False, fail=FailReason.INCOMPLETE, needs_supplement=True,
                                message=answer.ask("time")),
                        intent=pend, pending_action=action, llm_calls=calls,
                    )
        first = self._with_model(first, installed, run)
        if drop is not None:
            # Taken out after the model read the earlier command, whoever read its apps.
            first = pending.without_dropped(first, dropped, turn) or first
        if self._extractor.decides_every_slot:
            # Each turn is read by the model on its own words and time spans; the merge is
            # code's. The joined text of two turns is no sentence the model could read (and
            # the time spans are the new turn's, so its time words would become keywords).
            merged = pending.merge(first, self._with_model(turn, installed, run), now)
        else:
            own_unsure = turn.slots.unsure & {"target"}
            if "intent" in turn.slots.unsure and any(turn.slots.intent_cues):
                # The new turn says a verb code could not settle ("유튜브만 켜두고 나머지를 꺼"):
                # read with the earlier command, the model took that command's verb instead.
                own_unsure |= {"intent"}
            if own_unsure:
                # Words of the new turn code could not place ("아니 반대로 디코만 받게"): the model
                # reads them in the turn's own sentence, as it would a fresh command.
                own = replace(turn.slots, unsure=frozenset(own_unsure))
                turn = self._with_model(replace(turn, slots=own), installed, run)
            merged = self._with_model(pending.merge(first, turn, now), installed, run)
        return self._rule(replace(merged, llm_calls=merged.llm_calls + calls), now, pend, action,
                          run)

    def _rule(
        self,
        t: Turn,
        now: datetime,
        intent: DialogIntent,
        action: PendingAction | None,
        run: _Request,
    ) -> Decision:
        with run.stage("validate"):
            verdict = judge(t.draft(), now)
        if run.trace is not None:
            run.trace.timeOutcome = t.time.outcome.value
            run.trace.timeAxis = t.time.axis.value if t.time.axis is not None else None
            decided = {s.slot for s in run.trace.slots}
            for slot in ("intent", "target", "time"):
                if slot not in decided:
                    run.slot(slot, "code", _slot_value(slot, t.slots, t))
        return Decision(
            verdict=verdict, intent=intent, pending_action=action, llm_calls=t.llm_calls,
            reason=verdict.reason,
        )

    def _chitchat(self, why: str) -> Decision:
        return Decision(
            Verdict(ok=False, fail=FailReason.CHITCHAT, message=answer.failure(FailReason.CHITCHAT)),
            intent=DialogIntent.REJECT,
            reason=why,
        )

    @staticmethod
    def _trace_gate(run: _Request, verdict: GateDecision) -> None:
        if run.trace is not None:
            run.trace.gate = TraceGate(
                pCommand=round(verdict.p_command, 4),
                threshold=round(verdict.threshold, 4),
                chitchat=verdict.chitchat,
            )

    # -- hosted fallback ------------------------------------------------------------------
    def _try_hosted(
        self, req: HandleRequest, installed: InstalledIndex, local: Decision, run: _Request
    ) -> Decision:
        assert self._hosted is not None
        apps = [InstalledApp(name=a.label, packageName=a.package) for a in installed.apps]
        fail = local.verdict.fail
        why = f"local answer {fail.value if fail else '?'}"
        try:
            resp = self._hosted.handle(req, apps, timeout_s=run.remaining())
        except (HostedEngineError, DeadlineExceeded, Overloaded) as exc:
            # The type only: a hosted error may quote the model, which may quote the user.
            logger.warning("hosted fallback failed: %s", type(exc).__name__)
            return replace(
                local,
                verdict=Verdict(
                    ok=False,
                    fail=FailReason.FALLBACK_UNAVAILABLE,
                    message=answer.failure(FailReason.FALLBACK_UNAVAILABLE),
                ),
                hosted_calls=1,
                reason=f"{why}; hosted failed: {type(exc).__name__}",
            )
        run.slot("target", "hosted", ", ".join(resp.targetFixed.name) if resp.targetFixed else None)
        return Decision(
            verdict=verdict_of(resp),
            intent=resp.dialogIntent,
            pending_action=resp.pendingAction or local.pending_action,
            llm_calls=local.llm_calls,
            hosted_calls=resp.meta.hostedCalls,
            cost_usd=resp.meta.costUsd,
            engine="hosted",
            reason=why,
        )

    def _respond(self, d: Decision, run: _Request) -> HandleResponse:
        v = d.verdict
        if run.trace is not None:
            run.trace.spans = spans_of(run.turns)
        return respond(
            v,
            d.intent,
            d.pending_action,
            Meta(
                engine=d.engine,
                llmCalls=d.llm_calls,
                hostedCalls=d.hosted_calls,
                fallbackUsed=d.engine == "hosted",
                latencyMs=round((time.perf_counter() - run.t0) * 1000, 1),
                costUsd=d.cost_usd,
                model=self._model_id,
                reason=d.reason,
                trace=run.trace,
            ),
        )


def _lone_clock(t: Turn) -> bool:
    """A clock time said alone, with no 부터/까지 and no length."""
    return (
        t.time.outcome is TimeOutcome.NO_TIME and t.time.axis is TimeAxis.WINDOW
        and bool(t.time.spans)
    )


def _time_spans(tr: TimeResult) -> list[tuple[int, int]]:
    """What the time parser read, and the words beside it that it could not: both are time."""
    return [(s.start, s.end) for s in (*tr.spans, *tr.unread)]


def _fix_time_typos(text: str) -> str:
    """Misspelt time units after a number ("30뷴", "두시갼") read as the unit, same length."""
    spec = lexicon.data("time_typos")["after_number"]
    for unit, typos in spec.items():
        for typo in typos:
            at = text.find(typo)
            while at >= 0:
                if at > 0 and (text[at - 1].isdigit() or "가" <= text[at - 1] <= "힣"):
                    fixed = unit + " " * (len(typo) - len(unit))
                    text = text[:at] + fixed + text[at + len(typo) :]
                at = text.find(typo, at + 1)
    return text


def _misspelt_at(text: str, word: str) -> list[int]:
    """Where `text` holds `word` misspelt by one letter (jamo), same length, no space inside."""
    n = len(word)
    return [
        at for at in range(len(text) - n + 1)
        if " " not in text[at : at + n] and jamo_distance(text[at : at + n], word) == 1
    ]


def _apps_that_look_like_time(words: list[str]) -> tuple[str, ...]:
    """App names the time parser would partly read as time ("오늘의집", "매일경제"), once."""
    ref = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    found = [w for w in set(words) if len(w) >= 3 and parse_time(w, ref).spans]
    return tuple(sorted(found, key=len, reverse=True))


def _slot_value(slot: str, s: object, t: Turn | None = None) -> str | None:
    from notillm_local.stages.reading import SlotReading

    assert isinstance(s, SlotReading)
    if slot == "intent":
        return None if s.mute is None else ("mute" if s.mute else "allow")
    if slot == "target":
        names = [m.app.label for m in s.apps] + [u.word for u in s.unresolved] + list(s.content)
        return ", ".join(names) if names else "all"
    if slot == "time" and t is not None:
        return t.time.outcome.value
    return None
