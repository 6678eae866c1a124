"""Input hygiene (issue 16, findings 4-6): strict types, and text cleaned or refused before any
stage reads it.

- No coercion: `"pending": "yes"` and an integer `currentTime` are 422s.
- A lone surrogate is not text: 422 in the error shape, never a 500.
- Control characters (NUL, ESC, DEL ...) become spaces; bidi and zero-width characters (every
  Unicode format character) are removed, from the prompt, pendingOriginal and app labels, so
  none can reach a stage, a grammar, a log or `message`.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from notillm_local.contract.schemas import HandleRequest, InstalledApp, clean_text

NOW = "2026-08-14T21:30:00+09:00"
BODY: dict[str, Any] = {"prompt": "지금부터 2시간 카톡 알림 받지마", "currentTime": NOW}
KAKAO = {"name": "카카오톡", "packageName": "com.kakao.talk"}
BIDI_AND_ZERO_WIDTH = ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
                       "\u200f", "\u061c", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff",
                       "\u00ad"]
CONTROLS = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9b"]


def send(url: str, body: dict[str, Any]) -> httpx.Response:
    # json.dumps escapes a lone surrogate as \\ud800, as any JSON encoder would send it.
    return httpx.post(f"{url}/v1/handle", content=json.dumps(body).encode("ascii"),
                      headers={"content-type": "application/json"}, timeout=60, trust_env=False)


def invisible(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in text
            if unicodedata.category(c) in ("Cc", "Cf", "Cs") and c not in "\t\n\r"]


# --------------------------------------------------------------------------- strict types


@pytest.mark.parametrize("patch", [
    {"pending": "yes"}, {"pending": "true"}, {"pending": 1}, {"pending": "1"}, {"pending": 0},
    {"trace": "yes"}, {"trace": 1},
    {"currentTime": 1786707000}, {"currentTime": 1786707000.5}, {"currentTime": True},
    {"currentTime": [2026, 8, 14]}, {"currentTime": {"year": 2026}},
    {"currentTime": "1786707000"}, {"currentTime": "2026-08-14"},
    {"prompt": 123}, {"pendingOriginal": 5}, {"installedApps": {"name": "카카오톡"}},
    {"installedApps": [{"name": 7, "packageName": "com.kakao.talk"}]},
])
def test_no_coercion_wrong_types_are_422(live_server, patch: dict[str, Any]) -> None:
    r = send(live_server.url, {**BODY, **patch})
    assert r.status_code == 422, (patch, r.status_code, r.text[:300])
    assert r.json()["error"] == "invalid_request"


def test_real_json_types_still_pass(live_server) -> None:
    for patch in ({"pending": False}, {"trace": False}, {"currentTime": "2026-08-14T12:30:00Z"},
                  {"currentTime": "2026-08-14T21:30:00.123+09:00"}):
        r = send(live_server.url, {**BODY, **patch})
        assert r.status_code == 200, (patch, r.text[:300])


# --------------------------------------------------------------------------- invalid Unicode


@pytest.mark.parametrize("field", ["prompt", "pendingOriginal", "label"])
@pytest.mark.parametrize("surrogate", ["\ud800", "\udfff", "\udc00카톡", "카톡\ud83d"])
def test_a_lone_surrogate_is_a_422_never_a_500(live_server, field: str, surrogate: str) -> None:
    body: dict[str, Any] = dict(BODY)
    if field == "prompt":
        body["prompt"] = f"{surrogate} 카톡 2시간"
    elif field == "pendingOriginal":
        body.update(prompt="1시간", pending=True, pendingOriginal=f"{surrogate} 카톡 꺼줘")
    else:
        body["installedApps"] = [{"name": f"카카오톡{surrogate}", "packageName": "com.kakao.talk"}]
    r = send(live_server.url, body)
    assert r.status_code == 422, r.text[:300]
    data = r.json()  # a readable error, in the one shape
    assert data["error"] == "invalid_request" and data["detail"]


@pytest.mark.parametrize("ch", CONTROLS)
def test_control_characters_are_cleaned_to_spaces(live_server, ch: str) -> None:
    r = send(live_server.url, {**BODY, "prompt": f"카톡{ch}2시간{ch} 알림 꺼줘"})
    assert r.status_code == 200, r.text[:300]
    data = r.json()
    assert data["ok"] is True and data["targetFixed"]["name"] == ["카카오톡"], data
    assert invisible(data["message"]) == []


@pytest.mark.parametrize("ch", BIDI_AND_ZERO_WIDTH)
def test_bidi_and_zero_width_characters_are_never_echoed(live_server, ch: str) -> None:
    cases = [
        {**BODY, "prompt": f"'{ch}스팸{ch}' 들어간 알림 2시간 꺼줘"},  # a keyword: echoed
        {**BODY, "prompt": f"{ch}카{ch}톡{ch} 2시간 알림 꺼줘"},
        {**BODY, "prompt": "카톡 2시간 꺼줘",
         "installedApps": [{"name": f"{ch}카카오톡{ch}", "packageName": "com.kakao.talk"}]},
        {**BODY, "prompt": "2시간", "pending": True, "pendingOriginal": f"'{ch}광고{ch}' 알림 꺼줘"},
    ]
    for body in cases:
        r = send(live_server.url, body)
        assert r.status_code == 200, r.text[:300]
        data = r.json()
        assert invisible(data["message"]) == [], (body, data["message"])
        target = data["targetFixed"] or {}
        for value in target.get("name", []) + target.get("content", []):
            assert invisible(value) == [], (body, target)
    named = send(live_server.url, cases[2]).json()
    assert named["ok"] is True and named["targetFixed"]["name"] == ["카카오톡"], named


def test_only_invisible_text_is_an_empty_prompt(live_server) -> None:
    r = send(live_server.url, {**BODY, "prompt": "\u200b\u202e\ufeff \x00"})
    assert r.status_code == 422 and r.json()["error"] == "invalid_request"


# --------------------------------------------------------------------------- the schema itself


def test_clean_text_rules() -> None:
    assert clean_text("카\u200b톡\u202e 2시간") == "카톡 2시간"
    assert clean_text("카톡\x002시간") == "카톡 2시간"
    assert clean_text("a\tb\nc\r\nd") == "a\tb\nc\r\nd"  # whitespace stays whitespace
    assert clean_text("\u1100\u1161") == "\uac00"  # decomposed Hangul (macOS, iOS) → NFC
    assert clean_text("👨‍👩‍👧 🇰🇷") == "👨👩👧 🇰🇷"  # ZWJ removed, flags kept
    with pytest.raises(ValueError, match="surrogate"):
        clean_text("\ud800")


def test_the_model_never_sees_what_was_cleaned() -> None:
    req = HandleRequest.model_validate({
        "prompt": " \u202e카톡\x00 2시간\u200b ", "currentTime": NOW, "pending": True,
        "pendingOriginal": "\u2066카톡 꺼줘\u2069",
        "installedApps": [{"name": "\u200f카카오톡", "packageName": "com.kakao.talk"}],
    })
    assert req.prompt == "카톡  2시간"
    assert req.pendingOriginal == "카톡 꺼줘"
    assert req.installedApps == [InstalledApp(**KAKAO)]
    with pytest.raises(ValidationError):
        HandleRequest.model_validate({**BODY, "installedApps": [{"name": "\u200b",
                                                                  "packageName": "com.a.b"}]})
