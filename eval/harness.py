"""The evaluation harness behind `notillm-local eval` and `notillm-local bench`.

`run_eval` runs one engine over a JSON Lines dataset (CONTRACT.md's evaluation format) through
the same in-process service the HTTP app uses, scores each answer with `scoring`, and writes
report.json, report.md and PNG plots. `run_bench` runs several engines over one dataset and
puts them side by side with the original system's published figures. See docs/eval.md.
"""

from __future__ import annotations

import json
import logging
import platform
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from notillm_local.contract.schemas import HandleRequest, HandleResponse
from notillm_local.eval.common import (
    KINDS,
    REFERENCE_ROWS,
    TAG_KEYS,
    latency_summary,
)
from notillm_local.eval.plots import _plot_bench, _plot_eval
from notillm_local.eval.report import render_bench_md, render_eval_md
from notillm_local.eval.scoring import FieldDiff, extract_rule_correctness, route_correctness
from notillm_local.settings import EngineMode, Settings

logger = logging.getLogger(__name__)

V1 = REFERENCE_ROWS[0]
WARMUP_PROMPT = "30분 동안 카톡 알림 꺼줘"


class Service(Protocol):
    def handle(self, req: HandleRequest) -> HandleResponse: ...

    def wait_warm(self, timeout_s: float = 60.0) -> bool: ...

    def close(self) -> None: ...


ServiceFactory = Callable[[Settings], Service]


@dataclass
class Case:
    id: str
    input: dict[str, Any]
    expected: dict[str, Any]
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """reject (chitchat), pending (a follow-up turn) or extract (everything else)."""
        if self.input.get("pending") is True:
            return "pending"
        if (
            self.expected.get("failReason") == "chitchat"
            or self.expected.get("dialogIntent") == "reject"
        ):
            return "reject"
        return "extract"


class DatasetError(ValueError):
    """A dataset line is not a case in CONTRACT.md's evaluation format."""


def load_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    seen: set[str] = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{lineno}: not JSON: {exc}") from exc
        if (
            not isinstance(raw, dict)
            or not isinstance(raw.get("input"), dict)
            or not isinstance(raw.get("expected"), dict)
        ):
            raise DatasetError(f"{path}:{lineno}: a case needs 'input' and 'expected' objects")
        case_id = str(raw.get("id") or f"line-{lineno}")
        if case_id in seen:
            raise DatasetError(f"{path}:{lineno}: duplicate id {case_id!r}")
        seen.add(case_id)
        tags = {str(k): str(v) for k, v in (raw.get("tags") or {}).items() if v is not None}
        cases.append(Case(case_id, raw["input"], raw["expected"], tags))
    return cases


def process_rss_mb() -> dict[str, float | None]:
    """This process's resident memory (now and peak) from /proc; None off Linux."""
    out: dict[str, float | None] = {"rss_mb": None, "peak_rss_mb": None}
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            kb = float(rest.split()[0])
            out["rss_mb" if key == "VmRSS" else "peak_rss_mb"] = round(kb / 1024, 1)
    return out


# --------------------------------------------------------------------------- running


def engine_settings(settings: Settings, engine: str, offline: bool) -> Settings:
    """The settings for one engine run; re-validated so that contradictions fail early."""
    mode = EngineMode(engine)
    if mode is EngineMode.LOCAL:
        offline = True  # the local engine is offline by definition
    elif offline:
        raise ValueError(f"engine {engine} needs the hosted API and cannot run with --offline")
    data = settings.model_dump()
    data.update(engine=mode, offline=offline)
    return Settings.model_validate(data)


def missing_requirements(settings: Settings, engine: str) -> str | None:
    """Why this engine cannot run with these settings, or None when it can."""
    if EngineMode(engine) is not EngineMode.LOCAL and not settings.hosted_base_url:
        return "no hosted base URL (set NOTILLM_HOSTED_BASE_URL / hosted_base_url)"
    return None


def _default_factory(settings: Settings) -> Service:
    from notillm_local.service import build_service  # the pipeline is heavy; import it only to run

    return build_service(settings)


def _compact_answer(answer: HandleResponse) -> dict[str, Any]:
    data = answer.model_dump(mode="json")
    keep = (
        "ok",
        "dialogIntent",
        "pendingAction",
        "needsSupplement",
        "failReason",
        "targetFixed",
        "condition",
    )
    out = {k: data.get(k) for k in keep}
    meta = data.get("meta") or {}
    out["meta"] = {
        k: meta.get(k)
        for k in ("engine", "llmCalls", "hostedCalls", "fallbackUsed", "costUsd", "reason")
    }
    return out


