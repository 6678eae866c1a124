"""Every setting of the service in one place: env NOTILLM_*, CLI flags, defaults, bounds."""

from __future__ import annotations

import ipaddress
import os
from enum import StrEnum
from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_CACHE_DIR = Path.home() / ".cache" / "notillm-local"


MAX_DEFAULT_THREADS = 8


def default_threads() -> int:
    """The cores this process may use (its CPU affinity, so containers and `taskset` count),
    bounded to 1..MAX_DEFAULT_THREADS."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not every platform has affinity (macOS)
        usable = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_THREADS, usable))


class EngineMode(StrEnum):
    LOCAL = "local"
    HYBRID = "hybrid"
    HOSTED = "hosted"


class ExtractorMode(StrEnum):
    AUTO = "auto"  # code fills what it is sure of; the model decides only the unsure slots
    MODEL = "model"  # the model decides every slot (grammar-held); code still does time
    RULES = "rules"  # never call the model; code's best reading (for comparison runs)


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def is_loopback(host: str) -> bool:
    """Whether a bind address or Host name stays on this machine (127.0.0.0/8, ::1, localhost)."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(name.split("%")[0]).is_loopback
    except ValueError:
        return False


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="NOTILLM_", env_file=None, extra="ignore", validate_default=True
    )

    # --- serving ---
    host: str = Field("127.0.0.1", description="Bind address; non-loopback needs api_token.")
    port: int = Field(8765, ge=1, le=65535, description="TCP port of the HTTP service.")
    api_token: SecretStr | None = Field(
        None,
        description=(
            "Bearer token required on every request when set; required off loopback. Printable "
            "ASCII without spaces; an empty or blank value is a start-up error, never 'no auth'."
        ),
    )
    log_level: str = Field("INFO", description="Python logging level.")
    privacy: bool = Field(True, description="Never log prompt text.")

    # --- engines ---
    engine: EngineMode = Field(
        EngineMode.LOCAL, description="local, hybrid (hosted only when local fails), or hosted."
    )
    offline: bool = Field(
        True,
        description="Privacy mode: the hosted client is never constructed; only loopback is used.",
    )
    extractor_mode: ExtractorMode = Field(
        ExtractorMode.AUTO, description="How slots are decided: auto, model or rules."
    )

    pending_model: bool = Field(
        False,
        description=(
            "Ask the local model (five-way grammar) about follow-up turns whose cheap signals "
            "disagree. Off by default: the base model labelled such turns CANCEL when the words "
            "after the cancel word carried the answer."
        ),
    )

    # --- local model ---
    cache_dir: Path = Field(DEFAULT_CACHE_DIR, description="Where assembled/exported models live.")
    model_path: Path | None = Field(
        None, description="A local GGUF file; default: Gemma 3 270M Q4_K_M from its PyPI package."
    )
    adapter_path: Path | None = Field(None, description="A LoRA adapter in GGUF to apply.")
    use_adapter: bool = Field(
        True,
        description=(
            "Apply the shipped LoRA adapter (resources/adapters/) on the base model; false = base "
            "model with the few-shot prefix."
        ),
    )
    n_threads: int = Field(
        default_factory=lambda: default_threads(),
        ge=1,
        le=64,
        description=(
            "CPU threads for the local model and the encoder; default: the cores this process "
            "may use, at most 8 (more rarely helps a 270M model and starves the rest)."
        ),
    )
    n_ctx: int = Field(1024, ge=256, le=8192, description="Context length of the local model.")
    max_new_tokens: int = Field(48, ge=4, le=256, description="Cap on generated tokens per call.")
    verify_model_hash: bool = Field(
        True, description="Check the GGUF's sha256 against the catalog on load."
    )

    # --- encoder / gate ---
    encoder_path: Path | None = Field(
        None, description="Directory of the ONNX sentence encoder; default: exported into cache."
    )
    gate_path: Path | None = Field(
        None, description="The trained chitchat gate (JSON); default the shipped resources/gate/gate.json."
    )
    gate_enabled: bool = Field(True, description="Reject chitchat before any model call.")
    embeddings_enabled: bool = Field(
        True,
        description="Load the ONNX encoder (gate + embedding app matcher); off = alias table only.",
    )

    # --- apps ---
    apps_catalog: Path | None = Field(
        None,
        description=(
            "Installed-app catalog used when a request has no installedApps; default: the "
            "shipped Galaxy catalog (apps_galaxy_ko.json)."
        ),
    )

    # --- hosted fallback ---
    hosted_base_url: str | None = Field(None, description="OpenAI-compatible base URL.")
    hosted_model: str = Field("gpt-4o", description="Hosted model name.")
    hosted_api_key: SecretStr | None = Field(None, description="Hosted API key.")
    hosted_timeout_s: float = Field(8.0, gt=0, le=120, description="Hosted call timeout.")

    # --- load control ---
    request_deadline_s: float = Field(
        20.0, gt=0, le=300, description="Every request is answered within this time."
    )
    queue_size: int = Field(16, ge=1, le=1024, description="Requests waiting for the model.")
    heavy_slots: int = Field(
        1, ge=1, le=64,
        description=(
            "Expensive requests (long texts, a catalog of many apps not seen before) served at "
            "once; ordinary requests never wait for these."
        ),
    )
    heavy_queue: int = Field(
        2, ge=0, le=256,
        description="Expensive requests that may wait for a heavy slot; beyond, 503.",
    )
    client_timeout_s: float = Field(
        10.0, gt=0, le=300,
        description=(
            "Seconds a client has to send a request's headers, and again its body; a slower "
            "client is disconnected (headers) or answered 408 (body)."
        ),
    )

    @field_validator("api_token")
    @classmethod
    def _usable_token(cls, v: SecretStr | None) -> SecretStr | None:
        # `NOTILLM_API_TOKEN=` (an unset variable in a deploy script) must never read as "auth
        # off": a token that was given is checked, and a blank one refuses to start.
        if v is None:
            return v
        token = v.get_secret_value()
        if not token.strip():
            raise ValueError(
                "api_token is empty or blank; set a real token or leave NOTILLM_API_TOKEN unset"
            )
        if not all("!" <= c <= "~" for c in token):
            # HTTP strips a header's outer spaces and clients encode headers as ASCII: a token
            # with spaces, control or non-ASCII characters could never be presented.
            raise ValueError("api_token must be printable ASCII without spaces")
        return v

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if not is_loopback(self.host) and not self.auth_required:
            raise ValueError(
                "binding to a non-loopback address requires NOTILLM_API_TOKEN (api_token)"
            )
        if self.engine is not EngineMode.LOCAL and self.offline:
            raise ValueError(
                f"engine={self.engine.value} needs the hosted API; set offline=false "
                "(NOTILLM_OFFLINE=false) to allow it"
            )
        return self

    @property
    def auth_required(self) -> bool:
        """The one truth for "auth on", read by the settings check and by the app's guard."""
        return self.api_token is not None

    @property
    def bearer_token(self) -> str | None:
        return self.api_token.get_secret_value() if self.api_token is not None else None

    @property
    def hosted_allowed(self) -> bool:
        return not self.offline and self.engine is not EngineMode.LOCAL
