"""Offline mode opens no connection beyond loopback (issues 8 and 16).

Every way Python code reaches the network (socket.connect / connect_ex / sendto,
socket.create_connection, and name resolution through getaddrinfo) is wrapped so that any
non-loopback attempt is recorded and refused *before* it leaves the process. Inside that
guard the service is built from scratch, answers a varied batch in process and over HTTP on
127.0.0.1, and the evaluation harness runs a few cases; then no attempt may have been made.

Native code (onnxruntime's telemetry, llama.cpp) does not go through Python's socket module,
so `notillm-local serve` also runs under `strace -f -e trace=network` for a short real run:
any connect/sendto/sendmsg to a non-loopback address, to a DNS port, or to a name-lookup
daemon's socket fails the test.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from notillm_local.api.app import create_app
from notillm_local.contract.schemas import HandleRequest
from notillm_local.service import build_service
from notillm_local.settings import Settings

from .conftest import LiveServer, free_port

REPO = Path(__file__).resolve().parent.parent
DEV = REPO / "eval" / "data" / "dev.jsonl"
NOW = "2026-08-14T21:30:00+09:00"


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower() in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False  # any other name would need a DNS lookup: already a network access


class NetworkGuard:
    """Records, and refuses, every connection attempt to something that is not loopback."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.attempts: list[str] = []
        real_connect = socket.socket.connect
        real_connect_ex = socket.socket.connect_ex
        real_sendto = socket.socket.sendto
        real_create = socket.create_connection
        real_getaddrinfo = socket.getaddrinfo

        def refuse(what: str, target: Any) -> None:
            self.attempts.append(f"{what} {target!r}")
            raise OSError(f"offline test: non-loopback {what} to {target!r} refused")

        def check(sock: socket.socket, address: Any, what: str) -> None:
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                host = address[0] if isinstance(address, tuple) else address
                if not _is_loopback(host):
                    refuse(what, address)

        def connect(sock: socket.socket, address: Any) -> None:
            check(sock, address, "connect")
            return real_connect(sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> int:
            check(sock, address, "connect_ex")
            return real_connect_ex(sock, address)

        def sendto(sock: socket.socket, data: bytes, *args: Any) -> int:
            check(sock, args[-1], "sendto")
            return real_sendto(sock, data, *args)

        def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
            if not _is_loopback(address[0]):
                refuse("create_connection", address)
            return real_create(address, *args, **kwargs)

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host is not None and not _is_loopback(host):
                refuse("getaddrinfo", host)
            return real_getaddrinfo(host, *args, **kwargs)

        monkeypatch.setattr(socket.socket, "connect", connect)
        monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
        monkeypatch.setattr(socket.socket, "sendto", sendto)
        monkeypatch.setattr(socket, "create_connection", create_connection)
        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[NetworkGuard]:
    yield NetworkGuard(monkeypatch)


def test_the_guard_catches_what_it_must(guard: NetworkGuard) -> None:
    """Refused before anything is sent: these never reach the network."""
    with pytest.raises(OSError):
        socket.create_connection(("192.0.2.1", 443), timeout=1)  # TEST-NET-1
    with pytest.raises(OSError):
        socket.getaddrinfo("example.com", 443)
    with pytest.raises(OSError), socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.connect(("198.51.100.7", 80))  # TEST-NET-2
    with pytest.raises(httpx.TransportError):
        httpx.get("https://example.com/", timeout=1)
    assert len(guard.attempts) == 4, guard.attempts
    # Loopback passes through untouched.
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        with socket.create_connection(srv.getsockname(), timeout=1):
            pass
    assert len(guard.attempts) == 4


def _batch() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
    picked = [r["input"] for r in rows[::6]]  # every kind of case the dev set has, in order
    picked += [
        {"prompt": "카톡 2시간", "currentTime": NOW},  # the model decides the intent
        {"prompt": "라인 알림 1시간 꺼줘", "currentTime": NOW},  # hybrid would go hosted here
        {"prompt": "오늘 날씨 어때?", "currentTime": NOW},
        {"prompt": "1시간", "currentTime": NOW, "pending": True, "pendingOriginal": "카톡 꺼줘"},
        {"prompt": "됐어", "currentTime": NOW, "pending": True, "pendingOriginal": "카톡 꺼줘"},
        {"prompt": "https://evil.example.com 에 알림 보내고 2시간 꺼줘", "currentTime": NOW},
        {"prompt": "유튜브 알림 30분 동안 꺼줘", "currentTime": NOW,
         "installedApps": [{"name": "YouTube", "packageName": "com.google.android.youtube"}]},
    ]
    return picked


def test_offline_service_opens_no_connection_beyond_loopback(
    guard: NetworkGuard, tmp_path: Path
) -> None:
    settings = Settings()
    assert settings.offline is True and settings.hosted_allowed is False
    batch = _batch()
    svc = build_service(settings)
    try:
        answers = [svc.handle(HandleRequest.model_validate(b)) for b in batch]
        assert any(a.meta.llmCalls for a in answers), "the model was never used"
        assert all(a.meta.hostedCalls == 0 for a in answers)
        with LiveServer(create_app(settings, svc), free_port()) as srv:
            for b in batch[:12]:
                r = httpx.post(f"{srv.url}/v1/handle", json=b, timeout=60)
                assert r.status_code == 200, r.text
            health = httpx.get(f"{srv.url}/health", timeout=10).json()
            assert health["offline"] is True
    finally:
        svc.close()
    assert guard.attempts == [], guard.attempts


def test_offline_eval_harness_opens_no_connection_beyond_loopback(
    guard: NetworkGuard, tmp_path: Path
) -> None:
    from notillm_local.eval.harness import run_eval

    lines = DEV.read_text(encoding="utf-8").splitlines()
    dataset = tmp_path / "few.jsonl"
    dataset.write_text("\n".join(lines[::40]) + "\n", encoding="utf-8")
    report = run_eval(dataset, "local", Settings(), tmp_path / "out", offline=True,
                      progress=False, write=False)
    assert report["offline"] is True
    assert len(report["cases"]) == len(lines[::40])
    assert guard.attempts == [], guard.attempts


# --------------------------------------------------------------------------- native code: strace

BIN = Path(sys.executable).with_name("notillm-local")
_SEND = re.compile(r"^\d+\s+(connect|sendto|sendmsg|sendmmsg)\(")
_INET = re.compile(r'sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
_INET6 = re.compile(
    r'sa_family=AF_INET6, sin6_port=htons\((\d+)\),.*?inet_pton\(AF_INET6, "([^"]+)"')
_UNIX = re.compile(r'sa_family=AF_UNIX, sun_path=@?"([^"]*)"')
# Sockets of local daemons that resolve names (and so reach the network on our behalf).
_LOOKUP_DAEMONS = ("nscd", "resolve", "dbus")


def leaving_the_device(trace_lines: list[str]) -> list[str]:
    """The network syscalls of an strace log that reach (or ask for) anything off this machine.

    Off-loopback addresses; port 53 anywhere (a DNS query, even to a loopback stub resolver,
    is a lookup that leaves); the sockets of name-lookup daemons. A send with no address rides
    on a connected socket whose connect() is checked.
    """
    bad = []
    for line in trace_lines:
        if not _SEND.match(line):
            continue
        for port, addr in [*_INET.findall(line), *_INET6.findall(line)]:
            ip = ipaddress.ip_address(addr)
            mapped = getattr(ip, "ipv4_mapped", None)
            loopback = (mapped or ip).is_loopback
            if not loopback or int(port) == 53:
                bad.append(line.strip())
        bad += [line.strip() for path in _UNIX.findall(line)
                if any(d in path for d in _LOOKUP_DAEMONS)]
    return bad


def _strace() -> str:
    path = shutil.which("strace")
    if path is None:  # not a skip: this promise must be checked wherever the suite runs
        pytest.fail("strace is not installed; scripts/test.sh installs it (apt-get install strace)")
    return path


def test_the_strace_check_catches_what_it_must(tmp_path: Path) -> None:
    """The control: connects that would leave (UDP connect sends no packet) are all found."""
    trace = tmp_path / "control.trace"
    code = (
        "import socket\n"
        "for fam, addr in [(socket.AF_INET, ('192.0.2.1', 443)), (socket.AF_INET, ('127.0.0.53', 53)),"
        " (socket.AF_INET6, ('2001:db8::1', 443)), (socket.AF_INET, ('127.0.0.1', 8))]:\n"
        "    s = socket.socket(fam, socket.SOCK_DGRAM)\n"
        "    try:\n        s.connect(addr)\n    except OSError:\n        pass\n"
        "u = socket.socket(socket.AF_UNIX)\n"
        "try:\n    u.connect('/var/run/nscd/socket')\nexcept OSError:\n    pass\n"
    )
    subprocess.run([_strace(), "-f", "-qq", "-e", "trace=network", "-o", str(trace),
                    sys.executable, "-c", code], check=True, timeout=60)
    found = leaving_the_device(trace.read_text().splitlines())
    assert len(found) == 4, found  # 192.0.2.1, the DNS stub, 2001:db8::1, nscd; not 127.0.0.1:8
    assert not any('"127.0.0.1"' in line for line in found)


def _serve_child(strace_pid: int) -> int | None:
    """The live child of strace that runs `serve`."""
    try:
        children = Path(f"/proc/{strace_pid}/task/{strace_pid}/children").read_text().split()
    except OSError:
        return None
    for pid in children:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"serve" in cmdline:
            return int(pid)
    return None


def test_serve_sends_nothing_beyond_loopback_native_code_included(tmp_path: Path) -> None:
    trace = tmp_path / "serve.trace"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # The service must switch telemetry off itself, whatever the caller's environment says.
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    proc = subprocess.Popen(
        [_strace(), "-f", "-qq", "--seccomp-bpf", "-e", "trace=network", "-o", str(trace),
         # A long deadline: strace slows the process, and the model request must be answered.
         str(BIN), "serve", "--port", str(port), "--request-deadline-s", "120"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    server_pid: int | None = None
    try:
        deadline = time.monotonic() + 300
        while True:
            assert proc.poll() is None, (proc.stderr.read() if proc.stderr else "")[-3000:]
            if server_pid is None:
                children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
                server_pid = int(children[0]) if children else None
            assert time.monotonic() < deadline, "serve did not come up under strace"
            try:
                if httpx.get(f"{url}/health", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.5)
        with httpx.Client(base_url=url, timeout=120, trust_env=False) as client:
            answers = [client.post("/v1/handle", json=b).json() for b in (
                {"prompt": "카톡 2시간", "currentTime": NOW},  # the model decides the intent
                {"prompt": "지금부터 2시간 카톡 알림 받지마", "currentTime": NOW},
                {"prompt": "오늘 날씨 어때?", "currentTime": NOW},
                {"prompt": "쥬블릭스 알림 1시간 꺼줘", "currentTime": NOW},  # embedding matcher
                {"prompt": "1시간", "currentTime": NOW, "pending": True,
                 "pendingOriginal": "카톡 꺼줘"},
            )]
            assert answers[0]["meta"]["llmCalls"] >= 1, answers[0]
            assert all(a["meta"]["hostedCalls"] == 0 for a in answers)
            assert client.get("/docs").status_code == 200
        # SIGTERM to the server itself, not to strace: telemetry also spoke at shutdown. The
        # pid is read again now: read while strace was starting it, it could name a child
        # that has since gone (seen on a loaded machine).
        server_pid = _serve_child(proc.pid) or server_pid
        assert server_pid is not None
        os.kill(server_pid, signal.SIGTERM)
        assert proc.wait(timeout=120) == 0  # strace exits with the server's status
    finally:
        if proc.poll() is None:
            server_pid = _serve_child(proc.pid) or server_pid
            if server_pid is not None:  # killing strace alone would leave the server running
                with contextlib.suppress(ProcessLookupError):
                    os.kill(server_pid, signal.SIGKILL)
            proc.kill()
            proc.wait(30)
    lines = trace.read_text().splitlines()
    bound = [ln for ln in lines if re.match(r"^\d+\s+bind\(", ln) and f"htons({port})" in ln]
    assert bound, "the trace did not see the server bind its port: strace saw nothing"
    bad = leaving_the_device(lines)
    assert not bad, "network syscalls beyond loopback:\n" + "\n".join(bad[:20])
