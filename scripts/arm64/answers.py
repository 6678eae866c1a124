"""Answer every case of one or more JSONL datasets with the in-process local service and write
the answers, one JSON line per case, so that two machines can be compared case by case.

    python scripts/arm64/answers.py --out DIR examples=FILE examples@model=FILE dev60=FILE

Writes, for each NAME=FILE, DIR/NAME.answers.jsonl: {"id", "answer"} with the contract answer
exactly as the service returns it, less `meta.latencyMs` (the only field that depends on the
clock), keys sorted. DIR/timings.json holds the timings (service build, warm-up request,
per-request latencies) and DIR/environment.json the machine and the versions of the wheels
that were loaded. Used by run_in_root.sh (inside the arm64 root) and compare.py (natively).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("llama-cpp-python", "onnxruntime", "tokenizers", "numpy", "scikit-learn",
            "pydantic", "torch", "transformers", "optimum", "onnx")


def wheel_tags(dist: str) -> str | None:
    """The wheel tag pip installed for `dist` (from its dist-info WHEEL file)."""
    try:
        text = metadata.distribution(dist).read_text("WHEEL") or ""
    except metadata.PackageNotFoundError:
        return None
    tags = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:")]
    return ", ".join(tags) or None


def environment() -> dict[str, Any]:
    env: dict[str, Any] = {
        "machine": platform.machine(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "usable_cores": len(os.sched_getaffinity(0)),
        "packages": {},
    }
    for dist in PACKAGES:
        try:
            env["packages"][dist] = {"version": metadata.version(dist), "wheel": wheel_tags(dist)}
        except metadata.PackageNotFoundError:
            env["packages"][dist] = None
    try:
        import llama_cpp

        info = llama_cpp.llama_print_system_info()
        env["llama_cpp_system_info"] = info.decode() if isinstance(info, bytes) else str(info)
    except Exception as exc:  # a record, never a reason to stop
        env["llama_cpp_system_info"] = f"unavailable: {type(exc).__name__}: {exc}"
    try:
        import onnxruntime

        env["onnxruntime_providers"] = onnxruntime.get_available_providers()
    except Exception as exc:
        env["onnxruntime_providers"] = f"unavailable: {type(exc).__name__}: {exc}"
    return env


def load_cases(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def strip_latency(answer: dict[str, Any]) -> dict[str, Any]:
    meta = answer.get("meta")
    if isinstance(meta, dict):
        meta.pop("latencyMs", None)
    return answer


def summary_ms(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"n": 0, "median": None, "p90": None, "max": None, "mean": None}
    ordered = sorted(values)
    return {
        "n": len(values),
        "median": round(statistics.median(ordered), 1),
        "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1),
        "max": round(ordered[-1], 1),
        "mean": round(statistics.fmean(ordered), 1),
    }


def run_datasets(service: Any, handle_request: Any, datasets: list[tuple[str, Path]],
                 out: Path, timings: dict[str, Any], mode_key: str) -> None:
    for name, path in datasets:
        cases = load_cases(path)
        lat_model: list[float] = []
        lat_code: list[float] = []
        per_case: dict[str, float] = {}
        with (out / f"{name}.answers.jsonl").open("w", encoding="utf-8") as fh:
            for i, case in enumerate(cases, start=1):
                req = handle_request.model_validate(case["input"])
                t0 = time.perf_counter()
                try:
                    answer = service.handle(req).model_dump(mode="json")
                except Exception as exc:  # recorded and compared like an answer
                    answer = {"exception": type(exc).__name__}
                ms = (time.perf_counter() - t0) * 1000
                per_case[case["id"]] = round(ms, 1)
                llm_calls = (answer.get("meta") or {}).get("llmCalls") or 0
                if llm_calls and f"first_model_request_ms{mode_key}" not in timings:
                    # may wait for the few-shot prefix still being evaluated in the background
                    timings[f"first_model_request_ms{mode_key}"] = round(ms, 1)
                    timings[f"first_model_request_id{mode_key}"] = case["id"]
                elif llm_calls:
                    lat_model.append(ms)
                else:
                    lat_code.append(ms)
                line = {"id": case["id"], "answer": strip_latency(answer)}
                fh.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
                print(f"[{name} {i}/{len(cases)}] {case['id']}: {ms:.0f} ms"
                      f"{f' (model x{llm_calls})' if llm_calls else ''}", file=sys.stderr, flush=True)
        timings[name] = {
            "cases": len(cases),
            # the first model-decided request is left out (see first_model_request_ms)
            "all_ms": summary_ms(lat_model + lat_code),
            "model_decided_ms": summary_ms(lat_model),
            "code_only_ms": summary_ms(lat_code),
            "per_case_ms": per_case,
        }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("datasets", nargs="+",
                    help="NAME=FILE (JSONL cases in the contract's format); a NAME ending in "
                         "@model is answered with extractor_mode=model (the model decides "
                         "every slot), so llama.cpp's decoding is compared too")
    args = ap.parse_args(argv)
    by_mode: dict[str, list[tuple[str, Path]]] = {}
    for item in args.datasets:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            ap.error(f"expected NAME=FILE, got {item!r}")
        by_mode.setdefault("model" if name.endswith("@model") else "", []).append((name, Path(file)))
    args.out.mkdir(parents=True, exist_ok=True)

    from notillm_local.contract.schemas import HandleRequest
    from notillm_local.service import build_service
    from notillm_local.settings import Settings

    timings: dict[str, Any] = {}
    for mode, datasets in by_mode.items():
        key = f"@{mode}" if mode else ""
        t0 = time.perf_counter()
        # Emulation is 10-40x slower than the hardware: a deadline only turns slow answers
        # into errors, so it is lifted to its maximum unless NOTILLM_REQUEST_DEADLINE_S is set.
        extra: dict[str, Any] = {}
        if "NOTILLM_REQUEST_DEADLINE_S" not in os.environ:
            extra["request_deadline_s"] = 300.0
        if mode:
            extra["extractor_mode"] = mode
        settings = Settings(**extra)
        service = build_service(settings)
        timings[f"build_service_s{key}"] = round(time.perf_counter() - t0, 2)
        timings["n_threads"] = settings.n_threads
        print(f"service{key} built in {timings[f'build_service_s{key}']} s "
              f"(n_threads={settings.n_threads}, extractor_mode={settings.extractor_mode})",
              file=sys.stderr, flush=True)
        try:
            service.wait_warm()  # background start-up work would be timed as the first cases
            t0 = time.perf_counter()
            service.handle(HandleRequest(prompt="30분 동안 카톡 알림 꺼줘",
                                         currentTime=datetime.now().astimezone()))
            timings[f"warmup_request_s{key}"] = round(time.perf_counter() - t0, 2)
            run_datasets(service, HandleRequest, datasets, args.out, timings, key)
        finally:
            service.close()
    (args.out / "timings.json").write_text(json.dumps(timings, indent=2) + "\n", encoding="utf-8")
    (args.out / "environment.json").write_text(
        json.dumps(environment(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
