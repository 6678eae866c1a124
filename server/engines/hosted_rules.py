"""The hosted engine's side of the contract: the V1 tools, its prompts, and its tool calls read
into a `RuleDraft` that the shared validator (contract/validate.py) judges.

App names the model writes go through the same mapper as the user's own words (alias table,
misspellings, embeddings), so "왓츠앱" for a device whose label is "WhatsApp" maps the same way
whichever engine read it; validation and wording are the local engine's, word for word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from notillm_local import lexicon
from notillm_local.contract import answer
from notillm_local.contract.schemas import (
    DialogIntent,
    FailReason,
    HandleRequest,
    HandleResponse,
    Meta,
    PendingAction,
)
from notillm_local.contract.validate import RuleDraft, TimeStatus, Verdict, judge, respond
from notillm_local.domain import AppMatch, AppRef, TimeCondition
from notillm_local.errors import HostedEngineError
from notillm_local.stages.apps import AppMapper, InstalledIndex

ENGINE_NAME = "hosted"
_HHMM_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_WORD_RE = re.compile(r"^[a-z][a-z_]{1,30}$")
_QUOTES = "'\"‘’“”「」『』`"
# Words a model likes to copy into `content` that only restate "a notification".
_GENERIC_CONTENT = frozenset({"앱", "어플", "모든", "전체"})


# --------------------------------------------------------------------------- tools

_STR_LIST = {"type": "array", "items": {"type": "string"}}
_TARGET_PARAMS = {
    "type": "object",
    "properties": {
        "name": {
            **_STR_LIST,
            "description": "설치된 앱 목록에 있는 앱 이름 그대로 (없으면 빈 배열)",
        },
        "content": {
            **_STR_LIST,
            "description": "알림 내용에 들어가야 하는 키워드 (따옴표·조사 없이)",
        },
    },
    "required": ["name", "content"],
}

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "extract_notification_condition",
            "description": "알림 규칙이 적용되는 시간과 조건을 추출한다.",
            "parameters": {
                "type": "object",
                "properties": {
                    "delivery": {
                        "type": "string",
                        "description": "규칙 시작 시각, ISO 8601 (현재 시각과 같은 오프셋)",
                    },
                    "expires": {
                        "type": "string",
                        "description": "규칙 종료 시각, ISO 8601 (현재 시각과 같은 오프셋)",
                    },
                    "activity": {
                        "type": ["string", "null"],
                        "description": "driving, sleeping, meeting, exercising 중 하나 또는 null",
                    },
                    "location": {
                        "type": ["string", "null"],
                        "description": "home, work, school 중 하나 또는 null",
                    },
                    "recurrence": {"type": "string", "enum": ["none", "daily", "weekly"]},
                    "days_of_week": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 7},
                        "description": "반복 요일 (1=월 … 7=일), weekly일 때만",
                    },
                    "window_start": {"type": ["string", "null"], "description": "HH:MM, 반복일 때"},
                    "window_end": {"type": ["string", "null"], "description": "HH:MM, 반복일 때"},
                },
                "required": ["delivery", "expires", "recurrence"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "extract_mute_target",
            "description": "받지 않을(끌) 알림의 대상 앱과 키워드를 추출한다.",
            "parameters": _TARGET_PARAMS,
        },
    },
    {
        "type": "function",
        "function": {
            "name": "extract_allow_target",
            "description": "이 대상의 알림만 받고 나머지는 끄는 경우, 받을 앱과 키워드를 추출한다.",
            "parameters": _TARGET_PARAMS,
        },
    },
]

FOLLOWUP_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "classify_followup",
        "description": "이전 요청에 이어지는 사용자의 답을 분류한다.",
        "parameters": {
            "type": "object",
            "properties": {"action": {"type": "string", "enum": [a.value for a in PendingAction]}},
            "required": ["action"],
        },
    },
}

SYSTEM_PROMPT = """너는 휴대폰 알림 규칙 추출기다. 사용자의 한국어 문장을 읽고 도구를 호출해서 규칙을 만든다.

현재 시각: {now} ({weekday}요일)
설치된 앱: {labels}

