"""What the evaluation's parts share: tag keys, the original system's figures, percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

TAG_KEYS = ("intent", "time", "target")
KINDS = ("reject", "extract", "pending")
# The original system's published figures (85 cases), kept as reference rows in bench tables.
REFERENCE_ROWS: list[dict[str, Any]] = [
    {
        "engine": "V1 (original, all GPT-4o)",
        "reference": True,
        "accuracy": 0.894,
        "latency_mean_ms": 4100.0,
        "latency_p50_ms": None,
        "latency_p95_ms": 7400.0,
        "cost_per_request_usd": 0.010,
        "hosted_call_rate": 1.0,
    },
    {
        "engine": "V3 (original, gate + GPT-4o)",
        "reference": True,
        "accuracy": 0.902,
        "latency_mean_ms": 3300.0,
        "latency_p50_ms": None,
        "latency_p95_ms": 7000.0,
        "cost_per_request_usd": None,
        "hosted_call_rate": 0.79,
    },
]


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default), q in [0, 100]."""
    if not values:
        return None
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def latency_summary(values_ms: Sequence[float]) -> dict[str, float | None]:
    return {
        "mean_ms": (sum(values_ms) / len(values_ms)) if values_ms else None,
        "p50_ms": percentile(values_ms, 50),
        "p95_ms": percentile(values_ms, 95),
        "p99_ms": percentile(values_ms, 99),
        "max_ms": max(values_ms) if values_ms else None,
    }
