"""The contract's rules for a rule, in the order the user must fix them — for every engine.

Local and hosted engines both hand a `RuleDraft` (what they read) to `judge`, which decides
ok or the failReason, and words the answer through the one answer module. So a hosted rule is
held to exactly the caps and wording of a local one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from notillm_local.contract import answer
from notillm_local.contract.schemas import (
    Condition,
    DialogIntent,
    FailReason,
    HandleResponse,
    Meta,
    PendingAction,
    TargetFixed,
)
from notillm_local.domain import AppRef, TimeCondition

MAX_RULE_SPAN = timedelta(days=366)


class TimeStatus(StrEnum):
    OK = "ok"
    MISSING = "missing"  # no time words: ask how long
    UNCLEAR = "unclear"  # time words that could not all be read: ask rather than guess
    CONFLICT = "conflict"
    INVALID = "invalid"  # past, impossible, over the caps, or unusable time words


@dataclass(frozen=True)
class RuleDraft:
    """What an engine read from a command, before the contract's rules are applied."""

    mute: bool | None
    apps: tuple[AppRef, ...] = ()
    unresolved: tuple[str, ...] = ()  # words naming apps this device does not have
    content: tuple[str, ...] = ()
    condition: TimeCondition | None = None
    time: TimeStatus = TimeStatus.OK
    conflict: bool = False  # the command contradicts itself outside its time words
    activity: str | None = None
    location: str | None = None
    why: str | None = None  # a short reason from the engine (never prompt text)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str
    fail: FailReason | None = None
    needs_supplement: bool = False
    target: TargetFixed | None = None
    condition: Condition | None = None
    reason: str | None = None


def judge(draft: RuleDraft, now: datetime) -> Verdict:
    """ok with the rule, or the failure the user must fix first (docs/decisions.md)."""
    if draft.unresolved:
        return _fail(
            FailReason.APP_UNRESOLVED,
            answer.failure(FailReason.APP_UNRESOLVED, words=list(draft.unresolved)),
            why="app not installed or not recognised",
        )
    if draft.time is TimeStatus.INVALID:
        return _fail(FailReason.INVALID_TIME, answer.failure(FailReason.INVALID_TIME), why=draft.why)
    if draft.time is TimeStatus.CONFLICT or draft.conflict:
        return _fail(FailReason.CONFLICT, answer.failure(FailReason.CONFLICT), why=draft.why)
    if draft.mute is None:
        return _fail(FailReason.INCOMPLETE, answer.ask("intent"), ask=True, why="intent unclear")
    if draft.time is not TimeStatus.OK or draft.condition is None:
        why = "time words not understood" if draft.time is TimeStatus.UNCLEAR else "no time"
        return _fail(FailReason.INCOMPLETE, answer.ask("time"), ask=True, why=why)
    c = draft.condition
    if not within_caps(c, now):
        return _fail(
            FailReason.INVALID_TIME, answer.failure(FailReason.INVALID_TIME), why="outside the caps"
        )
    all_ = not draft.apps and not draft.content
    names = [] if all_ else [a.label for a in draft.apps]
    packages = [] if all_ else [a.package for a in draft.apps]
    content = [] if all_ else list(draft.content)
    target = TargetFixed(mute=draft.mute, all=all_, name=names, content=content, packages=packages)
    cond = c.to_contract()
    cond["activity"], cond["location"] = draft.activity, draft.location
    message = answer.confirmation(
        mute=draft.mute, all_=all_, names=names, content=content, delivery=c.delivery,
        expires=c.expires, recurrence=c.recurrence, days_of_week=list(c.days_of_week),
        window_start=c.window_start, window_end=c.window_end, now=now,
    )
    return Verdict(ok=True, message=message, target=target, condition=Condition(**cond))


def respond(
    v: Verdict, intent: DialogIntent, action: PendingAction | None, meta: Meta
) -> HandleResponse:
    """The contract answer for a verdict (rule and condition only when ok)."""
    return HandleResponse(
        ok=v.ok,
        dialogIntent=intent,
        pendingAction=action,
        needsSupplement=v.needs_supplement,
        failReason=v.fail,
        message=v.message,
        targetFixed=v.target if v.ok else None,
        condition=v.condition if v.ok else None,
        meta=meta,
    )


def verdict_of(resp: HandleResponse) -> Verdict:
    """A contract answer read back as a verdict (the hosted engine's answer in hybrid mode)."""
    return Verdict(
        ok=resp.ok,
        message=resp.message,
        fail=resp.failReason,
        needs_supplement=resp.needsSupplement,
        target=resp.targetFixed,
        condition=resp.condition,
    )


def within_caps(c: TimeCondition, now: datetime) -> bool:
    """End after start, at most 366 days, and a one-off rule not already over."""
    if c.delivery.tzinfo is None or c.expires.tzinfo is None:
        return False
    if c.expires <= c.delivery or c.expires - c.delivery > MAX_RULE_SPAN:
        return False
    return c.recurrence != "none" or c.expires > now


def _fail(reason: FailReason, message: str, *, ask: bool = False, why: str | None) -> Verdict:
    return Verdict(ok=False, message=message, fail=reason, needs_supplement=ask, reason=why)
