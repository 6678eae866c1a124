"""A scripted OpenAI-compatible chat-completions server on loopback, for fault injection.

Each POST to /v1/chat/completions takes the next scripted `Reply` (the last one repeats).
A reply can sleep, send a status code, send a raw body, or answer with tool calls. Every
request body is recorded so that tests can check what the client sent.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    delay_s: float = 0.0
    body: bytes | None = None  # sent verbatim when given
    content_type: str = "application/json"
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, raw JSON args)
    text: str | None = None
    model: str = "gpt-4o-2024-08-06"
    prompt_tokens: int = 1000
    completion_tokens: int = 100

    def render(self) -> bytes:
        if self.body is not None:
            return self.body
        message: dict[str, Any] = {"role": "assistant", "content": self.text}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
                for i, (n, a) in enumerate(self.tool_calls)
            ]
        payload = {
            "id": "chatcmpl-fault",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if self.tool_calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens,
            },
        }
        return json.dumps(payload).encode()


def tool_reply(calls: dict[str, dict[str, Any]], **kw: Any) -> Reply:
    return Reply(
        tool_calls=[(n, json.dumps(a, ensure_ascii=False)) for n, a in calls.items()], **kw
    )


class FaultServer:
    """Start with `with FaultServer() as fs:`; `fs.base_url` ends in /v1."""

    def __init__(self) -> None:
        self._script: list[Reply] = [Reply(text="hello")]
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep pytest output clean
                return

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    server.requests.append(json.loads(raw or b"{}"))
                except json.JSONDecodeError:
                    server.requests.append({"_raw": raw.decode(errors="replace")})
                reply = server._next()
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                data = (
                    reply.render()
                    if reply.status == 200
                    else (
                        reply.body
                        or b'{"error": {"message": "scripted failure", "type": "server_error"}}'
                    )
                )
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout); that is the point of the test

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script = list(replies)
            self.requests.clear()

    def _next(self) -> Reply:
        with self._lock:
            return self._script.pop(0) if len(self._script) > 1 else self._script[0]

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
