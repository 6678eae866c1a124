#!/usr/bin/env python
"""Load run against a running `notillm-local serve`, from a loopback client.

    python scripts/loadtest.py --url http://127.0.0.1:8765 --requests 500 --concurrency 8 \
        --dataset eval/data/dev.jsonl --pid $(pgrep -f 'notillm-local serve' | head -1)

Sends the dataset's inputs round-robin (so the mix of code-only and model-bound requests is
the dataset's), `concurrency` requests at a time, each worker on its own keep-alive
connection. Reports the count, answers by status, transport errors (lost requests), latency
P50/P95/P99, throughput, the 503/504 rates, and the server's RSS before and after when `--pid`
is given. Only loopback URLs are accepted: this measures the local service, nothing else.

A mixed load states its shares (issue 16): `--model-share 0.2` makes a fifth of the requests
elliptical commands whose intent only the model decides ("카톡 2시간"), `--heavy-share 0.1`
a tenth maximal valid requests (300 apps never seen before, 500-character texts); the rest
are the dataset's inputs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
DEFAULT_DATASET = Path(__file__).resolve().parent.parent / "eval" / "data" / "dev.jsonl"


def load_bodies(dataset: Path) -> list[dict[str, Any]]:
    """The `input` of every case: exactly what the phone app would send."""
    rows = [json.loads(line) for line in dataset.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    bodies = [r["input"] for r in rows if isinstance(r.get("input"), dict)]
    if not bodies:
        raise ValueError(f"no inputs in {dataset}")
    return bodies


# Elliptical commands: code reads the app and the time, only the model decides mute or allow.
MODEL_BOUND = ["카톡 2시간", "유튜브 30분", "인스타 1시간", "슬랙 3시간", "문자 2시간",
               "넷플릭스 1시간 반", "유튜브 오후 3시까지", "카톡 자정까지"]
NOW = "2026-08-14T21:30:00+09:00"
_SYLLABLES = "가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허"


def heavy_body(seed: int) -> dict[str, Any]:
    """A maximal valid request: 300 apps no catalog has, 30-character labels, a 500-character
    prompt with words only the model can place."""
    r = random.Random(seed)
    apps = [{"name": "".join(r.choice(_SYLLABLES) for _ in range(26)) + f"{i:04d}",
             "packageName": f"com.load{seed}.a{i}." + "x" * 70} for i in range(300)]
    words = "쥬블릭스 퀘나른 알림 2시간 꺼줘 "
    return {"prompt": (words * 30)[:500].strip(), "currentTime": NOW, "installedApps": apps}


def mixed_bodies(
    bodies: Sequence[dict[str, Any]], requests: int, *, model_share: float,
    heavy_share: float = 0.0, seed: int = 0,
) -> list[dict[str, Any]]:
    """`requests` bodies in a fixed shuffled order with the stated shares (see the docstring)."""
    if not 0 <= model_share + heavy_share <= 1:
        raise ValueError("model_share + heavy_share must lie within 0..1")
    n_model = round(requests * model_share)
    n_heavy = round(requests * heavy_share)
    out = [{"prompt": MODEL_BOUND[i % len(MODEL_BOUND)], "currentTime": NOW}
           for i in range(n_model)]
    out += [heavy_body(seed * 100_000 + i) for i in range(n_heavy)]
    out += [bodies[i % len(bodies)] for i in range(requests - n_model - n_heavy)]
    random.Random(seed).shuffle(out)
    return out


def rss_mb(pid: int | str = "self") -> float | None:
    """Resident memory of a process from /proc (None where there is no /proc)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return round(float(line.split()[1]) / 1024, 1)
    return None


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile: a latency that some request really had."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class LoadReport:
    url: str
    requests: int
    concurrency: int
    answered: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    transport_errors: dict[str, int] = field(default_factory=dict)
    retry_after_missing: int = 0  # 503s without Retry-After: a contract breach
    llm_calls: int = 0
    wall_s: float = 0.0
    throughput_rps: float = 0.0
    p50_ms: float | None = None
    p95_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None
    rss_before_mb: float | None = None
    rss_after_mb: float | None = None
    latencies_ms: list[float] = field(default_factory=list, repr=False)

    @property
    def lost(self) -> int:
        return self.requests - self.answered

    @property
    def server_errors(self) -> int:
        return sum(n for code, n in self.by_status.items() if int(code) >= 500)

    def rate(self, status: int) -> float:
        return round(self.by_status.get(str(status), 0) / self.requests, 4) if self.requests else 0

    def summary(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k != "latencies_ms"}
        out.update(lost=self.lost, server_errors=self.server_errors,
                   rate_503=self.rate(503), rate_504=self.rate(504))
        if self.rss_before_mb is not None and self.rss_after_mb is not None:
            out["rss_delta_mb"] = round(self.rss_after_mb - self.rss_before_mb, 1)
        return out


