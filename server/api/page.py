"""The built-in playground: `GET /` serves a small page to try commands and see why.

The page is three static files shipped as package data (resources/page/); it calls the API
same-origin and inserts nothing from an answer as HTML. A strict Content-Security-Policy (no
inline script, no other origin) backs that up.

`PUBLIC_PAGE_PATHS` are the page's own files: a browser cannot send a bearer token when it
navigates, so the token check must let these through (they hold no data). Everything that does
(the default app catalog, /v1/handle) stays behind the token.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from notillm_local import resources
from notillm_local.settings import Settings

# file name under resources/page/ -> media type
_ASSETS = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}

PUBLIC_PAGE_PATHS: frozenset[str] = frozenset({"/", *(f"/page/{name}" for name in _ASSETS)})
CATALOG_PATH = "/page/apps.json"

_CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def is_public_page_path(path: str) -> bool:
    """Whether a request path is one of the page's static files (served without the token)."""
    return path in PUBLIC_PAGE_PATHS


def add_page_routes(app: FastAPI, settings: Settings) -> None:
    """Register `GET /`, its assets and the default app catalog on `app`."""
    catalog_file = settings.apps_catalog or resources.path("apps_galaxy_ko.json")

    def _file(name: str, media_type: str) -> Response:
        body = resources.path("page", name).read_bytes()
        return Response(content=body, media_type=media_type, headers=_HEADERS)

    @app.get("/", include_in_schema=False)
    def page_index() -> Response:
        return _file("index.html", "text/html; charset=utf-8")

    @app.get(CATALOG_PATH, include_in_schema=False)
    def page_catalog() -> Response:
        # The installed-app list the service uses when a request names none.
        apps: list[dict[str, Any]] = json.loads(catalog_file.read_text(encoding="utf-8"))
        return JSONResponse(content=apps, headers={"Cache-Control": "no-cache"})

    @app.get("/page/{name}", include_in_schema=False)
    def page_asset(name: str) -> Response:
        media_type = _ASSETS.get(name)
        if media_type is None:
            return JSONResponse(
                status_code=404, content={"error": "not_found", "detail": "no such page file"}
            )
        return _file(name, media_type)
