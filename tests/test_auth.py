"""Authentication (issue 16, finding 1): one truth for "auth on", shared by settings and app.

An empty token (`NOTILLM_API_TOKEN=`, what an unset variable in a deploy script gives) used to
pass the settings check (`is None`) and switch the app's check off (truthiness): any client on
any interface got in. Now a blank token never starts, and the app enforces exactly what
`Settings.auth_required` says, for every bind form.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from notillm_local.api.app import create_app
from notillm_local.settings import Settings

from .conftest import LiveServer, free_port

HOSTS = ["127.0.0.1", "localhost", "::1", "0.0.0.0", "192.168.1.20"]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
TOKENS: dict[str, str | None] = {"unset": None, "empty": "", "blank": " \t ", "set": "s3cret-T0ken"}
BODY = {"prompt": "지금부터 2시간 카톡 알림 받지마", "currentTime": "2026-08-14T21:30:00+09:00"}
BIN = Path(sys.executable).with_name("notillm-local")


def _expect_start(host: str, token: str) -> bool:
    if token in ("empty", "blank"):
        return False  # a blank token is a mistake, never "no auth"
    return token == "set" or host in LOOPBACK


@pytest.mark.parametrize("token", list(TOKENS))
@pytest.mark.parametrize("host", HOSTS)
def test_settings_for_every_bind_form_and_token(host: str, token: str) -> None:
    value = TOKENS[token]
    kwargs: dict[str, str] = {"host": host}
    if value is not None:
        kwargs["api_token"] = value
    if not _expect_start(host, token):
        with pytest.raises(ValidationError, match="api_token|NOTILLM_API_TOKEN"):
            Settings(**kwargs)  # type: ignore[arg-type]
        return
    s = Settings(**kwargs)  # type: ignore[arg-type]
    assert s.auth_required is (token == "set")
    assert (s.bearer_token is not None) is s.auth_required


@pytest.mark.parametrize("token", list(TOKENS))
@pytest.mark.parametrize("host", HOSTS)
def test_the_environment_gives_the_same_answer(
    host: str, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deploy-script form: NOTILLM_API_TOKEN= set but empty."""
    monkeypatch.setenv("NOTILLM_HOST", host)
    value = TOKENS[token]
    if value is None:
        monkeypatch.delenv("NOTILLM_API_TOKEN", raising=False)
    else:
        monkeypatch.setenv("NOTILLM_API_TOKEN", value)
    if not _expect_start(host, token):
        with pytest.raises(ValidationError):
            Settings()
    else:
        assert Settings().auth_required is (token == "set")


@pytest.mark.parametrize("bad", ["to ken", "tökén", "tok\x00en", " token"])
def test_a_token_no_client_can_send_is_refused(bad: str) -> None:
    with pytest.raises(ValidationError, match="printable ASCII"):
        Settings(api_token=bad)  # type: ignore[arg-type]


def test_serve_with_an_empty_token_refuses_to_start() -> None:
    env = {**os.environ, "NOTILLM_API_TOKEN": ""}
    proc = subprocess.run(
        [str(BIN), "serve", "--host", "0.0.0.0", "--port", str(free_port())],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "api_token" in proc.stderr


@pytest.mark.parametrize("host", HOSTS)
def test_the_app_enforces_what_the_settings_say(service, host: str) -> None:
    """Every bind form with a token: the token is required, the scheme in any case."""
    settings = Settings(host=host, api_token="s3cret-T0ken")  # type: ignore[arg-type]
    with LiveServer(create_app(settings, service), free_port()) as srv:
        url = f"{srv.url}/v1/handle"

        def post(headers: dict[str, str]) -> httpx.Response:
            return httpx.post(url, json=BODY, headers=headers, timeout=30, trust_env=False)

        refused = post({})
        assert refused.status_code == 401
        assert refused.json()["error"] == "unauthorized"
        assert refused.headers.get("www-authenticate", "").lower() == "bearer"
        for wrong in ("Bearer wrong", "Basic czNjcmV0LVQwa2Vu", "s3cret-T0ken",
                      "Bearer s3cret-T0ke", "Bearer s3cret-T0kenX", "Token s3cret-T0ken"):
            assert post({"Authorization": wrong}).status_code == 401, wrong
        for scheme in ("Bearer", "bearer", "BEARER", "bEaReR"):
            ok = post({"Authorization": f"{scheme} s3cret-T0ken"})
            assert ok.status_code == 200, (scheme, ok.text)
        health = httpx.get(f"{srv.url}/health", timeout=10, trust_env=False)
        assert health.status_code == 200  # liveness stays open for supervisors


@pytest.mark.parametrize("host", sorted(LOOPBACK))
def test_loopback_without_a_token_needs_none(service, host: str) -> None:
    settings = Settings(host=host)
    assert settings.auth_required is False
    with LiveServer(create_app(settings, service), free_port()) as srv:
        r = httpx.post(f"{srv.url}/v1/handle", json=BODY, timeout=30, trust_env=False)
        assert r.status_code == 200, r.text
