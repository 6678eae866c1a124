"""The evaluation and bench plots (PNG), on a log latency axis; matplotlib, [eval] extra."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notillm_local.eval.common import REFERENCE_ROWS, TAG_KEYS, percentile


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # no display on a server; must precede pyplot
    import matplotlib.pyplot as plt

    return plt


def _log_bins(values: Sequence[float], n: int) -> list[float]:
    """n bin edges spaced evenly on a log axis over the positive values."""
    positive = [v for v in values if v > 0] or [1.0]
    lo, hi = min(positive), max(positive)
    if hi <= lo:
        lo, hi = lo / 1.5, hi * 1.5
    ratio = (hi / lo) ** (1 / n)
    return [lo * ratio**i for i in range(n)] + [hi]  # the last edge exact: keep the maximum


def _cdf(ax: Any, values: Sequence[float], label: str) -> None:
    xs = sorted(values)
    ys = [(i + 1) / len(xs) for i in range(len(xs))]
    ax.step(xs, ys, where="post", label=label)


def _plot_eval(rep: dict[str, Any], latencies: list[float], out_dir: Path) -> list[str]:
    plt = _pyplot()
    engine = rep["engine"]
    paths: list[str] = []
    if latencies:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        # Log axes: one slow outlier (a cold start, an 11 s hosted call) would otherwise squeeze
        # every other case into the first bar.
        ax1.hist(latencies, bins=_log_bins(latencies, min(40, max(5, len(latencies) // 5))))
        ax1.set(title=f"Latency histogram ({engine})", xlabel="ms (log)", ylabel="cases",
                xscale="log")
        _cdf(ax2, latencies, engine)
        for q, style in ((50, ":"), (95, "--")):
            v = percentile(latencies, q)
            if v is not None:
                ax2.axvline(v, linestyle=style, color="grey", label=f"P{q} {v:,.0f} ms")
        ax2.set(title=f"Latency CDF ({engine})", xlabel="ms (log)", ylabel="fraction ≤ x",
                xscale="log")
        ax2.legend()
        fig.tight_layout()
        path = out_dir / f"latency_{engine}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(str(path))
    labels, values = [], []
    for key in TAG_KEYS:
        for value, a in rep["per_tag"].get(key, {}).items():
            labels.append(f"{key}:{value} (n={a['n']})")
            values.append(a["rule"] or 0.0)
    for action, a in rep["per_pending_action"].items():
        labels.append(f"pending:{action} (n={a['n']})")
        values.append(a["rule"] or 0.0)
    if labels:
        fig, ax = plt.subplots(figsize=(8, 0.32 * len(labels) + 1.2))
        ax.barh(labels[::-1], values[::-1])
        ax.set(
            xlim=(0, 1),
            xlabel="extract_rule_correctness",
            title=f"Accuracy per tag value ({engine})",
        )
        fig.tight_layout()
        path = out_dir / f"accuracy_by_tag_{engine}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(str(path))
    return paths


def _plot_bench(
    reports: dict[str, dict[str, Any]], latencies: dict[str, list[float]], out_dir: Path
) -> list[str]:
    if not reports:
        return []
    plt = _pyplot()
    paths: list[str] = []
    fig, ax = plt.subplots(figsize=(7, 4))
    for engine, lat in latencies.items():
        if lat:
            _cdf(ax, lat, engine)
    for ref in REFERENCE_ROWS:
        ax.axvline(ref["latency_p95_ms"], linestyle="--", color="grey", alpha=0.6)
    ax.set(
        xscale="log",
        xlabel="ms (log)",
        ylabel="fraction ≤ x",
        title="Latency CDF per engine (dashed: original V1/V3 P95)",
    )
    ax.legend()
    fig.tight_layout()
    path = out_dir / "bench_latency_cdf.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    paths.append(str(path))

    names = list(reports) + [r["engine"] for r in REFERENCE_ROWS]
    accs = [rep["accuracy"]["rule"] or 0.0 for rep in reports.values()]
    accs += [r["accuracy"] for r in REFERENCE_ROWS]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.2))
    ax.barh(names[::-1], accs[::-1])
    ax.set(xlim=(0, 1), xlabel="extract_rule_correctness", title="Accuracy per engine")
    fig.tight_layout()
    path = out_dir / "bench_accuracy.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    paths.append(str(path))
    return paths