def check_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK:
        raise ValueError(f"refusing {url!r}: the load run only speaks to a loopback address")


def run_load(
    url: str,
    bodies: Sequence[dict[str, Any]],
    *,
    requests: int = 500,
    concurrency: int = 8,
    timeout_s: float = 120.0,
    pid: int | str | None = None,
) -> LoadReport:
    """Send `requests` POST /v1/handle from `concurrency` threads; every one is accounted for."""
    check_loopback(url)
    report = LoadReport(url=url, requests=requests, concurrency=concurrency)
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    latencies: list[float] = []
    lock = threading.Lock()
    next_index = iter(range(requests))

    def worker() -> None:
        # trust_env=False: a proxy from the environment must not carry loopback traffic away.
        with httpx.Client(base_url=url, timeout=timeout_s, trust_env=False) as client:
            while True:
                with lock:
                    i = next(next_index, None)
                if i is None:
                    return
                t0 = time.perf_counter()
                try:
                    r = client.post("/v1/handle", json=bodies[i % len(bodies)])
                except httpx.HTTPError as exc:
                    with lock:
                        errors[type(exc).__name__] += 1
                    continue
                took = (time.perf_counter() - t0) * 1000
                with lock:
                    statuses[str(r.status_code)] += 1
                    latencies.append(took)
                    if r.status_code == 503 and "retry-after" not in r.headers:
                        report.retry_after_missing += 1
                    if r.status_code == 200:
                        report.llm_calls += int(r.json()["meta"]["llmCalls"])

    if pid is not None:
        report.rss_before_mb = rss_mb(pid)
    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report.wall_s = round(time.perf_counter() - t0, 2)
    if pid is not None:
        report.rss_after_mb = rss_mb(pid)
    report.answered = sum(statuses.values())
    report.by_status = dict(sorted(statuses.items()))
    report.transport_errors = dict(errors)
    report.latencies_ms = latencies
    report.throughput_rps = round(report.answered / report.wall_s, 2) if report.wall_s else 0.0
    for name, q in (("p50_ms", 50), ("p95_ms", 95), ("p99_ms", 99), ("max_ms", 100)):
        v = percentile(latencies, q)
        setattr(report, name, None if v is None else round(v, 1))
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--url", default="http://127.0.0.1:8765")
    p.add_argument("--requests", type=int, default=500)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    p.add_argument("--pid", type=int, help="the server's process id, for RSS before/after")
    p.add_argument("--warmup", type=int, default=20, help="requests sent before measuring")
    p.add_argument("--timeout", type=float, default=120.0, help="per-request client timeout (s)")
    p.add_argument("--model-share", type=float, default=None,
                   help="share of requests only the model can answer (a mixed load)")
    p.add_argument("--heavy-share", type=float, default=0.0,
                   help="share of maximal valid requests (300 new apps, 500-char texts)")
    args = p.parse_args(argv)
    try:
        check_loopback(args.url)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    plain = load_bodies(args.dataset)
    bodies = plain
    if args.model_share is not None or args.heavy_share:
        bodies = mixed_bodies(plain, args.requests, model_share=args.model_share or 0.0,
                              heavy_share=args.heavy_share)
    if args.warmup:
        # Warm-up loads the model's prompt prefix and fills allocator pools, so RSS before is
        # the steady state rather than the cold start. Dataset inputs and one model-bound
        # command only: a heavy body's catalog must still be new when it is measured.
        warm = [{"prompt": MODEL_BOUND[0], "currentTime": NOW}, *plain]
        run_load(args.url, warm, requests=args.warmup, concurrency=1, timeout_s=args.timeout)
    report = run_load(args.url, bodies, requests=args.requests, concurrency=args.concurrency,
                      timeout_s=args.timeout, pid=args.pid)
    print(json.dumps(report.summary(), ensure_ascii=False, indent=2))
    return 0 if report.lost == 0 and report.server_errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
