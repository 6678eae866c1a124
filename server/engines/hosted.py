"""The hosted engine: the original system's V1 baseline (OpenAI-compatible function calling).

One chat-completions call with the original three tools — `extract_notification_condition`,
`extract_mute_target`, `extract_allow_target` — and, for follow-up turns only, a fourth
`classify_followup` so that a pending turn still costs one call (V1 needed a second one).
The tool calls are mapped into the contract here; the model never writes the answer's JSON.

Offline is a property of the process: this class refuses to be constructed unless the settings
allow the hosted API, so an offline service can never open a connection through it.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast

from notillm_local import resources
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
from notillm_local.errors import HostedEngineError, NotillmError
from notillm_local.settings import Settings

logger = logging.getLogger(__name__)

ENGINE_NAME = "hosted"
# One quick retry for a 5xx or a dropped connection; never past the call's deadline.
DEFAULT_MAX_RETRIES = 1
_MIN_ATTEMPT_S = 0.5
_HHMM_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_WORD_RE = re.compile(r"^[a-z][a-z_]{1,30}$")
_WEEKDAYS_KO = ["월", "화", "수", "목", "금", "토", "일"]
# Words a model likes to copy into `content` that only restate "a notification".
_GENERIC_CONTENT = frozenset(
    {"알림", "알람", "메세지", "메시지", "푸시", "앱", "어플", "모든", "전체"}
)
_QUOTES = "'\"‘’“”「」『』`"


class HostedNotAllowed(NotillmError):
    """Someone tried to build the hosted client in a process that must stay offline."""


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

_SYSTEM_PROMPT = """너는 휴대폰 알림 규칙 추출기다. 사용자의 한국어 문장을 읽고 도구를 호출해서 규칙을 만든다.

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

_FOLLOWUP_PROMPT = """
이전 요청: "{original}"
이번 문장은 그 요청에 대한 사용자의 답이다. 먼저 classify_followup을 호출한다:
CANCEL(취소), UNRESOLVED(여전히 쓸 정보 없음), CONTINUE(빠진 정보를 채움), UPDATE(일부를 바꿈), NEW_REQUEST(새로운 다른 명령).
CONTINUE와 UPDATE는 두 문장을 합친 규칙을, NEW_REQUEST는 이번 문장만의 규칙을 위 도구로 추출한다."""


# --------------------------------------------------------------------------- prices

_UNPRICED_WARNED: set[str] = set()


@lru_cache(maxsize=4)
def load_price_table(path: Path | None = None) -> dict[str, tuple[float, float]]:
    """Model name → (USD per 1M input tokens, USD per 1M output tokens)."""
    path = path or resources.path("hosted_prices.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: (float(p["input"]), float(p["output"])) for name, p in raw.get("models", {}).items()
    }


def price_for(model: str, table: dict[str, tuple[float, float]]) -> tuple[float, float] | None:
    if model in table:
        return table[model]
    # Dated snapshots ("gpt-4o-2024-08-06") share their family's price; longest prefix wins so
    # that gpt-4o-mini-… is not priced as gpt-4o.
    prefixes = [name for name in table if model.startswith(name + "-")]
    return table[max(prefixes, key=len)] if prefixes else None


def cost_usd(
    model: str,
    prompt_tokens: int,
    completion_tokens: int,
    table: dict[str, tuple[float, float]] | None = None,
) -> float:
    table = load_price_table() if table is None else table
    price = price_for(model, table)
    if price is None:
        if model not in _UNPRICED_WARNED:
            _UNPRICED_WARNED.add(model)
            logger.warning("no price for hosted model %r; costUsd=0", model)
        return 0.0
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1_000_000


# --------------------------------------------------------------------------- mapping helpers


def _norm(label: str) -> str:
    return re.sub(r"\s+", "", label).casefold()


def map_app_names(
    names: Sequence[str], installed: Sequence[InstalledApp]
) -> tuple[list[InstalledApp], list[str]]:
    """The model's app names → installed apps (exact, then unique containment); unmapped names."""
    by_norm = {_norm(app.name): app for app in installed}
    found: list[InstalledApp] = []
    unmapped: list[str] = []
    for raw in names:
        key = _norm(raw)
        if not key:
            continue
        app = by_norm.get(key)
        if app is None:
            # "카카오톡 앱" or "YouTube" for "YouTube Music" should not guess: only a unique hit.
            hits = [a for n, a in by_norm.items() if n in key or key in n]
            app = hits[0] if len(hits) == 1 else None
        if app is None:
            unmapped.append(raw)
        elif app not in found:
            found.append(app)
    return found, unmapped


