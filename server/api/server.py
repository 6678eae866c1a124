"""The uvicorn server the CLI runs: uvicorn's h11 protocol plus a deadline for headers.

uvicorn closes an idle keep-alive connection after `timeout_keep_alive`, but any byte resets
that timer, and a new connection has no timer at all: a client that sends its headers one
byte at a time (or nothing) holds its connection forever. `HeaderTimeoutProtocol` gives every
request `client_timeout_s` to complete its headers, from the connection's start and again
after each response; a client that misses it is disconnected. The body has its own deadline
(`edge.BodyTimeout`, which answers 408).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from notillm_local.settings import Settings

logger = logging.getLogger(__name__)

# h11's own bound on an unfinished request head; a longer head is a 400 from uvicorn.
MAX_HEADER_BYTES = 16 * 1024


class HeaderTimeoutProtocol(H11Protocol):
    header_timeout_s: float = 10.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._header_timer: asyncio.TimerHandle | None = None
        self._seen_cycle: object | None = None
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and self.cycle is not self._seen_cycle:
            self._seen_cycle = self.cycle  # a request's headers are complete
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers get the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expired(self) -> None:
        self._header_timer = None
        waiting_for_headers = self.cycle is None or self.cycle.response_complete
        if waiting_for_headers and not self.transport.is_closing():
            logger.info("request headers not received within %.0fs: closing", self.header_timeout_s)
            self.transport.close()


def server_config(
    app: Any, settings: Settings, *, host: str | None = None, port: int | None = None,
    log_level: str | None = None,
) -> uvicorn.Config:
    """The uvicorn configuration `serve` uses (tests build their servers with it too)."""
    protocol = type(
        "HeaderTimeoutH11", (HeaderTimeoutProtocol,),
        {"header_timeout_s": settings.client_timeout_s},
    )
    return uvicorn.Config(
        app,
        host=host if host is not None else settings.host,
        port=port if port is not None else settings.port,
        log_level=(log_level or settings.log_level).lower(),
        http=protocol,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        # In-flight requests finish on SIGTERM: at most one deadline, plus a margin.
        timeout_graceful_shutdown=int(settings.request_deadline_s) + 5,
    )
