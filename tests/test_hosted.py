"""The hosted engine (V1 baseline) against real OpenAI-compatible servers on loopback.

(a) a scripted fault server: timeouts, 5xx, garbage bodies, malformed tool calls, and
    well-formed answers mapped into the contract with costUsd from the price table;
(b) llama-cpp-python's own `llama_cpp.server` serving the local GGUF with a function-calling
    chat format: whatever the 270M model says, the engine answers or raises HostedEngineError.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notillm_local import resources
from notillm_local.contract.schemas import HandleRequest, HandleResponse, InstalledApp
from notillm_local.engines.hosted import HostedEngine, HostedNotAllowed, cost_usd, load_price_table
from notillm_local.errors import HostedEngineError
from notillm_local.settings import Settings
from notillm_local.stages.alias_table import AliasTable
from notillm_local.stages.apps import AppMapper, load_catalog
from tests.fault_server import FaultServer, Reply, tool_reply

NOW = "2026-08-14T21:30:00+09:00"
APPS = [
    InstalledApp(**a) for a in json.loads(resources.path("apps_galaxy_ko.json").read_text("utf-8"))
]
# The same mapper the service hands the engine: the alias table over the default catalog.
MAPPER = AppMapper(AliasTable.load(resources.path("app_aliases.json"), load_catalog()))
COND_2H = {"delivery": NOW, "expires": "2026-08-14T23:30:00+09:00", "recurrence": "none"}
TIMEOUT_S = 1.0


def _settings(base_url: str, timeout_s: float = TIMEOUT_S, model: str = "gpt-4o") -> Settings:
    return Settings(
        engine="hosted",
        offline=False,
        hosted_base_url=base_url,
        hosted_timeout_s=timeout_s,
        hosted_model=model,
    )


def _req(prompt: str = "2시간 카톡 알림 꺼줘", **kw: Any) -> HandleRequest:
    return HandleRequest(prompt=prompt, currentTime=NOW, **kw)


@pytest.fixture(scope="module")
def fault() -> Iterator[FaultServer]:
    with FaultServer() as fs:
        yield fs


@pytest.fixture(scope="module")
def engine(fault: FaultServer) -> Iterator[HostedEngine]:
    eng = HostedEngine(_settings(fault.base_url), mapper=MAPPER)
    yield eng
    eng.close()


# --------------------------------------------------------------------------- construction


def test_never_constructed_offline() -> None:
    with pytest.raises(HostedNotAllowed, match="offline"):
        HostedEngine(Settings(), mapper=MAPPER)  # the default is offline
    with pytest.raises(HostedNotAllowed):
        HostedEngine(
            Settings(engine="local", offline=False, hosted_base_url="http://127.0.0.1:9"),
            mapper=MAPPER,
        )


def test_needs_a_base_url() -> None:
    with pytest.raises(HostedNotAllowed, match="base_url"):
        HostedEngine(Settings(engine="hosted", offline=False), mapper=MAPPER)


# --------------------------------------------------------------------------- faults


def _raises_within(engine: HostedEngine, budget_s: float, req: HandleRequest | None = None) -> str:
    t0 = time.monotonic()
    with pytest.raises(HostedEngineError) as info:
        engine.handle(req or _req(), APPS)
    assert time.monotonic() - t0 < budget_s
    return str(info.value)


def test_timeout(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(Reply(delay_s=TIMEOUT_S + 2))
    msg = _raises_within(engine, TIMEOUT_S + 0.8)
    assert "timed out" in msg
    assert len(fault.requests) == 1  # a timeout is never retried: no time is left


@pytest.mark.parametrize("status", [500, 502, 503])
def test_5xx_retried_once_then_error(fault: FaultServer, engine: HostedEngine, status: int) -> None:
    fault.script(Reply(status=status))
    _raises_within(engine, TIMEOUT_S + 0.5)
    assert len(fault.requests) == 2


def test_5xx_then_success(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        Reply(status=503),
        tool_reply(
            {
                "extract_notification_condition": COND_2H,
                "extract_mute_target": {"name": ["카카오톡"], "content": []},
            }
        ),
    )
    answer = engine.handle(_req(), APPS)
    assert answer.ok and len(fault.requests) == 2


def test_slow_5xx_does_not_blow_the_deadline(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(Reply(status=500, delay_s=0.7))
    _raises_within(engine, TIMEOUT_S + 0.8)


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_4xx_is_an_error_without_retry(
    fault: FaultServer, engine: HostedEngine, status: int
) -> None:
    fault.script(Reply(status=status))
    assert str(status) in _raises_within(engine, TIMEOUT_S)
    assert len(fault.requests) == 1


@pytest.mark.parametrize(
    "reply",
    [
        Reply(body=b"<html>502 bad gateway</html>"),
        Reply(body=b"not json at all", content_type="text/plain"),
        Reply(body=b'{"choices": []}'),
        Reply(body=b'{"id": "x", "object": "chat.completion"}'),
        Reply(
            body=b'{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant"}}]}'
        ),
        Reply(tool_calls=[("extract_mute_target", "{name: 카카오톡")]),  # not JSON
        Reply(tool_calls=[("extract_mute_target", '["카카오톡"]')]),  # JSON, not an object
        Reply(tool_calls=[("extract_mute_target", '{"name": "카카오톡", "content": 3}')]),
        Reply(tool_calls=[("delete_all_apps", "{}")]),  # a tool we never offered
        Reply(
            tool_calls=[
                (
                    "extract_notification_condition",
                    '{"delivery": "지금", "expires": "두 시간 뒤", "recurrence": "none"}',
                ),
                ("extract_mute_target", '{"name": ["카카오톡"], "content": []}'),
            ]
        ),
        Reply(
            tool_calls=[
                ("extract_notification_condition", json.dumps({**COND_2H, "recurrence": "hourly"})),
                ("extract_mute_target", '{"name": ["카카오톡"], "content": []}'),
            ]
        ),
    ],
    ids=[
        "html",
        "text-plain",
        "no-choices",
        "no-choices-key",
        "empty-message",
        "args-not-json",
        "args-array",
        "content-not-list",
        "unknown-tool",
        "times-not-iso",
        "bad-recurrence",
    ],
)
def test_garbage_is_a_hosted_error(fault: FaultServer, engine: HostedEngine, reply: Reply) -> None:
    fault.script(reply)
    _raises_within(engine, TIMEOUT_S)


def test_connection_refused_is_a_hosted_error() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again on exit: nothing listens there
    eng = HostedEngine(_settings(f"http://127.0.0.1:{port}/v1"), mapper=MAPPER)
    _raises_within(eng, TIMEOUT_S + 0.5)


# --------------------------------------------------------------------------- well-formed answers


def test_well_formed_answer_maps_to_the_contract(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": COND_2H,
                "extract_mute_target": {"name": ["카카오톡"], "content": ["메세지"]},
            },
            model="gpt-4o-2024-08-06",
            prompt_tokens=1200,
            completion_tokens=80,
        )
    )
    answer = engine.handle(_req(), APPS)
    assert answer.ok and answer.dialogIntent.value == "extract"
    assert answer.targetFixed is not None and answer.condition is not None
    assert answer.targetFixed.model_dump() == {
        "mute": True,
        "all": False,
        "name": ["카카오톡"],
        "content": [],
        "packages": ["com.kakao.talk"],
    }
    assert answer.condition.delivery == NOW
    assert answer.condition.expires == "2026-08-14T23:30:00+09:00"
    assert answer.condition.recurrence == "none"
    assert answer.meta.engine == "hosted"
    assert (answer.meta.hostedCalls, answer.meta.llmCalls) == (1, 0)
    # gpt-4o list price: $2.50 / 1M input, $10 / 1M output (models/hosted_prices.json)
    assert answer.meta.costUsd == pytest.approx((1200 * 2.5 + 80 * 10.0) / 1e6)
    assert answer.message
    sent = fault.requests[0]
    assert sent["model"] == "gpt-4o"
    names = {t["function"]["name"] for t in sent["tools"]}
    assert names == {
        "extract_notification_condition",
        "extract_mute_target",
        "extract_allow_target",
    }
    system = sent["messages"][0]["content"]
    assert NOW in system and "카카오톡" in system and "Play 스토어" in system


def test_cost_uses_the_price_table() -> None:
    table = load_price_table()
    assert cost_usd("gpt-4o-mini-2024-07-18", 1_000_000, 0, table) == pytest.approx(0.15)
    assert cost_usd("gpt-4o", 0, 1_000_000, table) == pytest.approx(10.0)
    assert cost_usd("some-local-model", 10_000, 10_000, table) == 0.0


def test_allow_multi_apps_weekly(fault: FaultServer, engine: HostedEngine) -> None:
    cond = {
        "delivery": "2026-08-17T09:00:00+09:00",
        "expires": "2026-08-17T18:00:00+09:00",
        "recurrence": "weekly",
        "days_of_week": [5, 1, 3],
        "window_start": "09:00",
        "window_end": "18:00",
        "activity": "Meeting",
        "location": "회사",
    }
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": cond,
                "extract_allow_target": {
                    "name": ["slack", "Microsoft  Teams"],
                    "content": ["'긴급'"],
                },
            }
        )
    )
    answer = engine.handle(_req("월수금 9시부터 6시까지 슬랙이랑 팀즈 긴급만"), APPS)
    assert answer.ok and answer.targetFixed and answer.condition
    assert answer.targetFixed.mute is False and answer.targetFixed.all is False
    assert answer.targetFixed.name == ["Slack", "Microsoft Teams"]
    assert answer.targetFixed.packages == ["com.Slack", "com.microsoft.teams"]
    assert answer.targetFixed.content == ["긴급"]
    assert answer.condition.days_of_week == [1, 3, 5]
    assert answer.condition.activity == "meeting" and answer.condition.location is None


def test_all_target_when_no_names(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": COND_2H,
                "extract_mute_target": {"name": [], "content": []},
            }
        )
    )
    answer = engine.handle(_req("2시간 모든 알림 꺼줘"), APPS)
    assert answer.ok and answer.targetFixed and answer.targetFixed.all is True


def test_unmappable_app_is_app_unresolved(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": COND_2H,
                "extract_mute_target": {"name": ["라인"], "content": []},
            }
        )
    )
    answer = engine.handle(_req("2시간 라인 알림 꺼줘"), APPS)
    assert not answer.ok and answer.failReason and answer.failReason.value == "app_unresolved"
    assert answer.targetFixed is None and answer.condition is None


def test_missing_time_is_incomplete(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(tool_reply({"extract_mute_target": {"name": ["카카오톡"], "content": []}}))
    answer = engine.handle(_req("카톡 알림 꺼줘"), APPS)
    assert not answer.ok and answer.failReason and answer.failReason.value == "incomplete"
    assert answer.needsSupplement is True


def test_end_before_start_is_invalid_time(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": {
                    "delivery": NOW,
                    "expires": "2026-08-14T20:00:00+09:00",
                    "recurrence": "none",
                },
                "extract_mute_target": {"name": ["카카오톡"], "content": []},
            }
        )
    )
    answer = engine.handle(_req(), APPS)
    assert answer.failReason and answer.failReason.value == "invalid_time"


def test_both_targets_is_a_conflict(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": COND_2H,
                "extract_mute_target": {"name": ["카카오톡"], "content": []},
                "extract_allow_target": {"name": ["Slack"], "content": []},
            }
        )
    )
    answer = engine.handle(_req(), APPS)
    assert answer.failReason and answer.failReason.value == "conflict"


def test_text_reply_is_chitchat(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(Reply(text="안녕하세요! 무엇을 도와드릴까요?"))
    answer = engine.handle(_req("안녕하세요"), APPS)
    assert answer.dialogIntent.value == "reject"
    assert answer.failReason and answer.failReason.value == "chitchat"
    assert answer.meta.hostedCalls == 1


def test_naive_times_take_the_request_offset(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(
        tool_reply(
            {
                "extract_notification_condition": {
                    "delivery": "2026-08-14T21:30:00",
                    "expires": "2026-08-14T23:30:00",
                    "recurrence": "none",
                },
                "extract_mute_target": {"name": ["카카오톡"], "content": []},
            }
        )
    )
    answer = engine.handle(_req(), APPS)
    assert answer.condition and answer.condition.expires == "2026-08-14T23:30:00+09:00"


def test_pending_cancel_and_continue(fault: FaultServer, engine: HostedEngine) -> None:
    fault.script(tool_reply({"classify_followup": {"action": "CANCEL"}}))
    answer = engine.handle(_req("아 취소", pending=True, pendingOriginal="카톡만 받아줘"), APPS)
    assert answer.dialogIntent.value == "pending"
    assert answer.pendingAction and answer.pendingAction.value == "CANCEL"
    assert answer.failReason and answer.failReason.value == "cancelled"
    assert answer.needsSupplement is False
    assert any(t["function"]["name"] == "classify_followup" for t in fault.requests[0]["tools"])
    assert "카톡만 받아줘" in fault.requests[0]["messages"][0]["content"]

    fault.script(
        tool_reply(
            {
                "classify_followup": {"action": "CONTINUE"},
                "extract_notification_condition": COND_2H,
                "extract_allow_target": {"name": ["카카오톡"], "content": []},
            }
        )
    )
    answer = engine.handle(_req("2시간", pending=True, pendingOriginal="카톡만 받아줘"), APPS)
    assert answer.ok and answer.pendingAction and answer.pendingAction.value == "CONTINUE"
    assert answer.targetFixed and answer.targetFixed.mute is False


# --------------------------------------------------------------------------- llama_cpp.server

LLAMA_SERVER_TIMEOUT_S = 90.0


def _server_importable() -> str | None:
    probe = subprocess.run(
        [sys.executable, "-c", "import llama_cpp.server.app"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if probe.returncode == 0:
        return None
    return probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else "import failed"


@pytest.fixture(scope="session")
def llama_server(gguf_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI-compatible server on loopback, serving the local GGUF."""
    why = _server_importable()
    if why:
        pytest.skip(f"llama_cpp.server unavailable ({why}); pip install 'llama-cpp-python[server]'")
    from tests.conftest import free_port

    port = free_port()
    log = tmp_path_factory.mktemp("llama_server") / "server.log"
    cmd = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf_path),
        "--chat_format",
        "chatml-function-calling",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "4096",
        "--n_threads",
        str(min(2, os.cpu_count() or 1)),
    ]
    with log.open("wb") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            while True:
                if proc.poll() is not None:
                    pytest.fail(
                        f"llama_cpp.server exited: {log.read_text(errors='replace')[-2000:]}"
                    )
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        pytest.fail("llama_cpp.server did not start within 120 s")
                    time.sleep(0.5)
            yield f"http://127.0.0.1:{port}/v1"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("prompt", ["지금부터 2시간 카톡 알림 꺼줘", "오늘 날씨 좋다"])
def test_llama_cpp_server_contract(llama_server: str, prompt: str) -> None:
    eng = HostedEngine(
        _settings(llama_server, timeout_s=LLAMA_SERVER_TIMEOUT_S, model="gemma-3-270m-q4_k_m"),
        mapper=MAPPER,
    )
    try:
        t0 = time.monotonic()
        try:
            answer = eng.handle(_req(prompt), APPS)
        except HostedEngineError:
            pass  # the 270M base model may well write junk tool calls: that is a clean refusal
        else:
            # A well-formed contract answer, whatever it says.
            HandleResponse.model_validate(answer.model_dump(mode="json"))
            assert answer.meta.engine == "hosted" and answer.meta.hostedCalls == 1
            assert answer.meta.costUsd == 0.0  # a local model has no price
            if not answer.ok:
                assert answer.targetFixed is None and answer.failReason is not None
        assert time.monotonic() - t0 < LLAMA_SERVER_TIMEOUT_S + 5
    finally:
        eng.close()
