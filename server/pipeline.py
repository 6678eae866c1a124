"""One request, top to bottom: pending → gate → time → slots → apps → validation → answer.

This module only wires the stages in that order; each stage lives in its own module and is
handed everything it needs at start-up.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from notillm_local.contract import answer
from notillm_local.contract.schemas import (
    Condition,
    DialogIntent,
    FailReason,
    HandleRequest,
    HandleResponse,
    InstalledApp,
    Meta,
    PendingAction,
    TargetFixed,
)
from notillm_local.domain import AppRef, ChitchatGate
from notillm_local.errors import (
    DeadlineExceeded,
    ExtractionError,
    GrammarError,
    HostedEngineError,
    Overloaded,
)
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.extract import Extraction, SlotExtractor
from notillm_local.stages.pending import (
    PendingClassifier,
    TurnSignals,
    decide,
    is_unsure,
    update_focus,
)
from notillm_local.stages.slots import SlotReading, has_intent_cue
from notillm_local.stages.timeparse import TimeOutcome, TimeResult, parse_time

logger = logging.getLogger(__name__)

MAX_RULE_SPAN = timedelta(days=366)
# Any of these means the user is talking about notifications, even with nothing else usable.
_NOTIFICATION_WORDS = re.compile(r"알림|알람|푸시|노티|방해\s*금지|무음|진동|소리")
_HOW_TO = re.compile(
    r"(?:하는|바꾸는|끄는|켜는|설정하는|쓰는|보는|여는|없애는|줄이는|키우는)\s*(?:법|방법)"
    r"|차이가?|뭐야|뭔지|무슨\s*뜻|어디서|어떻게\s*(?:해|하|바꿔|바꾸|설정)"
)
# A turn that names every notification names its target as fully as one naming an app.
_ALL_TARGET = re.compile(r"모든\s*알림|알림\s*(?:전부|다|모두|싹)|전체\s*알림|다\s*꺼|전부\s*꺼|모두\s*꺼")


@dataclass
class Understanding:
    """Everything code and model read from one turn's text."""

    text: str
    time: TimeResult
    slots: SlotReading
    llm_calls: int = 0

    @property
    def signals(self) -> TurnSignals:
        s = self.slots
        return TurnSignals(
            has_time=self.time.outcome is not TimeOutcome.NO_TIME,
            has_target=bool(s.apps or s.unresolved or s.content),
            has_intent_cue=any(s.intent_cues),
            has_unknown_words=bool(s.unknown_words),
            names_all=bool(_ALL_TARGET.search(self.text)),
        )

    @property
    def reads_as_command(self) -> bool:
        """Code reads every part of a command: an intent verb, a usable time and a target.

        The gate is least sure on near misses; when code independently finds all of these, a
        wasted model call is cheaper than refusing a real command (issue 4).
        """
        s = self.slots
        target = bool(s.apps or s.unresolved or s.content) or bool(
            _NOTIFICATION_WORDS.search(self.text)
        )
        if not target:
            return False
        if self.time.outcome is not TimeOutcome.OK:
            # Without a time, only an intent verb on an app or keyword the user named counts
            # ("'할인' 들어간 알림 안 보고 싶어" is a command that will ask "how long?").
            return any(s.intent_cues) and bool(s.apps or s.unresolved or s.content)
        # "카톡 2시간": a fragment of only target and time is an elliptical command; with any
        # other verb ("유튜브 3시간 봤어") it is talk about apps, not a command.
        fragment = not (s.unknown_words or s.predicates)
        return any(s.intent_cues) or fragment

    @property
    def names_nothing(self) -> bool:
        """No intent verb, no app and no notification word: no rule was asked for.

        A time or a topic alone ("오늘 날씨 어때?") is not a command; guessing a rule from it
        would silence notifications the user never mentioned.
        """
        s = self.slots
        if self.time.outcome is TimeOutcome.NO_TIME and _HOW_TO.search(self.text):
            # "카톡 알림 소리 바꾸는 법 알려줘", "방해 금지랑 무음 차이가 뭐야?": questions about
            # settings, whatever verbs they contain.
            return True
        if not any(s.intent_cues) and self.time.outcome is TimeOutcome.NO_TIME:
            # No intent verb and no time, but a statement or question about apps
            # ("카톡 알림음 너무 시끄럽네", "유튜브 알림 켜져 있어?"): talk, not a command.
            if s.predicates or self.text.rstrip().endswith("?"):
                return True
        return not (
            any(s.intent_cues) or s.apps or s.unresolved or _NOTIFICATION_WORDS.search(self.text)
        )