규칙:
- 알림 명령이면 extract_notification_condition을 한 번, 그리고 extract_mute_target(끄기·받지마·무음) 또는 extract_allow_target(~만 받아줘·~만 울리게·~빼고 다 꺼줘) 중 하나를 호출한다.
- 앱 이름은 반드시 위의 설치된 앱 이름 그대로 쓴다 (카톡→카카오톡, 문자→메시지, 플레이스토어→Play 스토어). 모든 알림이면 name과 content를 빈 배열로 둔다.
- content에는 알림 내용에 들어가야 하는 키워드만 넣는다. '알림', '메세지' 같은 말은 넣지 않는다.
- 시간은 현재 시각과 같은 오프셋의 ISO 8601로 쓴다. "2시간"이면 delivery=지금, expires=지금+2시간. "3시까지"처럼 오전/오후가 없으면 지금 이후 가장 빠른 시각이다.
- "매일 밤 10시부터 아침 6시까지"는 recurrence=daily, window_start="22:00", window_end="06:00"이고 delivery/expires는 지금 적용 중이거나 다음 번 구간이다. 요일이 있으면 weekly와 days_of_week(1=월 … 7=일).
- 시간이 전혀 없으면 extract_notification_condition을 호출하지 않는다.
- 알림 명령이 아니면(잡담) 도구를 호출하지 말고 짧게 답한다."""

FOLLOWUP_PROMPT = """
이전 요청: "{original}"
이번 문장은 그 요청에 대한 사용자의 답이다. 먼저 classify_followup을 호출한다:
CANCEL(취소), UNRESOLVED(여전히 쓸 정보 없음), CONTINUE(빠진 정보를 채움), UPDATE(일부를 바꿈), NEW_REQUEST(새로운 다른 명령).
CONTINUE와 UPDATE는 두 문장을 합친 규칙을, NEW_REQUEST는 이번 문장만의 규칙을 위 도구로 추출한다."""



# --------------------------------------------------------------------------- reading the calls


def to_contract(
    req: HandleRequest,
    installed: InstalledIndex,
    calls: list[tuple[str, dict[str, Any]]] | str,
    mapper: AppMapper,
) -> HandleResponse:
    """The model's tool calls (or its text reply) as a contract answer, judged like a local one."""
    pending = bool(req.pending and req.pendingOriginal)
    intent = DialogIntent.PENDING if pending else DialogIntent.EXTRACT
    if isinstance(calls, str):
        if pending:
            return _answer(intent, PendingAction.UNRESOLVED, _ask_time())
        return _answer(DialogIntent.REJECT, None, _fail(FailReason.CHITCHAT))
    known = {t["function"]["name"] for t in TOOLS} | {FOLLOWUP_TOOL["function"]["name"]}
    by_name: dict[str, dict[str, Any]] = {}
    for name, args in calls:
        if name not in known:
            raise HostedEngineError(f"hosted answer called an unknown tool {name!r}")
        by_name.setdefault(name, args)

    action: PendingAction | None = None
    has_rule = any(n in by_name for n in (t["function"]["name"] for t in TOOLS))
    if pending:
        raw_action = by_name.get("classify_followup", {}).get("action")
        if raw_action is not None:
            try:
                action = PendingAction(str(raw_action).upper())
            except ValueError as exc:
                raise HostedEngineError(f"unknown follow-up action {raw_action!r}") from exc
        action = action or (PendingAction.CONTINUE if has_rule else PendingAction.UNRESOLVED)
        if action is PendingAction.CANCEL:
            return _answer(intent, action, _fail(FailReason.CANCELLED))
        if action is PendingAction.UNRESOLVED and not has_rule:
            return _answer(intent, action, _ask_time())
    if not has_rule:
        if pending:
            return _answer(intent, action, _ask_time())
        raise HostedEngineError("hosted answer called no rule tool")
    draft = _draft(req, installed, by_name, mapper)
    return _answer(intent, action, judge(draft, req.currentTime))


