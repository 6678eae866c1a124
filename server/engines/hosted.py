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
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from notillm_local import resources
from notillm_local.contract.schemas import HandleRequest, HandleResponse, InstalledApp, Meta
from notillm_local.domain import AppRef
from notillm_local.engines.hosted_rules import (
    ENGINE_NAME,
    FOLLOWUP_PROMPT,
    FOLLOWUP_TOOL,
    SYSTEM_PROMPT,
    TOOLS,
    to_contract,
)
from notillm_local.errors import HostedEngineError, NotillmError
from notillm_local.settings import Settings
from notillm_local.stages.apps import AppMapper, InstalledIndex

logger = logging.getLogger(__name__)

# One quick retry for a 5xx or a dropped connection; never past the call's deadline.
DEFAULT_MAX_RETRIES = 1
_MIN_ATTEMPT_S = 0.5
_WEEKDAYS_KO = ["월", "화", "수", "목", "금", "토", "일"]


class HostedNotAllowed(NotillmError):
    """Someone tried to build the hosted client in a process that must stay offline."""


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


# --------------------------------------------------------------------------- the engine


class HostedEngine:
    """Answers one request with one hosted chat-completions call (V1 baseline)."""

    def __init__(
        self,
        settings: Settings,
        *,
        mapper: AppMapper,
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
        self._mapper = mapper
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
        system = SYSTEM_PROMPT.format(
            now=now.isoformat(timespec="seconds"),
            weekday=_WEEKDAYS_KO[now.weekday()],
            labels=", ".join(app.name for app in installed) or "(없음)",
        )
        if req.pending and req.pendingOriginal:
            system += FOLLOWUP_PROMPT.format(original=req.pendingOriginal)
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
        answer = to_contract(req, InstalledIndex.of(AppRef(a.name, a.packageName) for a in installed), calls, self._mapper)
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