@dataclass
class Decision:
    """The pipeline's verdict before it becomes a contract answer."""

    ok: bool
    intent: DialogIntent
    message: str
    fail: FailReason | None = None
    needs_supplement: bool = False
    pending_action: PendingAction | None = None
    target: TargetFixed | None = None
    condition: Condition | None = None
    llm_calls: int = 0
    hosted_calls: int = 0
    cost_usd: float = 0.0
    engine: str = "local"
    reason: str | None = None
    notes: list[str] = field(default_factory=list)


class HostedFallback(Protocol):
    """What the pipeline needs of the hosted engine (hosted.py implements it)."""

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
        pending_model: PendingClassifier | None = None,
    ) -> None:
        self._extractor = extractor
        self._pending_model = pending_model
        self._default_index = InstalledIndex.of(default_apps)
        self._gate = gate
        self._hosted = hosted
        self._model_id = model_id
        self._deadline_s = deadline_s
        self._queue_size = queue_size

    # -- entry ----------------------------------------------------------------------------
    def handle(self, req: HandleRequest) -> HandleResponse:
        t0 = time.perf_counter()
        installed = self._installed(req)
        try:
            decision = self._decide(req, installed, t0)
        except (ExtractionError, GrammarError) as exc:
            # The type only: the message carries model output and grammar text (prompt words).
            logger.warning("local extraction failed: %s", type(exc).__name__)
            decision = Decision(
                ok=False,
                intent=DialogIntent.PENDING if req.pending else DialogIntent.EXTRACT,
                fail=FailReason.FALLBACK_UNAVAILABLE,
                message=answer.failure(FailReason.FALLBACK_UNAVAILABLE),
                llm_calls=1,
                reason=f"local model output unusable: {type(exc).__name__}",
            )
        if self._hosted is not None and decision.fail in _HOSTED_WORTHY:
            decision = self._try_hosted(req, installed, decision, t0)
        return self._respond(decision, t0)

    def _installed(self, req: HandleRequest) -> InstalledIndex:
        if req.installedApps is None:
            return self._default_index
        return InstalledIndex.of(AppRef(a.name, a.packageName) for a in req.installedApps)

    def _remaining(self, t0: float) -> float:
        left = self._deadline_s - (time.perf_counter() - t0)
        if left <= 0:
            raise DeadlineExceeded("request deadline passed")
        return left

    # -- stages ---------------------------------------------------------------------------
    def _understand(
        self,
        text: str,
        now: datetime,
        installed: InstalledIndex,
        t0: float,
        *,
        use_model: bool = True,
    ) -> Understanding:
        tr = parse_time(text, now)
        reading = self._extractor.read(text, [(sp.start, sp.end) for sp in tr.spans], installed)
        u = Understanding(text=text, time=tr, slots=reading)
        return self._with_model(u, installed, t0) if use_model else u

    def _with_model(self, u: Understanding, installed: InstalledIndex, t0: float) -> Understanding:
        """Let the model decide the slots code left unsure (every slot in model mode)."""
        if self._extractor.wants_model(u.slots):
            ex: Extraction = self._extractor.decide(
                u.text,
                [(sp.start, sp.end) for sp in u.time.spans],
                u.slots,
                installed,
                timeout_s=self._remaining(t0),
                max_waiting=self._queue_size,
            )
            u.llm_calls += ex.llm_calls
        return u

    def _decide(self, req: HandleRequest, installed: InstalledIndex, t0: float) -> Decision:
        now = req.currentTime
        if req.pending and req.pendingOriginal and req.pendingOriginal.strip():
            return self._decide_pending(req, installed, t0)
        u: Understanding | None = None
        if self._gate is not None:
            verdict = self._gate.decide(req.prompt)
            if verdict.chitchat:
                # A second opinion on a rejection, cheapest checks first (no model call).
                plausible = has_intent_cue(req.prompt) or (
                    parse_time(req.prompt, now).outcome is TimeOutcome.OK
                )
                if plausible:
                    u = self._understand(req.prompt, now, installed, t0, use_model=False)
                if u is None or not u.reads_as_command:
                    return self._chitchat(f"gate p_command={verdict.p_command:.3f}")
        if u is None:
            u = self._understand(req.prompt, now, installed, t0, use_model=False)
        if u.names_nothing:
            return self._chitchat("no intent verb, app or notification word")
        u = self._with_model(u, installed, t0)
        return self._rule(u, now, DialogIntent.EXTRACT, None)

    def _decide_pending(self, req: HandleRequest, installed: InstalledIndex, t0: float) -> Decision:
        now = req.currentTime
        original = req.pendingOriginal or ""
        # Cheap signals first: both turns are read by code alone to pick the action.
        turn = self._understand(req.prompt, now, installed, t0, use_model=False)
        first_time = parse_time(original, now)
        signals = replace(
            turn.signals, original_has_time=first_time.outcome is not TimeOutcome.NO_TIME
        )
        action = decide(req.prompt, signals)
        pending_calls = 0
        if self._pending_model is not None and is_unsure(req.prompt, signals):
            action = self._pending_model.classify(
                original, req.prompt, timeout_s=self._remaining(t0), max_waiting=self._queue_size
            )
            pending_calls = 1
        turn.llm_calls = pending_calls
        pend = DialogIntent.PENDING
        if action is PendingAction.CANCEL:
            return Decision(
                ok=False, intent=pend, fail=FailReason.CANCELLED, pending_action=action,
                message=answer.failure(FailReason.CANCELLED), llm_calls=turn.llm_calls,
            )
        if action is PendingAction.UNRESOLVED:
            return Decision(
                ok=False, intent=pend, fail=FailReason.INCOMPLETE, needs_supplement=True,
                pending_action=action, message=answer.ask("time"), llm_calls=turn.llm_calls,
            )
        if action is PendingAction.NEW_REQUEST:
            turn = self._understand(req.prompt, now, installed, t0)
            turn.llm_calls += pending_calls
            return self._rule(turn, now, pend, action)
        first = self._understand(original, now, installed, t0)
        if action is PendingAction.UPDATE:
            focus = update_focus(req.prompt)
            if focus != req.prompt and focus.strip():
                turn = self._understand(focus, now, installed, t0, use_model=False)
        merged = _merge(first, turn)
        merged.llm_calls = first.llm_calls + pending_calls
        return self._rule(merged, now, pend, action)

    def _rule(
        self,
        u: Understanding,
        now: datetime,
        intent: DialogIntent,
        action: PendingAction | None,
    ) -> Decision:
        """Validation: the contract's rules in order of what the user must fix first."""
        s, tr = u.slots, u.time

        def fail(reason: FailReason, message: str, *, ask: bool = False, why: str = "") -> Decision:
            return Decision(
                ok=False, intent=intent, fail=reason, needs_supplement=ask,
                pending_action=action, message=message, llm_calls=u.llm_calls, reason=why or None,
            )

        if s.unresolved:
            words = [x.word for x in s.unresolved]
            return fail(FailReason.APP_UNRESOLVED, answer.failure(FailReason.APP_UNRESOLVED, words=words))
        if s.time_residue:
            # "25시까지", "어제 밤 10시까지": a time was meant but cannot be honoured.
            return fail(FailReason.INVALID_TIME, answer.failure(FailReason.INVALID_TIME),
                        why=f"unusable time words: {', '.join(s.time_residue)}")
        if tr.outcome is TimeOutcome.CONFLICT:
            return fail(FailReason.CONFLICT, answer.failure(FailReason.CONFLICT), why=tr.reason or "")
        if tr.outcome is TimeOutcome.INVALID_TIME:
            return fail(
                FailReason.INVALID_TIME, answer.failure(FailReason.INVALID_TIME), why=tr.reason or ""
            )
        if s.mute is None:
            return fail(FailReason.INCOMPLETE, answer.ask("intent"), ask=True, why="intent unclear")
        if tr.outcome is TimeOutcome.NO_TIME or tr.condition is None:
            return fail(FailReason.INCOMPLETE, answer.ask("time"), ask=True, why="no time")
        c = tr.condition
        if c.expires <= c.delivery or c.expires - c.delivery > MAX_RULE_SPAN:
            return fail(FailReason.INVALID_TIME, answer.failure(FailReason.INVALID_TIME))
        if c.recurrence == "none" and c.expires <= now:
            return fail(FailReason.INVALID_TIME, answer.failure(FailReason.INVALID_TIME))
        apps = s.app_refs()
        all_ = not apps and not s.content
        names = [] if all_ else [a.label for a in apps]
        packages = [] if all_ else [a.package for a in apps]
        content = [] if all_ else list(s.content)
        target = TargetFixed(mute=s.mute, all=all_, name=names, content=content, packages=packages)
        cond = c.to_contract()
        cond["activity"], cond["location"] = s.activity, s.location
        message = answer.confirmation(
            mute=s.mute, all_=all_, names=names, content=content, delivery=c.delivery,
            expires=c.expires, recurrence=c.recurrence, days_of_week=list(c.days_of_week),
            window_start=c.window_start, window_end=c.window_end, now=now,
        )
        return Decision(
            ok=True, intent=intent, pending_action=action, message=message, target=target,
            condition=Condition(**cond), llm_calls=u.llm_calls,
        )

    def _chitchat(self, why: str, llm_calls: int = 0) -> Decision:
        return Decision(
            ok=False, intent=DialogIntent.REJECT, fail=FailReason.CHITCHAT,
            message=answer.failure(FailReason.CHITCHAT), llm_calls=llm_calls, reason=why,
        )

    # -- hosted fallback ------------------------------------------------------------------
    def _try_hosted(
        self, req: HandleRequest, installed: InstalledIndex, local: Decision, t0: float
    ) -> Decision:
        assert self._hosted is not None
        apps = [InstalledApp(name=a.label, packageName=a.package) for a in installed.apps]
        why = f"local answer {local.fail.value if local.fail else '?'}"
        try:
            resp = self._hosted.handle(req, apps, timeout_s=self._remaining(t0))
        except (HostedEngineError, DeadlineExceeded, Overloaded) as exc:
            # The type only: a hosted error may quote the model, which may quote the user.
            logger.warning("hosted fallback failed: %s", type(exc).__name__)
            return replace(
                local,
                ok=False,
                fail=FailReason.FALLBACK_UNAVAILABLE,
                needs_supplement=False,
                target=None,
                condition=None,
                message=answer.failure(FailReason.FALLBACK_UNAVAILABLE),
                hosted_calls=1,
                reason=f"{why}; hosted failed: {type(exc).__name__}",
            )
        if resp.ok and not _within_caps(resp.condition, req.currentTime):
            # A hosted rule is held to the local validator's caps (366 days, end after start).
            return replace(
                local, ok=False, fail=FailReason.INVALID_TIME, needs_supplement=False,
                target=None, condition=None, message=answer.failure(FailReason.INVALID_TIME),
                hosted_calls=resp.meta.hostedCalls, cost_usd=resp.meta.costUsd, engine="hosted",
                reason=f"{why}; hosted rule outside the caps",
            )
        return Decision(
            ok=resp.ok,
            intent=resp.dialogIntent,
            message=resp.message,
            fail=resp.failReason,
            needs_supplement=resp.needsSupplement,
            pending_action=resp.pendingAction or local.pending_action,
            target=resp.targetFixed,
            condition=resp.condition,
            llm_calls=local.llm_calls,
            hosted_calls=resp.meta.hostedCalls,
            cost_usd=resp.meta.costUsd,
            engine="hosted",
            reason=why,
        )

    def _respond(self, d: Decision, t0: float) -> HandleResponse:
        return HandleResponse(
            ok=d.ok,
            dialogIntent=d.intent,
            pendingAction=d.pending_action,
            needsSupplement=d.needs_supplement,
            failReason=d.fail,
            message=d.message,
            targetFixed=d.target if d.ok else None,
            condition=d.condition if d.ok else None,
            meta=Meta(
                engine=d.engine,
                llmCalls=d.llm_calls,
                hostedCalls=d.hosted_calls,
                fallbackUsed=d.engine == "hosted",
                latencyMs=round((time.perf_counter() - t0) * 1000, 1),
                costUsd=d.cost_usd,
                model=self._model_id,
                reason=d.reason,
            ),
        )