def _clean_content(words: Sequence[str], app_labels: set[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        w = w.strip().strip(_QUOTES).strip()
        if not w or w in _GENERIC_CONTENT or _norm(w) in app_labels or w in out:
            continue
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


def _iso(dt: datetime) -> str:
    return dt.replace(microsecond=0).isoformat(timespec="seconds")


def _str_list(args: dict[str, Any], key: str) -> list[str]:
    value = args.get(key) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HostedEngineError(f"{key} is not a list of strings: {value!r}")
    return value


def _fmt_hm(dt: datetime) -> str:
    return f"{dt.month}월 {dt.day}일 {dt.hour:02d}:{dt.minute:02d}"


# --------------------------------------------------------------------------- the engine


class HostedEngine:
    """Answers one request with one hosted chat-completions call (V1 baseline)."""

    def __init__(
        self,
        settings: Settings,
        *,
        max_retries: int = DEFAULT_MAX_RETRIES,
        prices_path: Path | None = None,
    ) -> None:
        if settings.offline or not settings.hosted_allowed:
            raise HostedNotAllowed(
                "the hosted engine is never built in offline mode; set engine=hybrid|hosted and "
                "offline=false (NOTILLM_OFFLINE=false) to allow it"
            )
        if not settings.hosted_base_url:
            raise HostedNotAllowed("hosted engine needs hosted_base_url (NOTILLM_HOSTED_BASE_URL)")
        # Imported here so that an offline process never even loads the SDK.
        import openai

        self._openai = openai
        self.model = settings.hosted_model
        self.timeout_s = settings.hosted_timeout_s
        self.max_retries = max(0, max_retries)
        self._prices = load_price_table(prices_path)
        key = settings.hosted_api_key.get_secret_value() if settings.hosted_api_key else None
        # Loopback OpenAI-compatible servers need no key, but the SDK insists on one.
        self._client = openai.OpenAI(
            base_url=settings.hosted_base_url,
            api_key=key or "sk-no-key",
            timeout=self.timeout_s,
            max_retries=0,  # retries are ours, bounded by the deadline
        )

    def close(self) -> None:
        self._client.close()

    # -- the call

    def _messages(
        self, req: HandleRequest, installed: Sequence[InstalledApp]
    ) -> list[dict[str, str]]:
        now = req.currentTime
        system = _SYSTEM_PROMPT.format(
            now=now.isoformat(timespec="seconds"),
            weekday=_WEEKDAYS_KO[now.weekday()],
            labels=", ".join(app.name for app in installed) or "(없음)",
        )
        if req.pending and req.pendingOriginal:
            system += _FOLLOWUP_PROMPT.format(original=req.pendingOriginal)
        return [{"role": "system", "content": system}, {"role": "user", "content": req.prompt}]

    def _complete(
        self, req: HandleRequest, installed: Sequence[InstalledApp], timeout_s: float | None = None
    ) -> Any:
        tools = TOOLS + ([FOLLOWUP_TOOL] if req.pending and req.pendingOriginal else [])
        messages = self._messages(req, installed)
        # The caller's remaining request deadline caps the hosted timeout.
        budget = self.timeout_s if timeout_s is None else min(self.timeout_s, timeout_s)
        deadline = time.monotonic() + budget
        last_exc: Exception | None = None
        for attempt in range(self.max_retries + 1):
            remaining = deadline - time.monotonic()
            if remaining < _MIN_ATTEMPT_S and attempt > 0:
                break
            try:
                # Typed loosely: our messages and tools are plain dicts of the documented shape.
                client: Any = self._client.with_options(timeout=max(remaining, 0.05))
                return client.chat.completions.create(
                    model=self.model,
                    messages=messages,
                    tools=tools,
                    tool_choice="auto",
                    temperature=0,
                )
            except self._openai.APITimeoutError as exc:
                raise HostedEngineError(
                    f"hosted call timed out after {budget:.1f}s"
                ) from exc
            except (
                self._openai.InternalServerError,
                self._openai.APIConnectionError,
                self._openai.RateLimitError,
            ) as exc:
                last_exc = exc
                logger.warning(
                    "hosted call failed (attempt %d): %s", attempt + 1, type(exc).__name__
                )
            except self._openai.APIStatusError as exc:
                raise HostedEngineError(f"hosted API answered HTTP {exc.status_code}") from exc
            except Exception as exc:  # garbage bodies surface as JSON or validation errors
                raise HostedEngineError(f"hosted call failed: {type(exc).__name__}: {exc}") from exc
        raise HostedEngineError(f"hosted call failed: {type(last_exc).__name__}: {last_exc}")

    def handle(
        self, req: HandleRequest, installed: list[InstalledApp], timeout_s: float | None = None
    ) -> HandleResponse:
        t0 = time.perf_counter()
        completion = self._complete(req, installed, timeout_s)
        calls, model_name, cost = self._read_completion(completion)
        answer = self._to_contract(req, installed, calls)
        answer.meta = Meta(
            engine=ENGINE_NAME,
            llmCalls=0,
            hostedCalls=1,
            fallbackUsed=False,
            latencyMs=round((time.perf_counter() - t0) * 1000, 1),
            costUsd=cost,
            model=model_name,
        )
        return answer

    def _read_completion(
        self, completion: Any
    ) -> tuple[list[tuple[str, dict[str, Any]]] | str, str, float]:
        """The tool calls as (name, args) pairs, or the text reply when there were none."""
        choices = getattr(completion, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise HostedEngineError("hosted answer has no choices")
        message = getattr(choices[0], "message", None)
        if message is None:
            raise HostedEngineError("hosted answer has no message")
        usage = getattr(completion, "usage", None)
        p_tok = int(getattr(usage, "prompt_tokens", 0) or 0)
        c_tok = int(getattr(usage, "completion_tokens", 0) or 0)
        reported = getattr(completion, "model", None)
        priced = (
            reported
            if isinstance(reported, str) and price_for(reported, self._prices)
            else self.model
        )
        cost = cost_usd(priced, p_tok, c_tok, self._prices)
        tool_calls = getattr(message, "tool_calls", None) or []
        if not tool_calls:
            text = getattr(message, "content", None)
            if isinstance(text, str) and text.strip():
                return text, self.model, cost
            raise HostedEngineError("hosted answer has neither tool calls nor text")
        calls: list[tuple[str, dict[str, Any]]] = []
        for tc in tool_calls:
            fn = getattr(tc, "function", None)
            name = getattr(fn, "name", None)
            raw_args = getattr(fn, "arguments", None)
            if not isinstance(name, str) or not isinstance(raw_args, str):
                raise HostedEngineError("hosted tool call without a name or arguments")
            try:
                args = json.loads(raw_args) if raw_args.strip() else {}
            except json.JSONDecodeError as exc:
                raise HostedEngineError(f"tool {name!r} arguments are not JSON") from exc
            if not isinstance(args, dict):
                raise HostedEngineError(f"tool {name!r} arguments are not a JSON object")
            calls.append((name, args))
        return calls, self.model, cost

    # -- mapping into the contract

    def _to_contract(
        self,
        req: HandleRequest,
        installed: Sequence[InstalledApp],
        calls: list[tuple[str, dict[str, Any]]] | str,
    ) -> HandleResponse:
        pending = bool(req.pending and req.pendingOriginal)
        intent = DialogIntent.PENDING if pending else DialogIntent.EXTRACT
        if isinstance(calls, str):
            if pending:
                return _ask_time(intent, PendingAction.UNRESOLVED)
            return _fail(
                DialogIntent.REJECT,
                FailReason.CHITCHAT,
                None,
                "알림 설정에 관한 말씀이 아니에요. 예: '2시간 카톡 알림 꺼줘'",
            )
        known = {t["function"]["name"] for t in TOOLS} | {FOLLOWUP_TOOL["function"]["name"]}
        by_name: dict[str, dict[str, Any]] = {}
        for name, args in calls:
            if name not in known:
                raise HostedEngineError(f"hosted answer called an unknown tool {name!r}")
            by_name.setdefault(name, args)

        action: PendingAction | None = None
        if pending:
            raw_action = by_name.get("classify_followup", {}).get("action")
            if raw_action is not None:
                try:
                    action = PendingAction(str(raw_action).upper())
                except ValueError as exc:
                    raise HostedEngineError(f"unknown follow-up action {raw_action!r}") from exc
            has_rule = any(n in by_name for n in (t["function"]["name"] for t in TOOLS))
            action = action or (PendingAction.CONTINUE if has_rule else PendingAction.UNRESOLVED)
            if action is PendingAction.CANCEL:
                return _fail(intent, FailReason.CANCELLED, action, answer.failure(FailReason.CANCELLED))
            if action is PendingAction.UNRESOLVED and not has_rule:
                return _ask_time(intent, action)

        mute_args = by_name.get("extract_mute_target")
        allow_args = by_name.get("extract_allow_target")
        cond_args = by_name.get("extract_notification_condition")
        if mute_args is not None and allow_args is not None:
            return _fail(
                intent,
                FailReason.CONFLICT,
                action,
                "끄는 것과 받는 것이 함께 있어요. 하나만 말씀해 주세요.",
            )
        if mute_args is None and allow_args is None and cond_args is None:
            if pending:
                return _ask_time(intent, action)
            raise HostedEngineError("hosted answer called no rule tool")
        mute = allow_args is None
        target_args = (mute_args if mute else allow_args) or {"name": [], "content": []}

        names = _str_list(target_args, "name")
        apps, unmapped = map_app_names(names, installed)
        if unmapped:
            return _fail(
                intent,
                FailReason.APP_UNRESOLVED,
                action,
                f"'{', '.join(unmapped)}' 앱을 찾지 못했어요.",
            )
        content = _clean_content(
            _str_list(target_args, "content"), {_norm(a.name) for a in installed}
        )
        all_target = not apps and not content
        if all_target and not mute:
            # "only nothing gets through" is not a rule a person means.
            return _fail(
                intent, FailReason.INCOMPLETE, action, "어떤 알림만 받을지 알려주세요.", needs=True
            )
        if cond_args is None:
            return _ask_time(intent, action)

        now = req.currentTime
        delivery = _parse_time(cond_args.get("delivery"), now, "delivery") or now
        expires = _parse_time(cond_args.get("expires"), now, "expires")
        if expires is None:
            return _ask_time(intent, action)
        if expires <= delivery or expires <= now:
            return _fail(intent, FailReason.INVALID_TIME, action, "끝나는 시각이 시작보다 앞서요.")
        raw_recurrence = cond_args.get("recurrence") or "none"
        if raw_recurrence not in ("none", "daily", "weekly"):
            raise HostedEngineError(f"unknown recurrence {raw_recurrence!r}")
        recurrence = cast(Literal["none", "daily", "weekly"], raw_recurrence)
        days = cond_args.get("days_of_week") or []
        if not isinstance(days, list) or not all(isinstance(d, int) and 1 <= d <= 7 for d in days):
            raise HostedEngineError(f"bad days_of_week {days!r}")
        ws, we = cond_args.get("window_start"), cond_args.get("window_end")
        if recurrence == "none":
            ws = we = None
            days = []
        else:
            if not (
                isinstance(ws, str)
                and _HHMM_RE.match(ws)
                and isinstance(we, str)
                and _HHMM_RE.match(we)
            ):
                # Fall back to the occurrence itself: the window the model gave as instants.
                ws, we = delivery.strftime("%H:%M"), expires.strftime("%H:%M")
            if recurrence == "weekly" and not days:
                return _fail(
                    intent, FailReason.INCOMPLETE, action, "어느 요일인지 알려주세요.", needs=True
                )
            if recurrence == "daily":
                days = []
        target = TargetFixed(
            mute=mute,
            all=all_target,
            name=[a.name for a in apps],
            content=content,
            packages=[a.packageName for a in apps],
        )
        condition = Condition(
            delivery=_iso(delivery),
            expires=_iso(expires),
            recurrence=recurrence,
            days_of_week=sorted(set(days)),
            window_start=ws,
            window_end=we,
            activity=_word(cond_args.get("activity")),
            location=_word(cond_args.get("location")),
        )
        what = "모든 알림" if all_target else ", ".join([a.name for a in apps] + content) + " 알림"
        verb = "받지 않을게요" if mute else "만 받을게요"
        message = f"{what}을 {_fmt_hm(expires)}까지 {verb}." if mute else f"{what}{verb}."
        return HandleResponse(
            ok=True,
            dialogIntent=intent,
            pendingAction=action,
            message=message,
            targetFixed=target,
            condition=condition,
            meta=_placeholder_meta(),
        )


def _word(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    value = value.strip().lower()
    return value if _WORD_RE.match(value) else None


def _placeholder_meta() -> Meta:
    # Replaced by handle() once latency and cost are known.
    return Meta(
        engine=ENGINE_NAME,
        llmCalls=0,
        hostedCalls=1,
        fallbackUsed=False,
        latencyMs=0.0,
        costUsd=0.0,
        model=None,
    )


def _ask_time(intent: DialogIntent, action: PendingAction | None) -> HandleResponse:
    """The contract's answer for a rule with no usable time: incomplete, and ask how long."""
    return _fail(intent, FailReason.INCOMPLETE, action, answer.ask("time"), needs=True)


def _fail(
    intent: DialogIntent,
    reason: FailReason,
    action: PendingAction | None,
    message: str,
    *,
    needs: bool = False,
) -> HandleResponse:
    return HandleResponse(
        ok=False,
        dialogIntent=intent,
        pendingAction=action,
        needsSupplement=needs,
        failReason=reason,
        message=message,
        meta=_placeholder_meta(),
    )
