"""Cold start to healthy, and RSS after warm-up, of `notillm-local serve` as a real process.

    python scripts/bench_startup.py [--runs 3] [--port 18770] [--out reports/startup.json]

Each run starts the server, polls GET /health until it answers "ok", sends a few requests
(one answered by code, one that needs the model, one chitchat), reads the process's VmRSS and
VmHWM from /proc, times 45 chitchat requests the gate rejects (HTTP round trip and the server's
own latencyMs), and stops it with SIGTERM. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

WARM = [
    "지금부터 2시간 카톡 알림 받지마",
    "카톡 2시간",
    "오늘 날씨 어때?",
    "매일 밤 10시부터 아침 6시까지 조용히",
]


CHITCHAT = ["안녕", "ㅎㅎ", "오늘 날씨 어때?", "고마워", "점심 뭐 먹을까?", "알림이 뭐야?",
            "배고프다", "주말에 뭐 하지", "잘 자"]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def timed_posts(
    client: httpx.Client, url: str, prompts: list[str]
) -> list[tuple[float, dict[str, Any]]]:
    """POST each prompt in turn; (round-trip ms, answer) for each."""
    out = []
    for prompt in prompts:
        t = time.perf_counter()
        r = client.post(
            f"{url}/v1/handle",
            json={"prompt": prompt, "currentTime": "2026-08-14T21:30:00+09:00"},
            timeout=60,
        )
        r.raise_for_status()
        out.append(((time.perf_counter() - t) * 1000, r.json()))
    return out


def rss_mb(pid: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, val = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(val.split()[0]) / 1024
    return out


def one_run(port: int, exe: str) -> dict[str, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [exe, "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                if httpx.get(f"{url}/health", timeout=1).json().get("status") == "ok":
                    break
            except httpx.HTTPError:
                pass
            if time.perf_counter() - t0 > 120:
                raise RuntimeError("not healthy within 120 s")
            time.sleep(0.05)
        healthy_s = time.perf_counter() - t0
        # One kept-alive connection, as a phone app holds it.
        client = httpx.Client()
        lat = [ms for ms, _ in timed_posts(client, url, WARM * 3)]
        mem = rss_mb(proc.pid)
        # Chitchat rejected by the gate: the whole HTTP round trip, and the server's own time.
        rejects = timed_posts(client, url, CHITCHAT * 5)
        for prompt, (_, data) in zip(CHITCHAT * 5, rejects, strict=True):
            assert data["dialogIntent"] == "reject", (prompt, data)
        http_ms = [ms for ms, _ in rejects]
        server_ms = [float(data["meta"]["latencyMs"]) for _, data in rejects]
        return {"healthy_s": healthy_s, "rss_mb": mem["VmRSS"], "peak_rss_mb": mem["VmHWM"],
                "warm_request_p50_ms": statistics.median(lat),
                "reject_http_p50_ms": _pct(http_ms, 50), "reject_http_p95_ms": _pct(http_ms, 95),
                "reject_server_p95_ms": _pct(server_ms, 95)}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--port", type=int, default=18770)
    ap.add_argument("--out", type=Path, default=Path("reports/startup.json"))
    args = ap.parse_args()
    exe = str(Path(sys.executable).with_name("notillm-local"))
    runs = [one_run(args.port, exe) for _ in range(args.runs)]
    summary = {
        "runs": runs,
        "healthy_s_median": statistics.median(r["healthy_s"] for r in runs),
        "rss_mb_median": statistics.median(r["rss_mb"] for r in runs),
        "peak_rss_mb_max": max(r["peak_rss_mb"] for r in runs),
        "reject_http_p95_ms_median": statistics.median(r["reject_http_p95_ms"] for r in runs),
        "cpu_count": os.cpu_count(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