def _run_case(service: Service, case: Case) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": case.id,
        "kind": case.kind,
        "tags": case.tags,
        "prompt": case.input.get("prompt"),
        "pendingOriginal": case.input.get("pendingOriginal"),
        "expected_pendingAction": case.expected.get("pendingAction"),
    }
    try:
        # The trace says who decided each slot (code, model, both), for the agreement table.
        req = HandleRequest.model_validate({**case.input, "trace": True})
    except Exception as exc:  # a bad case is the dataset's fault, report it, never crash
        record.update(
            rule=0,
            route=0,
            latency_ms=None,
            error=f"invalid input: {exc}",
            diffs=[FieldDiff("input", "valid HandleRequest", str(exc)).to_dict()],
        )
        return record
    t0 = time.perf_counter()
    try:
        answer = service.handle(req)
    except Exception as exc:  # the service must answer; an exception is a failed case
        latency = (time.perf_counter() - t0) * 1000
        logger.warning("case %s raised %s", case.id, type(exc).__name__)
        record.update(
            rule=0,
            route=0,
            latency_ms=latency,
            error=f"{type(exc).__name__}: {exc}",
            diffs=[FieldDiff("exception", None, f"{type(exc).__name__}: {exc}").to_dict()],
        )
        return record
    latency = (time.perf_counter() - t0) * 1000
    rule, rule_diffs = extract_rule_correctness(case.expected, answer)
    route, route_diffs = route_correctness(case.expected, answer, case.input)
    meta = answer.meta
    seen = {d.field for d in rule_diffs}
    record.update(
        rule=rule,
        route=route,
        latency_ms=latency,
        engine=meta.engine,
        llm_calls=meta.llmCalls,
        hosted_calls=meta.hostedCalls,
        fallback_used=meta.fallbackUsed,
        cost_usd=meta.costUsd,
        service_latency_ms=meta.latencyMs,
        agreement=_agreement(answer),
        diffs=[d.to_dict() for d in rule_diffs]
        + [d.to_dict() for d in route_diffs if d.field not in seen],
        got=_compact_answer(answer),
    )
    return record


def _agreement(answer: HandleResponse) -> str:
    """How code and model related on this request: "code" when no model was asked."""
    trace = answer.meta.trace
    notes = [s.note for s in (trace.slots if trace else []) if s.decidedBy == "model" and s.note]
    return notes[0] if notes else ("hosted" if answer.meta.hostedCalls else "code")


