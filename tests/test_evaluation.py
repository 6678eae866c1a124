"""The harness end to end with a scripted service: numbers, report files, skipped engines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from notillm_local.contract.schemas import HandleRequest, HandleResponse
from notillm_local.eval.common import percentile
from notillm_local.eval.harness import load_cases, run_bench, run_eval
from notillm_local.settings import Settings

NOW = "2026-08-14T21:30:00+09:00"
META = {
    "engine": "local",
    "llmCalls": 1,
    "hostedCalls": 0,
    "fallbackUsed": False,
    "latencyMs": 1.0,
    "costUsd": 0.0,
    "model": "fake",
}
RIGHT = {
    "ok": True,
    "dialogIntent": "extract",
    "message": "ok",
    "targetFixed": {
        "mute": True,
        "all": False,
        "name": ["카카오톡"],
        "content": [],
        "packages": ["com.kakao.talk"],
    },
    "condition": {
        "delivery": NOW,
        "expires": "2026-08-14T23:30:00+09:00",
        "recurrence": "none",
        "days_of_week": [],
        "window_start": None,
        "window_end": None,
    },
}
CASES = [
    {
        "id": "c1",
        "input": {"prompt": "2시간 카톡 꺼줘", "currentTime": NOW},
        "expected": {
            "ok": True,
            "dialogIntent": "extract",
            "targetFixed": RIGHT["targetFixed"],
            "condition": {"expires": RIGHT["condition"]["expires"]},
        },
        "tags": {"intent": "mute", "time": "duration", "target": "single_app"},
    },
    {
        "id": "c2",
        "input": {"prompt": "3시간 카톡 꺼줘", "currentTime": NOW},
        "expected": {"ok": True, "condition": {"expires": "2026-08-15T00:30:00+09:00"}},
        "tags": {"intent": "mute", "time": "duration", "target": "single_app"},
    },
    {
        "id": "c3",
        "input": {"prompt": "안녕", "currentTime": NOW},
        "expected": {"ok": False, "failReason": "chitchat"},
        "tags": {"intent": "reject"},
    },
    {
        "id": "c4",
        "input": {
            "prompt": "취소",
            "currentTime": NOW,
            "pending": True,
            "pendingOriginal": "카톡 꺼줘",
        },
        "expected": {"ok": False, "failReason": "cancelled", "pendingAction": "CANCEL"},
        "tags": {"pending": "CANCEL"},
    },
    {
        "id": "c5",
        "input": {"prompt": "boom", "currentTime": NOW},
        "expected": {"ok": True},
        "tags": {"intent": "mute"},
    },
]


class FakeService:
    closed = False

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def wait_warm(self, timeout_s: float = 60.0) -> bool:
        return True

    def handle(self, req: HandleRequest) -> HandleResponse:
        if req.prompt == "boom":
            raise RuntimeError("scripted failure")
        if req.prompt == "안녕":
            return HandleResponse.model_validate(
                {
                    "ok": False,
                    "dialogIntent": "reject",
                    "failReason": "chitchat",
                    "message": "x",
                    "meta": {**META, "llmCalls": 0},
                }
            )
        if req.pending:
            return HandleResponse.model_validate(
                {
                    "ok": False,
                    "dialogIntent": "pending",
                    "pendingAction": "CANCEL",
                    "failReason": "cancelled",
                    "message": "x",
                    "meta": {**META, "llmCalls": 0},
                }
            )
        hosted = self.settings.engine.value != "local"
        meta = {
            **META,
            "engine": "hosted" if hosted else "local",
            "hostedCalls": int(hosted),
            "costUsd": 0.01 if hosted else 0.0,
        }
        return HandleResponse.model_validate({**RIGHT, "meta": meta})  # c2 gets c1's answer

    def close(self) -> None:
        FakeService.closed = True


@pytest.fixture()
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in CASES) + "\n", "utf-8")
    return path


def test_percentile_matches_linear_interpolation() -> None:
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([10], 95) == 10
    assert percentile(list(range(101)), 95) == 95
    assert percentile([], 50) is None


def test_run_eval_report(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    rep = run_eval(
        dataset, "local", Settings(), out, offline=True, progress=False, service_factory=FakeService
    )
    assert FakeService.closed
    assert rep["runs"] == 5 and rep["errors"] == 1
    assert rep["accuracy"]["rule"] == pytest.approx(3 / 5)  # c2 wrong time, c5 raised
    assert rep["accuracy"]["route"] == pytest.approx(4 / 5)
    assert rep["per_tag"]["intent"]["reject"]["rule"] == 1.0
    assert rep["per_tag"]["time"]["duration"] == {"n": 2, "rule": 0.5, "route": 1.0}
    assert rep["coverage"]["intent"] == {"mute": 3, "reject": 1}
    assert rep["per_pending_action"]["CANCEL"]["rule"] == 1.0
    assert set(rep["per_kind"]) == {"extract", "reject", "pending"}
    assert rep["model_calls"]["hosted_call_rate"] == 0.0
    assert rep["model_calls"]["llm_calls"] == 2
    failed = {f["id"]: f for f in rep["failures"]}
    assert set(failed) == {"c2", "c5"}
    assert failed["c2"]["diffs"][0]["field"] == "condition.expires"
    assert failed["c5"]["diffs"][0]["field"] == "exception"
    assert rep["latency"]["p95_ms"] is not None
    assert rep["memory"]["after_warmup"]["rss_mb"]
    for name in ("report.json", "report.md", "latency_local.png", "accuracy_by_tag_local.png"):
        assert (out / name).stat().st_size > 0, name
    md = (out / "report.md").read_text("utf-8")
    assert "condition.expires" in md and "c5" in md
    assert json.loads((out / "report.json").read_text("utf-8"))["runs"] == 5


def test_hosted_engine_refuses_offline(dataset: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="offline"):
        run_eval(
            dataset,
            "hosted",
            Settings(),
            tmp_path,
            offline=True,
            progress=False,
            service_factory=FakeService,
        )


def test_bench_skips_engines_without_requirements(dataset: Path, tmp_path: Path) -> None:
    bench = run_bench(
        dataset,
        ["local", "hybrid", "hosted", "nonsense"],
        Settings(),
        tmp_path,
        service_factory=FakeService,
        progress=False,
    )
    assert [r["engine"] for r in bench["rows"]] == ["local"]
    assert set(bench["skipped"]) == {"hybrid", "hosted", "nonsense"}
    assert "base URL" in bench["skipped"]["hosted"]
    ref = {r["engine"]: r for r in bench["reference_rows"]}
    assert ref["V1 (original, all GPT-4o)"]["accuracy_vs_v1"] == 1.0
    row = bench["rows"][0]
    assert row["accuracy_vs_v1"] == pytest.approx(0.6 / 0.894)
    assert (tmp_path / "bench.md").exists() and (tmp_path / "bench_latency_cdf.png").exists()
    assert (tmp_path / "local" / "report.json").exists()


def test_bench_runs_hosted_when_configured(dataset: Path, tmp_path: Path) -> None:
    settings = Settings(hosted_base_url="http://127.0.0.1:9/v1")
    bench = run_bench(
        dataset,
        ["local", "hosted"],
        settings,
        tmp_path,
        service_factory=FakeService,
        progress=False,
    )
    rows = {r["engine"]: r for r in bench["rows"]}
    assert rows["hosted"]["hosted_call_rate"] == pytest.approx(2 / 5)
    assert rows["hosted"]["cost_per_request_usd"] == pytest.approx(0.02 / 5)
    assert rows["local"]["hosted_call_rate"] == 0.0


def test_dev_set_loads() -> None:
    cases = load_cases(Path(__file__).resolve().parents[1] / "eval" / "data" / "dev.jsonl")
    kinds: dict[str, Any] = {}
    for c in cases:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    assert kinds["pending"] >= 40 and kinds["reject"] >= 10
