"""The HTTP contract (docs/contract.md) as pydantic models.

Only this module knows the JSON shape; stages speak the internal types in `domain`.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    field_validator,
    model_serializer,
)

# Budgets per field, from what a phone really sends (reasons: docs/reliability.md, "Budgets").
PROMPT_MAX_CHARS = 500
INSTALLED_APPS_MAX = 300  # launchable apps; a heavy user has ~200, the shipped catalog 60
LABEL_MAX_CHARS = 60  # Play titles are at most 30; launcher labels run longer, never this long
PACKAGE_MAX_CHARS = 100  # the longest in our catalogs is 39
PENDING_ORIGINAL_MAX_CHARS = PROMPT_MAX_CHARS  # it is the earlier prompt
# Android package names: dot-separated Java identifiers, at least two segments.
PACKAGE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$")
# Years outside this range are almost surely a client bug, not a real clock.
MIN_YEAR, MAX_YEAR = 2000, 2200


_KEPT_CONTROLS = frozenset("\t\n\r")


def clean_text(text: str) -> str:
    """User text as every stage may read it, or ValueError (a 422) for text that is not text.

    - A lone surrogate (JSON can carry `"\\ud800"`) is not a character: refused. It broke the
      tokenizer with a 500 (issue 16).
    - Format characters (Unicode Cf: bidi controls, zero-width space and joiners, BOM, soft
      hyphen) are invisible: removed, so "카\u200b톡" reads as 카톡 and no right-to-left
      override can reach a grammar, a log or `message`.
    - Control characters other than tab and line breaks (NUL, ESC, DEL, C1) become a space:
      they separate words, they never join them.
    - NFC, so Hangul typed decomposed (macOS, iOS) matches the lexicon.
    """
    if text.isprintable() and text.isascii():
        return text  # the common case for labels and packages: nothing to clean
    out: list[str] = []
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Cs":
            raise ValueError("text must be valid Unicode: a lone surrogate is not a character")
        if kind == "Cf":
            continue
        out.append(" " if kind == "Cc" and ch not in _KEPT_CONTROLS else ch)
    return unicodedata.normalize("NFC", "".join(out))


class DialogIntent(StrEnum):
    EXTRACT = "extract"
    REJECT = "reject"
    PENDING = "pending"


class PendingAction(StrEnum):
    CANCEL = "CANCEL"
    UNRESOLVED = "UNRESOLVED"
    CONTINUE = "CONTINUE"
    UPDATE = "UPDATE"
    NEW_REQUEST = "NEW_REQUEST"


class FailReason(StrEnum):
    CHITCHAT = "chitchat"
    CANCELLED = "cancelled"
    INCOMPLETE = "incomplete"
    APP_UNRESOLVED = "app_unresolved"
    CONFLICT = "conflict"
    INVALID_TIME = "invalid_time"
    FALLBACK_UNAVAILABLE = "fallback_unavailable"


class InstalledApp(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    name: Annotated[str, Field(min_length=1, max_length=LABEL_MAX_CHARS)]
    packageName: Annotated[str, Field(min_length=3, max_length=PACKAGE_MAX_CHARS)]

    @field_validator("name")
    @classmethod
    def _label_not_blank(cls, v: str) -> str:
        v = clean_text(v).strip()
        if not v:
            raise ValueError("app label must not be blank")
        return v

    @field_validator("packageName")
    @classmethod
    def _valid_package(cls, v: str) -> str:
        if not PACKAGE_NAME_RE.match(v):
            raise ValueError(f"not a valid Android package name: {v!r}")
        return v


class HandleRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    prompt: Annotated[str, Field(description="The user's words, 1-500 characters after trimming.")]
    currentTime: Annotated[
        datetime, Field(description="ISO 8601 with a UTC offset; every answer time uses it.")
    ]
    # Strict: "yes", 1 or "true" are client bugs, not booleans (a 422, never a guess).
    pending: StrictBool = False
    pendingOriginal: Annotated[str | None, Field(max_length=PENDING_ORIGINAL_MAX_CHARS)] = None
    installedApps: Annotated[
        list[InstalledApp] | None, Field(max_length=INSTALLED_APPS_MAX)
    ] = None
    trace: StrictBool = Field(
        False,
        description=(
            "Opt in to meta.trace: what each stage read and how long it took (never logged). "
            "An addition to the contract for debugging tools such as the built-in page."
        ),
    )

    @field_validator("prompt")
    @classmethod
    def _prompt_length(cls, v: str) -> str:
        v = clean_text(v).strip()
        if not v:
            raise ValueError("prompt must not be empty")
        if len(v) > PROMPT_MAX_CHARS:
            raise ValueError(f"prompt must be at most {PROMPT_MAX_CHARS} characters")
        return v

    @field_validator("pendingOriginal")
    @classmethod
    def _clean_original(cls, v: str | None) -> str | None:
        return None if v is None else clean_text(v)

    @field_validator("currentTime", mode="before")
    @classmethod
    def _require_offset(cls, v: object) -> object:
        # A time without an offset is a 422, never a guess (CONTRACT.md); so is a number (Unix
        # seconds have no offset) or anything else that is not an ISO 8601 string.
        if not isinstance(v, str | datetime):
            raise ValueError("currentTime must be an ISO 8601 string with a UTC offset")
        if isinstance(v, str):
            try:
                parsed = datetime.fromisoformat(v.replace("Z", "+00:00"))
            except ValueError as exc:
                raise ValueError("currentTime must be ISO 8601 with a UTC offset") from exc
            v = parsed
        if isinstance(v, datetime):
            if v.tzinfo is None or v.utcoffset() is None:
                raise ValueError("currentTime must carry a UTC offset")
            if not (MIN_YEAR <= v.year <= MAX_YEAR):
                raise ValueError(f"currentTime year must be within {MIN_YEAR}-{MAX_YEAR}")
        return v


class TargetFixed(BaseModel):
    mute: bool
    all: bool
    name: list[str]
    content: list[str]
    packages: list[str]


class Condition(BaseModel):
    delivery: str
    expires: str
    recurrence: Literal["none", "daily", "weekly"]
    days_of_week: list[int]
    window_start: str | None
    window_end: str | None
    activity: str | None = None
    location: str | None = None


SpanKind = Literal[
    "time", "app", "keyword", "intent", "exclusion", "all", "context", "filler", "question",
    "unread",
]


class TraceSpan(BaseModel):
    """A stretch of one turn's text and what read it."""

    turn: Literal["prompt", "pendingOriginal"] = "prompt"
    start: int = Field(description="Offset in that turn's text (after trimming), inclusive.")
    end: int = Field(description="Offset, exclusive.")
    text: str
    kind: SpanKind
    label: str | None = Field(
        None, description="What it was read as: an app's label, mute/allow, a time axis ..."
    )
    source: Literal["code", "model"] = "code"