def _draft(
    req: HandleRequest,
    installed: InstalledIndex,
    by_name: dict[str, dict[str, Any]],
    mapper: AppMapper,
) -> RuleDraft:
    mute_args = by_name.get("extract_mute_target")
    allow_args = by_name.get("extract_allow_target")
    cond_args = by_name.get("extract_notification_condition")
    mute = allow_args is None
    target_args = (mute_args if mute else allow_args) or {"name": [], "content": []}
    apps: list[AppRef] = []
    unresolved: list[str] = []
    for raw in _str_list(target_args, "name"):
        found = mapper.resolve(raw, installed) if lexicon.normalise(raw) else None
        if isinstance(found, AppMatch):
            if found.app not in apps:
                apps.append(found.app)
        elif lexicon.normalise(raw):
            unresolved.append(raw)
    content = _clean_content(_str_list(target_args, "content"), installed)
    condition, status = _condition(req.currentTime, cond_args)
    return RuleDraft(
        mute=mute,
        apps=tuple(apps),
        unresolved=tuple(unresolved),
        content=tuple(content),
        condition=condition,
        time=status,
        conflict=mute_args is not None and allow_args is not None,
        activity=_word(cond_args.get("activity")) if cond_args else None,
        location=_word(cond_args.get("location")) if cond_args else None,
        why="hosted tool calls",
    )


def _condition(
    now: datetime, args: dict[str, Any] | None
) -> tuple[TimeCondition | None, TimeStatus]:
    if args is None:
        return None, TimeStatus.MISSING
    delivery = _parse_time(args.get("delivery"), now, "delivery") or now
    expires = _parse_time(args.get("expires"), now, "expires")
    if expires is None:
        return None, TimeStatus.MISSING
    recurrence = args.get("recurrence") or "none"
    if recurrence not in ("none", "daily", "weekly"):
        raise HostedEngineError(f"unknown recurrence {recurrence!r}")
    days = args.get("days_of_week") or []
    if not isinstance(days, list) or not all(isinstance(d, int) and 1 <= d <= 7 for d in days):
        raise HostedEngineError(f"bad days_of_week {days!r}")
    ws, we = args.get("window_start"), args.get("window_end")
    if recurrence == "none":
        ws = we = None
        days = []
    else:
        if not (isinstance(ws, str) and _HHMM_RE.match(ws) and isinstance(we, str)
                and _HHMM_RE.match(we)):
            # Fall back to the occurrence itself: the window the model gave as instants.
            ws, we = delivery.strftime("%H:%M"), expires.strftime("%H:%M")
        if recurrence == "weekly" and not days:
            return None, TimeStatus.UNCLEAR
        if recurrence == "daily":
            days = []
    cond = TimeCondition(
        delivery=delivery.replace(microsecond=0),
        expires=expires.replace(microsecond=0),
        recurrence=recurrence,
        days_of_week=tuple(sorted(set(days))),
        window_start=ws,
        window_end=we,
    )
    return cond, TimeStatus.OK


def _clean_content(words: Sequence[str], installed: InstalledIndex) -> list[str]:
    generic = lexicon.words("markers", "notification_nouns")
    out: list[str] = []
    for w in words:
        w = w.strip().strip(_QUOTES).strip()
        key = lexicon.normalise(w)
        if not key or key in generic or w in _GENERIC_CONTENT or key in installed.by_norm_label:
            continue
        if w not in out:
            out.append(w)
    return out


def _parse_time(value: Any, now: datetime, field: str) -> datetime | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise HostedEngineError(f"{field} is not a string: {value!r}")
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise HostedEngineError(f"{field} is not ISO 8601: {value!r}") from exc
    if dt.tzinfo is None:
        # The prompt gives the offset; a model that drops it still means the user's clock.
        dt = dt.replace(tzinfo=now.tzinfo)
    return dt.astimezone(now.tzinfo)


def _str_list(args: dict[str, Any], key: str) -> list[str]:
    value = args.get(key) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HostedEngineError(f"{key} is not a list of strings: {value!r}")
    return value


def _word(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    value = value.strip().lower()
    return value if _WORD_RE.match(value) else None


def _fail(reason: FailReason) -> Verdict:
    return Verdict(ok=False, message=answer.failure(reason), fail=reason)


def _ask_time() -> Verdict:
    return Verdict(
        ok=False, message=answer.ask("time"), fail=FailReason.INCOMPLETE, needs_supplement=True
    )


def _answer(intent: DialogIntent, action: PendingAction | None, v: Verdict) -> HandleResponse:
    # meta is replaced by HostedEngine.handle once latency and cost are known.
    meta = Meta(engine=ENGINE_NAME, llmCalls=0, hostedCalls=1, fallbackUsed=False,
                latencyMs=0.0, costUsd=0.0, model=None)
    return respond(v, intent, action, meta)
