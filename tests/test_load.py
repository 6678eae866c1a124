"""A load run from a loopback client against the real server (issue 8).

500 requests at concurrency 8: the dev set's inputs (code reads all of them now) with one
request in ten an elliptical command only the model can finish, in a fixed shuffled order. None may be lost, none may be answered with a status >= 500, and the
server's resident memory may not grow by more than 50 MB once warm. The live server runs in
this process, so its RSS is this process's.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
DATASET = REPO / "eval" / "data" / "dev.jsonl"
REQUESTS, CONCURRENCY = 500, 8
RSS_GROWTH_LIMIT_MB = 50.0


def _loadtest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("loadtest", REPO / "scripts" / "loadtest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loadtest"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


loadtest = _loadtest()


def test_percentile_is_nearest_rank() -> None:
    assert loadtest.percentile([], 50) is None
    assert loadtest.percentile([5.0], 99) == 5.0
    values = [float(v) for v in range(1, 101)]
    assert (loadtest.percentile(values, 50), loadtest.percentile(values, 95)) == (50.0, 95.0)


def test_the_load_run_refuses_non_loopback_urls() -> None:
    with pytest.raises(ValueError, match="loopback"):
        loadtest.check_loopback("http://10.0.0.1:8765")
    assert loadtest.main(["--url", "http://example.com:8765", "--requests", "1"]) == 2


def test_500_requests_at_concurrency_8(live_server) -> None:
    bodies = loadtest.mixed_bodies(loadtest.load_bodies(DATASET), REQUESTS, model_share=0.1)
    # Warm up with a full pass over the dataset: every code path and the model's prompt prefix
    # are touched once, so "before" is the steady state and not the cold start.
    warm = loadtest.run_load(live_server.url, bodies, requests=len(bodies),
                             concurrency=CONCURRENCY)
    assert warm.lost == 0 and warm.server_errors == 0, warm.summary()
    report = loadtest.run_load(live_server.url, bodies, requests=REQUESTS,
                               concurrency=CONCURRENCY, pid="self")
    summary = report.summary()
    print("\nload run:", json.dumps(summary, ensure_ascii=False))
    assert report.answered == REQUESTS and report.lost == 0, summary
    assert report.transport_errors == {}, summary
    assert report.server_errors == 0, summary
    assert set(report.by_status) == {"200"}, summary  # the dev inputs are all well formed
    assert report.llm_calls >= REQUESTS // 10, "the model-bound tenth did not reach the model"
    assert report.p95_ms is not None
    assert report.rss_before_mb is not None and report.rss_after_mb is not None
    growth = report.rss_after_mb - report.rss_before_mb
    assert growth <= RSS_GROWTH_LIMIT_MB, f"RSS grew {growth:.1f} MB under load"


def test_a_mixed_load_has_the_shares_it_states() -> None:
    bodies = loadtest.load_bodies(DATASET)
    mix = loadtest.mixed_bodies(bodies, 100, model_share=0.2, heavy_share=0.1)
    assert len(mix) == 100
    heavy = [b for b in mix if len(b.get("installedApps") or []) == 300]
    assert len(heavy) == 10
    assert len({json.dumps(b["installedApps"][0]) for b in heavy}) == 10  # every catalog new
    assert sum(b["prompt"] in loadtest.MODEL_BOUND for b in mix) >= 20
    assert loadtest.mixed_bodies(bodies, 100, model_share=0.2) == loadtest.mixed_bodies(
        bodies, 100, model_share=0.2)  # the same order every run