def _within_caps(c: Condition | None, now: datetime) -> bool:
    """What `_rule` demands of a local rule, for a rule that came from the hosted engine."""
    if c is None:
        return False
    try:
        delivery, expires = datetime.fromisoformat(c.delivery), datetime.fromisoformat(c.expires)
    except ValueError:
        return False
    if delivery.tzinfo is None or expires.tzinfo is None:
        return False
    if expires <= delivery or expires - delivery > MAX_RULE_SPAN:
        return False
    return c.recurrence != "none" or expires > now


def _merge(first: Understanding, turn: Understanding) -> Understanding:
    """The earlier command with the new turn's values winning wherever the turn has one."""
    a, b = first.slots, turn.slots
    slots = SlotReading(
        mute=b.mute if any(b.intent_cues) and b.mute is not None else a.mute,
        apps=b.apps if (b.apps or b.unresolved) else a.apps,
        unresolved=b.unresolved if (b.apps or b.unresolved) else a.unresolved,
        content=b.content if b.content else ([] if (b.apps or b.unresolved) else a.content),
        activity=b.activity or a.activity,
        location=b.location or a.location,
        intent_cues=(a.intent_cues[0] or b.intent_cues[0], a.intent_cues[1] or b.intent_cues[1]),
    )
    if slots.mute is None:
        slots.mute = b.mute
    slots.all = not slots.apps and not slots.unresolved and not slots.content
    time_res = turn.time if turn.time.outcome is not TimeOutcome.NO_TIME else first.time
    return Understanding(text=f"{first.text} {turn.text}", time=time_res, slots=slots)
