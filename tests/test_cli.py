"""The console script, run as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).with_name("notillm-local")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def test_parse_time_prints_the_condition() -> None:
    p = run("parse-time", "매일 밤 10시부터 아침 6시까지", "--now", "2026-08-14T21:30:00+09:00")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    cond = out["condition"]
    assert cond["recurrence"] == "daily"
    assert (cond["window_start"], cond["window_end"]) == ("22:00", "06:00")


def test_extract_with_pending_original_shows_the_merged_rule() -> None:
    p = run("extract", "1시간", "--pending-original", "카톡만 받아줘",
            "--now", "2026-08-15T09:00:00+09:00")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["pendingAction"] == "CONTINUE" and out["ok"] is True
    assert out["targetFixed"]["name"] == ["카카오톡"] and out["targetFixed"]["mute"] is False
    assert out["condition"]["expires"] == "2026-08-15T10:00:00+09:00"


def test_models_lists_the_catalog_with_hash_check() -> None:
    p = run("models")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    gguf = next(r for r in rows if r["id"] == "gemma-3-270m-q4_k_m")
    assert gguf["present"] is True and gguf["sha256_ok"] is True


def test_serve_refuses_a_missing_model(tmp_path: Path) -> None:
    p = run("serve", "--model-path", str(tmp_path / "nope.gguf"), "--port", "18999")
    assert p.returncode != 0
    assert "nope.gguf" in p.stderr


def test_serve_refuses_a_corrupt_model(tmp_path: Path) -> None:
    bad = tmp_path / "corrupt.gguf"
    bad.write_bytes(b"GGUF" + os.urandom(4096))
    p = run("serve", "--model-path", str(bad), "--port", "18999")
    assert p.returncode != 0
    assert "ModelLoadError" in p.stderr


@pytest.mark.parametrize("flag", ["--now", "--now=2026-08-14T21:30:00"])
def test_bad_now_is_refused(flag: str) -> None:
    args = ["parse-time", "2시간"] + ([flag] if "=" in flag else [flag, "어제"])
    p = run(*args)
    assert p.returncode != 0