class TraceSlot(BaseModel):
    """One slot of the rule and who decided it."""

    slot: Literal["intent", "target", "keywords", "time", "pendingAction"]
    decidedBy: Literal["code", "model", "hosted"]
    value: str | None = None
    note: str | None = Field(None, description="Why, e.g. code and model disagreed.")


class TraceGate(BaseModel):
    pCommand: float
    threshold: float
    chitchat: bool


class TraceStage(BaseModel):
    name: str
    ms: float


class Trace(BaseModel):
    """meta.trace, present only when the request asked for it (`trace: true`)."""

    spans: list[TraceSpan] = Field(default_factory=list)
    slots: list[TraceSlot] = Field(default_factory=list)
    gate: TraceGate | None = None
    timeOutcome: str | None = None
    timeAxis: str | None = None
    stages: list[TraceStage] = Field(default_factory=list)


class Meta(BaseModel):
    engine: str
    llmCalls: int
    hostedCalls: int
    fallbackUsed: bool
    latencyMs: float
    costUsd: float
    model: str | None
    reason: str | None = Field(
        default=None, description="Why the engine that answered was used (hybrid mode)."
    )
    trace: Trace | None = Field(
        default=None, description="Only when the request set trace=true (see Trace)."
    )

    @model_serializer(mode="wrap")
    def _omit_absent_trace(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # The contract's meta has no trace key: leave it out unless it was asked for.
        data: dict[str, Any] = handler(self)
        if data.get("trace") is None:
            data.pop("trace", None)
        return data


class HandleResponse(BaseModel):
    ok: bool
    dialogIntent: DialogIntent
    pendingAction: PendingAction | None = None
    needsSupplement: bool = False
    failReason: FailReason | None = None
    message: str
    targetFixed: TargetFixed | None = None
    condition: Condition | None = None
    meta: Meta


class HealthResponse(BaseModel):
    status: Literal["ok", "loading", "error"]
    engine: str
    offline: bool
    models: dict[str, str]


class ErrorResponse(BaseModel):
    error: str
    detail: str | object | None = None
