"""The HTTP edge: what every request passes before the app reads it (issues 15 and 16).

Pure ASGI middleware, outermost first:

- `HostGuard`: a `Host` header that is not this server (its bound address, the address the
  client reached, localhost, 127.0.0.1 or [::1], with the server's port) is refused with 421.
  A web page that rebinds its own DNS name to 127.0.0.1 can then not talk to the service.
- `BearerAuth`: when the settings require a token, every path but the open ones needs
  `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 9110), the token is
  compared in constant time.
- `BodyTimeout`: a request's body must arrive within `client_timeout_s`; a client that
  stops sending (a body shorter than its Content-Length) gets 408 and the connection closes.
- `BodyLimit`: bodies over `max_bytes` get 413, declared or counted as they arrive.

Every refusal first reads and discards what the client is still sending, up to a bound in
bytes and time, so that a client that writes its whole body before it reads (Python's urllib)
receives the answer instead of a connection reset; past the bound the connection is closed.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Iterable

import anyio
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from notillm_local.contract.schemas import ErrorResponse
from notillm_local.settings import LOOPBACK_HOSTS

logger = logging.getLogger(__name__)

# A refused body is read and thrown away up to this many bytes, so the client can read the
# answer; beyond it the connection is closed (and the client may see a reset).
DRAIN_MAX_BYTES = 16 * 1024 * 1024
_WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})


def error_response(
    code: int, error: str, detail: object, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The one error shape, `{"error", "detail"}`, for every status the service answers."""
    safe = json.loads(json.dumps(_text_safe(detail), default=str))
    body = ErrorResponse(error=error, detail=safe)
    return JSONResponse(status_code=code, content=body.model_dump(), headers=headers)


