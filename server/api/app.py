"""The HTTP service: create_app(settings) builds it; no module-level state."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from notillm_local.contract.schemas import (
    ErrorResponse,
    HandleRequest,
    HandleResponse,
    HealthResponse,
)
from notillm_local.errors import (
    DeadlineExceeded,
    ModelNotReady,
    NotillmError,
    Overloaded,
    Unauthorized,
    ValidationFailed,
)
from notillm_local.service import Service, build_service
from notillm_local.settings import Settings

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
# Worker threads beyond the model queue: requests code answers alone (chitchat, cancel turns,
# commands code reads fully) must find a free thread even when the queue is full.
_FREE_THREADS = 32

# Domain exceptions → HTTP, by type (never by message text). Most specific first.
_STATUS: list[tuple[type[NotillmError], int]] = [
    (Unauthorized, 401),
    (ValidationFailed, 422),
    (Overloaded, 503),
    (ModelNotReady, 503),
    (DeadlineExceeded, 504),
    (NotillmError, 500),
]


def status_for(exc: NotillmError) -> int:
    for kind, code in _STATUS:
        if isinstance(exc, kind):
            return code
    return 500


def create_app(settings: Settings, service: Service | None = None) -> FastAPI:
    """Build the app. `service` may be given pre-built (tests share one loaded model)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = service is None
        # Sync endpoints run on anyio's thread pool (40 threads by default). Requests waiting for
        # the model each hold a thread; size the pool so they can never starve the rest.
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(limiter.total_tokens, settings.queue_size + 1 + _FREE_THREADS)
        app.state.service = service or build_service(settings)
        try:
            yield
        finally:
            if owned:
                app.state.service.close()

    app = FastAPI(
        title="notillm-local",
        version="0.1.0",
        description="Korean notification commands → exact notification rules, on the device.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    token = settings.api_token.get_secret_value() if settings.api_token else None

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if token is not None and request.url.path not in ("/health",):
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                return _error(401, "unauthorized", "missing or wrong bearer token")
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
            return _error(413, "body_too_large", f"request body over {MAX_BODY_BYTES} bytes")
        return await call_next(request)

    @app.exception_handler(NotillmError)
    async def on_domain_error(request: Request, exc: NotillmError) -> JSONResponse:
        code = status_for(exc)
        headers = {}
        if isinstance(exc, Overloaded):
            headers["Retry-After"] = str(exc.retry_after_s)
        if code >= 500 and code not in (503, 504):
            logger.exception("unexpected domain error", exc_info=exc)
        return _error(code, type(exc).__name__, str(exc), headers)

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Starlette answers a body it cannot decode (e.g. not UTF-8) with a bare 400; to a client
        # that is one more malformed body, so it gets the same 422 as broken JSON.
        if exc.status_code == 400:
            return _error(422, "invalid_request", [{"loc": ["body"], "msg": str(exc.detail)}])
        name = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, name, str(exc.detail), dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Never echo the prompt back in privacy mode: report locations and messages only.
        detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in exc.errors()]
        return _error(422, "invalid_request", detail)

    @app.post(
        "/v1/handle",
        response_model=HandleResponse,
        responses={
            401: {"model": ErrorResponse},
            413: {"model": ErrorResponse},
            422: {"model": ErrorResponse},
            503: {"model": ErrorResponse},
            504: {"model": ErrorResponse},
        },
    )
    def handle(req: HandleRequest, request: Request) -> HandleResponse:
        svc: Service = request.app.state.service
        resp = svc.handle(req)
        if not settings.privacy:
            logger.info("handled %r -> ok=%s %s", req.prompt, resp.ok, resp.failReason)
        else:
            logger.info("handled ok=%s fail=%s %.0fms", resp.ok, resp.failReason, resp.meta.latencyMs)
        return resp

    @app.get("/health", response_model=HealthResponse)
    def health(request: Request) -> HealthResponse:
        svc: Service | None = getattr(request.app.state, "service", None)
        if svc is None:
            return HealthResponse(status="loading", engine=settings.engine.value,
                                  offline=settings.offline, models={})
        return HealthResponse(
            status="ok", engine=svc.engine, offline=settings.offline, models=svc.models()
        )

    # Outermost, so that no layer buffers an oversized body before it is refused.
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)
    return app


class BodyLimit:
    """413 for a body over `max_bytes`, also when it comes chunked without a Content-Length.

    The guard middleware refuses a declared Content-Length up front; a chunked body declares
    none, so this counts the bytes as they arrive and stops reading at the limit instead of
    letting the JSON parser buffer whatever a client sends.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"").decode("latin-1")
        if length.isdigit():
            if int(length) > self.max_bytes:
                await self._refuse(scope, receive, send)
            else:  # the HTTP server holds the client to the length it declared
                await self.app(scope, receive, send)
            return
        if b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            await self.app(scope, receive, send)  # no body at all
            return
        body, refused = await self._read(receive)
        if refused:
            await self._refuse(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = _error(413, "body_too_large", f"request body over {self.max_bytes} bytes")
        await response(scope, receive, send)

    async def _read(self, receive: Receive) -> tuple[bytes, bool]:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks), False  # disconnect: the app sees an empty body
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return b"", True
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), False


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: wait for the disconnect as usual

    return replay


def _error(
    code: int, error: str, detail: object, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorResponse(error=error, detail=json.loads(json.dumps(detail, default=str)))
    return JSONResponse(status_code=code, content=body.model_dump(), headers=headers)
