"""The HTTP contract (shared/contract/CONTRACT.md) as pydantic models.

Only this module knows the JSON shape; stages speak the internal types in `domain`.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

PROMPT_MAX_CHARS = 500
INSTALLED_APPS_MAX = 500
LABEL_MAX_CHARS = 100
PENDING_ORIGINAL_MAX_CHARS = 1000
# Android package names: dot-separated Java identifiers, at least two segments.
PACKAGE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$")
# Years outside this range are almost surely a client bug, not a real clock.
MIN_YEAR, MAX_YEAR = 2000, 2200


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
    packageName: Annotated[str, Field(min_length=3, max_length=255)]

    @field_validator("name")
    @classmethod
    def _label_not_blank(cls, v: str) -> str:
        v = v.strip()
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
    pending: bool = False
    pendingOriginal: Annotated[str | None, Field(max_length=PENDING_ORIGINAL_MAX_CHARS)] = None
    installedApps: Annotated[
        list[InstalledApp] | None, Field(max_length=INSTALLED_APPS_MAX)
    ] = None

    @field_validator("prompt")
    @classmethod
    def _prompt_length(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("prompt must not be empty")
        if len(v) > PROMPT_MAX_CHARS:
            raise ValueError(f"prompt must be at most {PROMPT_MAX_CHARS} characters")
        return v

    @field_validator("currentTime", mode="before")
    @classmethod
    def _require_offset(cls, v: object) -> object:
        # A time without an offset is a 422, never a guess (CONTRACT.md).
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
