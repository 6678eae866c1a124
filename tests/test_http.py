"""A real uvicorn server on loopback, spoken to over HTTP."""

from __future__ import annotations

import httpx
import pytest

from notillm_local.settings import Settings

BODY = {"prompt": "지금부터 2시간 카톡 알림 받지마", "currentTime": "2026-08-14T21:30:00+09:00"}


def post(live_server, body, **kw):
    return httpx.post(f"{live_server.url}/v1/handle", json=body, timeout=30, **kw)


def test_handle_answers_the_contract(live_server) -> None:
    r = post(live_server, BODY)
    assert r.status_code == 200
    data = r.json()
    assert data["ok"] is True and data["dialogIntent"] == "extract"
    assert data["targetFixed"] == {"mute": True, "all": False, "name": ["카카오톡"],
                                   "content": [], "packages": ["com.kakao.talk"]}
    assert data["condition"]["expires"] == "2026-08-14T23:30:00+09:00"
    assert set(data["meta"]) >= {"engine", "llmCalls", "hostedCalls", "fallbackUsed",
                                 "latencyMs", "costUsd", "model"}


def test_health_and_openapi(live_server) -> None:
    h = httpx.get(f"{live_server.url}/health").json()
    assert h["status"] == "ok" and h["offline"] is True and h["engine"] == "local"
    assert "extractor" in h["models"]
    spec = httpx.get(f"{live_server.url}/openapi.json").json()
    assert "/v1/handle" in spec["paths"]


@pytest.mark.parametrize(
    "patch",
    [
        {"currentTime": "2026-08-14T21:30:00"},  # no offset: never a guess
        {"currentTime": "yesterday"},
        {"currentTime": "1900-01-01T00:00:00+09:00"},
        {"prompt": "   "},
        {"prompt": "가" * 501},
        {"installedApps": [{"name": "카톡", "packageName": "not a package"}]},
        {"installedApps": [{"name": "x" * 101, "packageName": "com.x.y"}]},
        {"installedApps": [{"name": f"a{i}", "packageName": f"com.a.b{i}"} for i in range(501)]},
    ],
)
def test_bad_input_is_a_clear_422(live_server, patch) -> None:
    r = post(live_server, {**BODY, **patch})
    assert r.status_code == 422
    assert r.json()["error"] == "invalid_request"


def test_missing_fields_and_wrong_types_are_422(live_server) -> None:
    assert post(live_server, {"prompt": "카톡 꺼줘"}).status_code == 422
    assert post(live_server, {**BODY, "pending": "maybe"}).status_code == 422
    r = httpx.post(f"{live_server.url}/v1/handle", content=b"{not json", timeout=10,
                   headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_oversized_body_is_413(live_server) -> None:
    from notillm_local.api.app import MAX_BODY_BYTES

    body = {**BODY, "pendingOriginal": None, "padding": "x" * (MAX_BODY_BYTES + 1024)}
    r = post(live_server, body)
    assert r.status_code == 413 and r.json()["error"] == "body_too_large"


def test_422_does_not_echo_the_prompt(live_server) -> None:
    secret = "비밀번호는 1234" * 60
    r = post(live_server, {**BODY, "prompt": secret})
    assert r.status_code == 422 and "비밀번호" not in r.text


def test_non_loopback_bind_requires_a_token() -> None:
    with pytest.raises(ValueError, match="NOTILLM_API_TOKEN"):
        Settings(host="0.0.0.0")
    assert Settings(host="0.0.0.0", api_token="s3cret").api_token is not None


def test_bearer_token_is_enforced(service) -> None:
    from notillm_local.api.app import create_app

    from .conftest import LiveServer, free_port

    settings = Settings(host="0.0.0.0", api_token="s3cret")
    with LiveServer(create_app(settings, service), free_port()) as srv:
        assert post(srv, BODY).status_code == 401
        assert post(srv, BODY, headers={"Authorization": "Bearer wrong"}).status_code == 401
        ok = post(srv, BODY, headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200 and ok.json()["ok"] is True
