"""Domain exceptions. The HTTP layer maps them to status codes by type (see app.py)."""

from __future__ import annotations


class NotillmError(Exception):
    """Base of every error this service raises on purpose."""


class ModelLoadError(NotillmError):
    """A model file is missing, corrupt, or does not match the catalog."""


class ModelNotReady(NotillmError):
    """A request arrived before the models finished loading."""


class GrammarError(NotillmError):
    """A GBNF grammar could not be rendered or parsed."""


class ExtractionError(NotillmError):
    """The local model produced output the grammar should have made impossible."""


class ValidationFailed(NotillmError):
    """A candidate rule broke a contract rule; carries the contract failReason."""

    def __init__(self, fail_reason: str, detail: str) -> None:
        super().__init__(detail)
        self.fail_reason = fail_reason
        self.detail = detail


class HostedEngineError(NotillmError):
    """The hosted fallback timed out, failed, or answered garbage."""


class Overloaded(NotillmError):
    """The model queue is full; the client should retry later."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"model queue full; retry after {retry_after_s}s")
        self.retry_after_s = retry_after_s


class DeadlineExceeded(NotillmError):
    """The request could not be answered within its deadline."""


class Unauthorized(NotillmError):
    """A bearer token is required and was missing or wrong."""


class ExportError(NotillmError):
    """Turning shipped weights into a servable model failed."""
