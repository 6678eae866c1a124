"""The HTTP service: create_app(settings) builds it; no module-level state."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from notillm_local import resources
from notillm_local.api.edge import (
    BearerAuth,
    BodyLimit,
    BodyTimeout,
    HostGuard,
    error_response,
)
from notillm_local.api.limits import SeenCatalogs, WorkLimiter, is_heavy
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

# The largest valid request (every field at its cap in 4-byte characters, 300 apps) is ~103 KB
# of UTF-8; anything bigger is not a request this service can answer.
MAX_BODY_BYTES = 128 * 1024
# Worker threads beyond the model queue: requests code answers alone (chitchat, cancel turns,
# commands code reads fully) must find a free thread even when the queue is full.
_FREE_THREADS = 32
# A heavy request waits this long at most for a heavy slot (then 503): the wait comes on top of
# the pipeline's own deadline, so it is kept short.
HEAVY_WAIT_S = 1.0
OPEN_PATHS = frozenset({"/health"})  # answered without the bearer token
_SWAGGER_ASSETS = "/docs/assets"

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
        # FastAPI's /docs and /redoc load their scripts from a CDN: the browser would leave the
        # device. /docs is served below from vendored files; ReDoc is not offered.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    # Expensive requests take turns here, so a flood of them cannot starve the rest (limits.py).
    app.state.heavy = WorkLimiter(settings.heavy_slots, settings.heavy_queue, retry_after_s=2)
    app.state.seen_catalogs = SeenCatalogs()

    @app.exception_handler(NotillmError)
    async def on_domain_error(request: Request, exc: NotillmError) -> JSONResponse:
        code = status_for(exc)
        headers = {}
        if isinstance(exc, Overloaded):
            headers["Retry-After"] = str(exc.retry_after_s)
        if code >= 500 and code not in (503, 504):
            logger.exception("unexpected domain error", exc_info=exc)
        return error_response(code, type(exc).__name__, str(exc), headers)

    @app.exception_handler(Exception)
    async def on_bug(request: Request, exc: Exception) -> JSONResponse:
        # A bug still answers in the error shape. The type and place only: an exception's
        # message can carry the prompt (a tokenizer quoting its input).
        logger.error("unhandled %s at %s", type(exc).__name__, _where(exc))
        return error_response(500, "internal_error", "the service failed on this request")

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Starlette answers a body it cannot decode (e.g. not UTF-8) with a bare 400; to a client
        # that is one more malformed body, so it gets the same 422 as broken JSON.
        if exc.status_code == 400:
            detail = [{"loc": ["body"], "msg": str(exc.detail)}]
            return error_response(422, "invalid_request", detail)
        name = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return error_response(exc.status_code, name, str(exc.detail), dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Never echo the prompt back in privacy mode: report locations and messages only.
        detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in exc.errors()]
        return error_response(422, "invalid_request", detail)

    @app.post(
        "/v1/handle",
        response_model=HandleResponse,
        responses={
            401: {"model": ErrorResponse},
            408: {"model": ErrorResponse},
            413: {"model": ErrorResponse},
            421: {"model": ErrorResponse},
            422: {"model": ErrorResponse},
            503: {"model": ErrorResponse},
            504: {"model": ErrorResponse},
        },
    )
    def handle(req: HandleRequest, request: Request) -> HandleResponse:
        svc: Service = request.app.state.service
        heavy, catalog = is_heavy(req, request.app.state.seen_catalogs)
        lane = request.app.state.heavy.slot(HEAVY_WAIT_S) if heavy else nullcontext()
        with lane:
            try:
                resp = svc.handle(req)
            except NotillmError:
                raise
            except Exception as exc:
                # The type and place only: the message of a library's exception can quote the
                # prompt. Answered as a domain error in the usual shape.
                logger.error("unhandled %s at %s", type(exc).__name__, _where(exc))
                raise NotillmError("the service failed on this request") from None
        if catalog is not None:
            request.app.state.seen_catalogs.add(catalog)  # its labels are embedded now
        if not settings.privacy:
            logger.info("handled %r -> ok=%s %s", req.prompt, resp.ok, resp.failReason)
        else:
            logger.info(
                "handled ok=%s fail=%s %.0fms", resp.ok, resp.failReason, resp.meta.latencyMs
            )
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

    from notillm_local.api.page import add_page_routes

    add_page_routes(app, settings)  # GET /: the playground (api/page.py)

    _add_docs(app)
    _add_edge(app, settings)
    return app


def _add_docs(app: FastAPI) -> None:
    """Swagger UI at /docs from vendored files (resources/swagger/, Apache-2.0): no CDN."""
    app.mount(_SWAGGER_ASSETS, StaticFiles(directory=resources.path("swagger")), name="swagger")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{_SWAGGER_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{_SWAGGER_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{_SWAGGER_ASSETS}/favicon-32x32.png",
            # Swagger UI would send the schema to validator.swagger.io for its badge.
            swagger_ui_parameters={"validatorUrl": None},
        )


def _add_edge(app: FastAPI, settings: Settings) -> None:
    """The edge middleware (edge.py); added last = outermost, so the Host check runs first."""
    from notillm_local.api.page import PUBLIC_PAGE_PATHS

    timeout = settings.client_timeout_s
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES, timeout_s=timeout)
    app.add_middleware(BodyTimeout, timeout_s=timeout)
    token = settings.bearer_token
    if settings.auth_required and token is not None:
        app.add_middleware(BearerAuth, token=token, open_paths=OPEN_PATHS | PUBLIC_PAGE_PATHS,
                           timeout_s=timeout)
    app.add_middleware(HostGuard, bound_host=settings.host, timeout_s=timeout)


def _where(exc: BaseException) -> str:
    """file:line of the innermost frame, for a log line that carries no exception text."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb is not None else "?"