def _accuracy(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    recs = list(records)
    n = len(recs)
    return {
        "n": n,
        "rule": (sum(r["rule"] for r in recs) / n) if n else None,
        "route": (sum(r["route"] for r in recs) / n) if n else None,
    }


def summarise(records: list[dict[str, Any]], engine: str) -> dict[str, Any]:
    """Every number of the report from the per-case records."""
    n = len(records)
    lat = [r["latency_ms"] for r in records if r.get("latency_ms") is not None]
    answered = [r for r in records if "error" not in r]
    cost_total = sum(r.get("cost_usd") or 0.0 for r in answered)
    hosted_cases = sum(1 for r in answered if (r.get("hosted_calls") or 0) > 0)
    per_tag: dict[str, dict[str, Any]] = {}
    coverage: dict[str, dict[str, int]] = {}
    tag_keys = list(TAG_KEYS) + sorted({k for r in records for k in r["tags"]} - set(TAG_KEYS))
    for key in tag_keys:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in records:
            if key in r["tags"]:
                groups[r["tags"][key]].append(r)
        per_tag[key] = {v: _accuracy(g) for v, g in sorted(groups.items())}
        coverage[key] = {v: len(g) for v, g in sorted(groups.items())}
    per_action: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if r.get("expected_pendingAction"):
            per_action[r["expected_pendingAction"]].append(r)
    per_kind = {}
    for kind in KINDS:
        group = [r for r in records if r["kind"] == kind]
        if group:
            k_lat = [r["latency_ms"] for r in group if r.get("latency_ms") is not None]
            per_kind[kind] = {**_accuracy(group), **latency_summary(k_lat)}
    failures = [
        {
            "id": r["id"],
            "kind": r["kind"],
            "prompt": r["prompt"],
            "pendingOriginal": r.get("pendingOriginal"),
            "tags": r["tags"],
            "error": r.get("error"),
            "diffs": r["diffs"],
            "got": r.get("got"),
        }
        for r in records
        if r["rule"] == 0 or r["route"] == 0
    ]
    engines_answered = Counter(r.get("engine") for r in answered)
    return {
        "engine": engine,
        "runs": n,
        "errors": sum(1 for r in records if "error" in r),
        "accuracy": _accuracy(records),
        "cost": {"total_usd": cost_total, "per_request_usd": (cost_total / n) if n else 0.0},
        "latency": latency_summary(lat),
        "model_calls": {
            "llm_calls": sum(r.get("llm_calls") or 0 for r in answered),
            "llm_calls_per_request": (sum(r.get("llm_calls") or 0 for r in answered) / n)
            if n
            else 0.0,
            "hosted_calls": sum(r.get("hosted_calls") or 0 for r in answered),
            "hosted_call_rate": (hosted_cases / n) if n else 0.0,
            "fallback_rate": (sum(1 for r in answered if r.get("fallback_used")) / n) if n else 0.0,
            "answered_by": dict(engines_answered),
        },
        "per_tag": per_tag,
        "per_pending_action": {a: _accuracy(g) for a, g in sorted(per_action.items())},
        "agreement": {
            a: _accuracy(r for r in answered if r.get("agreement") == a)
            for a in sorted({str(r["agreement"]) for r in answered if r.get("agreement")})
        },
        "per_kind": per_kind,
        "coverage": coverage,
        "failures": failures,
    }


def run_eval(
    dataset: Path,
    engine: str,
    settings: Settings,
    out_dir: Path,
    offline: bool,
    progress: bool = True,
    *,
    service_factory: ServiceFactory | None = None,
    write: bool = True,
) -> dict[str, Any]:
    """Run `engine` over every case of `dataset`; write the report into `out_dir`; return it.

    `service_factory` builds the service from the engine's settings (default: the real
    `service.build_service`); tests pass a fake. Raises ValueError for an engine that cannot
    run with these settings (hosted with --offline, or no hosted base URL).
    """
    from tqdm import tqdm

    cases = load_cases(Path(dataset))
    run_settings = engine_settings(settings, engine, offline)
    missing = missing_requirements(run_settings, engine)
    if missing:
        raise ValueError(f"engine {engine} cannot run: {missing}")
    factory = service_factory or _default_factory
    t_build = time.perf_counter()
    service = factory(run_settings)
    build_s = time.perf_counter() - t_build
    records: list[dict[str, Any]] = []
    warmup_ms: float | None = None
    try:
        # Background start-up work (prefix, grammar vocabulary) would be timed as the first cases.
        service.wait_warm()
        if EngineMode(engine) is not EngineMode.HOSTED:
            # The first model call pays one-off costs (allocations, prompt-prefix cache); a
            # hosted warm-up would cost money and measure nothing local.
            t0 = time.perf_counter()
            try:
                service.handle(
                    HandleRequest(prompt=WARMUP_PROMPT, currentTime=datetime.now().astimezone())
                )
            except Exception as exc:
                logger.warning("warm-up request failed: %s", type(exc).__name__)
            warmup_ms = (time.perf_counter() - t0) * 1000
        memory_after_warmup = process_rss_mb()
        t_run = time.perf_counter()
        for case in tqdm(
            cases, desc=f"eval {engine}", unit="case", disable=not progress, file=sys.stderr
        ):
            records.append(_run_case(service, case))
        run_s = time.perf_counter() - t_run
    finally:
        service.close()
    report = summarise(records, engine)
    report.update(
        dataset=str(dataset),
        offline=run_settings.offline,
        started_at=datetime.now(UTC).isoformat(timespec="seconds"),
        environment={
            "python": platform.python_version(),
            "machine": platform.machine(),
            "n_threads": run_settings.n_threads,
            "extractor_mode": run_settings.extractor_mode.value,
            "hosted_model": run_settings.hosted_model if engine != "local" else None,
        },
        timing={"build_s": build_s, "warmup_ms": warmup_ms, "run_s": run_s},
        memory={"after_warmup": memory_after_warmup, "at_end": process_rss_mb()},
        cases=[
            {
                k: r.get(k)
                for k in (
                    "id",
                    "kind",
                    "rule",
                    "route",
                    "latency_ms",
                    "engine",
                    "llm_calls",
                    "hosted_calls",
                    "cost_usd",
                )
            }
            for r in records
        ],
    )
    if write:
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        report["plots"] = _plot_eval(
            report, [r["latency_ms"] for r in records if r.get("latency_ms") is not None], out_dir
        )
        (out_dir / "report.json").write_text(
            json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8"
        )
        (out_dir / "report.md").write_text(render_eval_md(report), encoding="utf-8")
        logger.info("wrote %s", out_dir / "report.md")
    return report


# --------------------------------------------------------------------------- bench


def run_bench(
    dataset: Path,
    engines: list[str],
    settings: Settings,
    out_dir: Path,
    *,
    service_factory: ServiceFactory | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run each engine (local offline; hybrid/hosted online) and compare them in one table.

    An engine whose requirements are missing, or whose service cannot be built, is reported
    as skipped with the reason. Each engine's full report goes to out_dir/<engine>/.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    reports: dict[str, dict[str, Any]] = {}
    latencies: dict[str, list[float]] = {}
    skipped: dict[str, str] = {}
    for engine in engines:
        try:
            EngineMode(engine)
        except ValueError:
            skipped[engine] = f"unknown engine (use {', '.join(m.value for m in EngineMode)})"
            continue
        offline = engine == EngineMode.LOCAL.value
        try:
            candidate = engine_settings(settings, engine, offline)
        except ValueError as exc:
            skipped[engine] = str(exc)
            continue
        missing = missing_requirements(candidate, engine)
        if missing:
            skipped[engine] = missing
            continue
        try:
            rep = run_eval(
                dataset,
                engine,
                settings,
                out_dir / engine,
                offline,
                progress,
                service_factory=service_factory,
            )
        except Exception as exc:  # one engine failing to start must not lose the others
            logger.warning("engine %s skipped: %s", engine, exc)
            skipped[engine] = f"{type(exc).__name__}: {exc}"
            continue
        reports[engine] = rep
        latencies[engine] = [c["latency_ms"] for c in rep["cases"] if c["latency_ms"] is not None]

    rows = [bench_row(engine, rep) for engine, rep in reports.items()]
    bench = {
        "dataset": str(dataset),
        "rows": rows,
        "reference_rows": [dict(r, **_ratios(r)) for r in REFERENCE_ROWS],
        "skipped": skipped,
        "per_kind": {e: rep["per_kind"] for e, rep in reports.items()},
        "memory": {e: rep["memory"] for e, rep in reports.items()},
    }
    bench["plots"] = _plot_bench(reports, latencies, out_dir)
    (out_dir / "bench.json").write_text(
        json.dumps(bench, ensure_ascii=False, indent=2), encoding="utf-8"
    )
    (out_dir / "bench.md").write_text(render_bench_md(bench), encoding="utf-8")
    return bench


def _ratio(a: float | None, b: float | None) -> float | None:
    return (a / b) if a is not None and b else None


def _ratios(row: dict[str, Any]) -> dict[str, float | None]:
    return {
        "accuracy_vs_v1": _ratio(row["accuracy"], V1["accuracy"]),
        "latency_mean_vs_v1": _ratio(row["latency_mean_ms"], V1["latency_mean_ms"]),
        "latency_p95_vs_v1": _ratio(row["latency_p95_ms"], V1["latency_p95_ms"]),
        "cost_vs_v1": _ratio(row["cost_per_request_usd"], V1["cost_per_request_usd"]),
    }


def bench_row(engine: str, rep: dict[str, Any]) -> dict[str, Any]:
    row = {
        "engine": engine,
        "reference": False,
        "runs": rep["runs"],
        "accuracy": rep["accuracy"]["rule"],
        "route_accuracy": rep["accuracy"]["route"],
        "latency_mean_ms": rep["latency"]["mean_ms"],
        "latency_p50_ms": rep["latency"]["p50_ms"],
        "latency_p95_ms": rep["latency"]["p95_ms"],
        "cost_per_request_usd": rep["cost"]["per_request_usd"],
        "hosted_call_rate": rep["model_calls"]["hosted_call_rate"],
        "rss_mb_after_warmup": rep["memory"]["after_warmup"]["rss_mb"],
    }
    row.update(_ratios(row))
    return row


# --------------------------------------------------------------------------- rendering
