"""The HTTP service: create_app(settings) builds it; no module-level state."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .errors import (
    DeadlineExceeded,
    ModelNotReady,
    NotillmError,
    Overloaded,
    Unauthorized,
    ValidationFailed,
)
from .schemas import ErrorResponse, HandleRequest, HandleResponse, HealthResponse
from .service import Service, build_service
from .settings import Settings

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024

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

    return app


def _error(
    code: int, error: str, detail: object, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorResponse(error=error, detail=json.loads(json.dumps(detail, default=str)))
    return JSONResponse(status_code=code, content=body.model_dump(), headers=headers)