def _text_safe(value: object) -> object:
    """Lone surrogates cannot be encoded as UTF-8: one in an error detail would turn the answer
    into a 500. They become U+FFFD; everything else is left as it is."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_text_safe(k): _text_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_text_safe(v) for v in value]
    return value


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value)
    return None


async def refuse(
    scope: Scope,
    receive: Receive,
    send: Send,
    response: JSONResponse,
    *,
    timeout_s: float,
    already_read: int = 0,
    body_done: bool = False,
) -> None:
    """Answer without serving the request, after discarding the body the client still sends.

    Reading it (bounded by DRAIN_MAX_BYTES and `timeout_s`) is what lets a client that sends
    its whole body before reading get the answer: closing on unread data makes the kernel
    send a reset, and the client sees "connection reset" instead of the status. A client that
    asked `Expect: 100-continue` has sent nothing yet and is answered at once.
    """
    complete = body_done or not _has_body(scope)
    if not complete and (_header(scope, b"expect") or b"").lower() != b"100-continue":
        declared = _header(scope, b"content-length")
        if declared is None or not declared.isdigit() or int(declared) <= DRAIN_MAX_BYTES:
            complete = await _drain(receive, DRAIN_MAX_BYTES - already_read, timeout_s)
    if not complete:
        # Part of the body is still unread: this connection cannot carry another request.
        response.headers["connection"] = "close"
    await response(scope, receive, send)


def _has_body(scope: Scope) -> bool:
    length = _header(scope, b"content-length")
    if length is not None:
        return length.strip() not in (b"", b"0")
    return _header(scope, b"transfer-encoding") is not None


async def _drain(receive: Receive, budget: int, timeout_s: float) -> bool:
    """Read and discard the rest of the body; True when all of it arrived within the bounds."""
    read = 0
    with anyio.move_on_after(timeout_s):
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return False  # the client went away
            read += len(message.get("body", b""))
            if not message.get("more_body", False):
                return True
            if read > budget:
                return False
    return False


def parse_host(value: str) -> tuple[str, int | None] | None:
    """`name[:port]` or `[v6]:port` → (lower-case name, port); None when malformed."""
    value = value.strip()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else None
    else:
        name, sep, port_text_ = value.rpartition(":")
        if not sep:
            name, port_text = value, None
        else:
            port_text = port_text_
    if not name:
        return None
    if port_text is None:
        return name.lower(), None
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return None
    return name.lower(), int(port_text)


class HostGuard:
    """421 for a Host that is not this server (DNS rebinding); see the module docstring."""

    def __init__(self, app: ASGIApp, bound_host: str, timeout_s: float) -> None:
        self.app = app
        self.timeout_s = timeout_s
        names = set(LOOPBACK_HOSTS)
        bound = bound_host.strip().strip("[]").lower()
        if bound not in _WILDCARD_HOSTS:
            names.add(bound)
        self.names = frozenset(names)

    def allowed(self, host: bytes | None, server: tuple[str, int | None] | None) -> bool:
        if host is None:
            return False
        parsed = parse_host(host.decode("latin-1"))
        if parsed is None:
            return False
        name, port = parsed
        names = self.names
        if server is not None:
            # The address this connection reached: with a wildcard bind, the LAN address a
            # phone used. A rebinding page arrives under its own name, never under this one.
            names = names | {server[0].lower()}
        if name not in names:
            return False
        server_port = server[1] if server is not None else None
        if server_port is None:
            return True
        return (port if port is not None else 80) == server_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.allowed(_header(scope, b"host"), scope.get("server")):
            response = error_response(
                421, "host_not_allowed",
                "the Host header does not name this server; use localhost or its address",
            )
            await refuse(scope, receive, send, response, timeout_s=self.timeout_s)
            return
        await self.app(scope, receive, send)


def bearer_matches(header: bytes | None, token: str) -> bool:
    """`Authorization: Bearer <token>`: scheme in any case, token compared in constant time."""
    if header is None:
        return False
    scheme, _, credentials = header.decode("latin-1").strip().partition(" ")
    given = credentials.strip().encode("latin-1")
    # Compared even when the scheme is wrong, so the time taken says nothing about the token.
    same = hmac.compare_digest(given, token.encode("ascii"))
    return scheme.lower() == "bearer" and same


class BearerAuth:
    def __init__(
        self, app: ASGIApp, token: str, open_paths: Iterable[str], timeout_s: float
    ) -> None:
        self.app = app
        self.token = token
        self.open_paths = frozenset(open_paths)
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.open_paths:
            await self.app(scope, receive, send)
            return
        if not bearer_matches(_header(scope, b"authorization"), self.token):
            response = error_response(
                401, "unauthorized", "missing or wrong bearer token",
                {"www-authenticate": "Bearer"},
            )
            await refuse(scope, receive, send, response, timeout_s=self.timeout_s)
            return
        await self.app(scope, receive, send)


class BodyTimeout:
    """408 when a request's body has not fully arrived `timeout_s` after its headers."""

    def __init__(self, app: ASGIApp, timeout_s: float) -> None:
        self.app = app
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        deadline = anyio.current_time() + self.timeout_s
        body_done = False
        timed_out = False
        started = False

        async def timed_receive() -> Message:
            nonlocal body_done, timed_out
            if timed_out:
                return {"type": "http.disconnect"}  # for the app, this client is gone
            if body_done:
                return await receive()  # after the body: waiting for a disconnect is fine
            message: Message | None = None
            with anyio.move_on_after(deadline - anyio.current_time()):
                message = await receive()
            if message is None:
                timed_out = True
                # The app sees a client that went away and stops; the 408 is sent below.
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if timed_out and not started:
                return  # whatever the app makes of the missing body, the answer is the 408
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, timed_receive, guarded_send)
        if timed_out and not started:
            logger.info("request body not received within %.0fs: 408", self.timeout_s)
            response = error_response(
                408, "request_timeout",
                f"the request body did not arrive within {self.timeout_s:g}s",
                {"connection": "close"},
            )
            await response(scope, receive, send)


class BodyLimit:
    """413 for a body over `max_bytes`, also when it comes chunked without a Content-Length.

    A declared Content-Length is refused up front; a chunked body declares none, so this
    counts the bytes as they arrive and stops at the limit instead of letting the JSON parser
    buffer whatever a client sends.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = (_header(scope, b"content-length") or b"").decode("latin-1").strip()
        if length.isdigit():
            if int(length) > self.max_bytes:
                await refuse(scope, receive, send, self._too_large(), timeout_s=self.timeout_s)
            else:  # the HTTP server holds the client to the length it declared
                await self.app(scope, receive, send)
            return
        if b"chunked" not in (_header(scope, b"transfer-encoding") or b"").lower():
            await self.app(scope, receive, send)  # no body at all
            return
        body, read, done = await self._read(receive)
        if body is None:
            await refuse(scope, receive, send, self._too_large(), timeout_s=self.timeout_s,
                         already_read=read, body_done=done)
            return
        await self.app(scope, _replay(body, receive), send)

    def _too_large(self) -> JSONResponse:
        return error_response(413, "body_too_large", f"request body over {self.max_bytes} bytes")

    async def _read(self, receive: Receive) -> tuple[bytes | None, int, bool]:
        """(body or None when over the limit, bytes read, whether the body ended)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks), size, True  # disconnect: the app sees what came
            chunk = message.get("body", b"")
            size += len(chunk)
            more = bool(message.get("more_body", False))
            if size > self.max_bytes:
                return None, size, not more
            chunks.append(chunk)
            if not more:
                return b"".join(chunks), size, True


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: wait for the disconnect as usual

    return replay
