"""The evaluation and bench reports as Markdown (report.md, bench.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _f(v: Any, fmt: str = "{:.3f}") -> str:
    return "–" if v is None else fmt.format(v)


def _ms(v: Any) -> str:
    if v is None:
        return "–"
    # Rule-only answers take well under a millisecond; keep them distinguishable from zero.
    return f"{v:.2f} ms" if v < 10 else f"{v:,.0f} ms"


def _pct(v: Any) -> str:
    return "–" if v is None else f"{v * 100:.1f}%"


def _usd(v: Any) -> str:
    return "–" if v is None else f"${v:.5f}"


def render_eval_md(rep: dict[str, Any]) -> str:
    acc, lat, calls = rep["accuracy"], rep["latency"], rep["model_calls"]
    lines = [
        f"# Evaluation: engine `{rep['engine']}`",
        "",
        f"Dataset `{rep['dataset']}` · {rep['runs']} cases · offline={rep['offline']} · "
        f"errors {rep['errors']}",
        "",
        "| metric | value |",
        "|---|---|",
        f"| extract_rule_correctness | {_f(acc['rule'])} |",
        f"| route_correctness | {_f(acc['route'])} |",
        f"| latency mean / P50 / P95 / P99 | {_ms(lat['mean_ms'])} / {_ms(lat['p50_ms'])} / "
        f"{_ms(lat['p95_ms'])} / {_ms(lat['p99_ms'])} |",
        f"| cost total / per request | {_usd(rep['cost']['total_usd'])} / "
        f"{_usd(rep['cost']['per_request_usd'])} |",
        f"| model calls (llmCalls) total / per request | {calls['llm_calls']} / "
        f"{_f(calls['llm_calls_per_request'], '{:.2f}')} |",
        f"| hosted calls / hosted call rate | {calls['hosted_calls']} / "
        f"{_pct(calls['hosted_call_rate'])} |",
        f"| fallback rate | {_pct(calls['fallback_rate'])} |",
        f"| RSS after warm-up / peak | {_f(rep['memory']['after_warmup']['rss_mb'], '{:.0f}')} MB"
        f" / {_f(rep['memory']['at_end']['peak_rss_mb'], '{:.0f}')} MB |",
        f"| build / warm-up | {_f(rep['timing']['build_s'], '{:.1f}')} s / "
        f"{_ms(rep['timing']['warmup_ms'])} |",
        "",
        "## By request kind",
        "",
        "| kind | n | rule | route | mean | P50 | P95 |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, k in rep["per_kind"].items():
        lines.append(
            f"| {kind} | {k['n']} | {_f(k['rule'])} | {_f(k['route'])} | "
            f"{_ms(k['mean_ms'])} | {_ms(k['p50_ms'])} | {_ms(k['p95_ms'])} |"
        )
    lines += [
        "",
        "## Accuracy per tag value",
        "",
        "| tag | value | n | rule | route |",
        "|---|---|---|---|---|",
    ]
    for key, values in rep["per_tag"].items():
        for value, a in values.items():
            lines.append(f"| {key} | {value} | {a['n']} | {_f(a['rule'])} | {_f(a['route'])} |")
    lines += [
        "",
        "## Accuracy per pending action",
        "",
        "| action | n | rule | route |",
        "|---|---|---|---|",
    ]
    for action, a in rep["per_pending_action"].items():
        lines.append(f"| {action} | {a['n']} | {_f(a['rule'])} | {_f(a['route'])} |")
    lines += [
        "",
        "## Code and model (who decided, and how the two related)",
        "",
        "code: no model call; filled: the model decided only what code could not; agree: both "
        "read a slot alike; code-kept: they disagreed and code's reading stood; asked: a word "
        "nobody could place (app_unresolved); ignored: the model left out a word that stands "
        "where no target does; model: model mode.",
        "",
        "| case | n | rule | route |",
        "|---|---|---|---|",
    ]
    for name, a in rep.get("agreement", {}).items():
        lines.append(f"| {name} | {a['n']} | {_f(a['rule'])} | {_f(a['route'])} |")
    lines += [
        "",
        "## Coverage (cases per tag value)",
        "",
        "| tag | value | cases |",
        "|---|---|---|",
    ]
    for key, values in rep["coverage"].items():
        for value, n in values.items():
            lines.append(f"| {key} | {value} | {n} |")
    lines += ["", f"## Failed cases ({len(rep['failures'])})", ""]
    for fail in rep["failures"]:
        orig = f" (pending on “{fail['pendingOriginal']}”)" if fail.get("pendingOriginal") else ""
        lines.append(f"- **{fail['id']}** [{fail['kind']}] “{fail['prompt']}”{orig}")
        for d in fail["diffs"]:
            lines.append(
                f"  - `{d['field']}`: expected `{_j(d['expected'])}`, got `{_j(d['got'])}`"
            )
    if rep.get("plots"):
        lines += ["", "## Plots", ""] + [f"![{Path(p).stem}]({Path(p).name})" for p in rep["plots"]]
    return "\n".join(lines) + "\n"


def _j(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False).replace("|", "\\|")


def render_bench_md(bench: dict[str, Any]) -> str:
    lines = [
        "# Latency comparison (bench)",
        "",
        f"Dataset `{bench['dataset']}`. Reference rows are the original system's published "
        "figures on its own 85 cases, not runs on this dataset; ratios are against V1.",
        "",
        "| engine | accuracy | route | mean | P50 | P95 | cost/request | hosted call rate | "
        "acc vs V1 | mean vs V1 | P95 vs V1 | cost vs V1 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in bench["rows"] + bench["reference_rows"]:
        name = f"*{row['engine']}*" if row.get("reference") else f"**{row['engine']}**"
        lines.append(
            f"| {name} | {_f(row['accuracy'])} | {_f(row.get('route_accuracy'))} | "
            f"{_ms(row['latency_mean_ms'])} | {_ms(row['latency_p50_ms'])} | "
            f"{_ms(row['latency_p95_ms'])} | {_usd(row['cost_per_request_usd'])} | "
            f"{_pct(row['hosted_call_rate'])} | {_f(row['accuracy_vs_v1'], '{:.2f}×')} | "
            f"{_f(row['latency_mean_vs_v1'], '{:.2f}×')} | {_f(row['latency_p95_vs_v1'], '{:.2f}×')} | "
            f"{_f(row['cost_vs_v1'], '{:.2f}×')} |"
        )
    if bench["skipped"]:
        lines += ["", "## Skipped engines", ""]
        lines += [f"- **{e}**: {why}" for e, why in bench["skipped"].items()]
    if bench["per_kind"]:
        lines += [
            "",
            "## Latency by request kind",
            "",
            "| engine | kind | n | P50 | P95 |",
            "|---|---|---|---|---|",
        ]
        for engine, kinds in bench["per_kind"].items():
            for kind, k in kinds.items():
                lines.append(
                    f"| {engine} | {kind} | {k['n']} | {_ms(k['p50_ms'])} | {_ms(k['p95_ms'])} |"
                )
    if bench["memory"]:
        lines += [
            "",
            "## Process memory",
            "",
            "| engine | RSS after warm-up | peak RSS |",
            "|---|---|---|",
        ]
        for engine, mem in bench["memory"].items():
            lines.append(
                f"| {engine} | {_f(mem['after_warmup']['rss_mb'], '{:.0f}')} MB | "
                f"{_f(mem['at_end']['peak_rss_mb'], '{:.0f}')} MB |"
            )
        lines.append("")
        lines.append("Engines run one after another in one process, so peak RSS accumulates.")
    if bench.get("plots"):
        lines += ["", "## Plots", ""] + [
            f"![{Path(p).stem}]({Path(p).name})" for p in bench["plots"]
        ]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- plots


