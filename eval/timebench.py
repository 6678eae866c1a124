"""Per-sentence parse-time benchmark for notillm_local.stages.timeparse (used by scripts/bench_time.py)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from notillm_local.stages.timeparse import parse_time


def _percentile(sorted_values: Sequence[float], pct: float) -> float:
    # Nearest-rank: P99 of 300 samples is a real sample, never an interpolation.
    rank = max(1, -(-len(sorted_values) * pct // 100))
    return sorted_values[int(rank) - 1]


def bench_time(sentences: Sequence[tuple[str, datetime]], repeat: int = 20) -> dict[str, Any]:
    """Time parse_time on every (text, now) pair ``repeat`` times; microsecond statistics.

    Each sample is one call; the first pass warms the regex caches and is not counted.
    """
    if not sentences:
        raise ValueError("no sentences to time")
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    for text, now in sentences:
        parse_time(text, now)
    samples: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repeat):
        for text, now in sentences:
            start = clock()
            parse_time(text, now)
            samples.append((clock() - start) / 1000.0)
    samples.sort()
    return {
        "sentences": len(sentences),
        "repeat": repeat,
        "samples": len(samples),
        "mean_us": round(statistics.fmean(samples), 1),
        "p50_us": round(_percentile(samples, 50), 1),
        "p90_us": round(_percentile(samples, 90), 1),
        "p99_us": round(_percentile(samples, 99), 1),
        "max_us": round(samples[-1], 1),
        "goal_p99_us": 1000.0,
        "meets_goal": _percentile(samples, 99) < 1000.0,
    }
