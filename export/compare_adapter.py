"""Base vs base + adapter on one dataset, by default in extractor_mode=model (the model answers
every slot; --mode auto compares the service's default mode).

    NOTILLM_EMBEDDINGS_ENABLED=false python export/compare_adapter.py \
        --dataset eval/data/dev.jsonl --adapter models/adapters/notillm-gemma3-270m-lora.gguf \
        --out /tmp/adapter_compare.json

Per run: extract_rule_correctness and route correctness (server/scoring.py), parse failures
(an ExtractionError/GrammarError answered as fallback_unavailable), tokens generated per
request that called the model, P50/P95 latency; overall and per tag. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from notillm_local.contract.schemas import HandleRequest
from notillm_local.engines.local import GenerationStats, LocalModel
from notillm_local.eval.harness import load_cases, percentile
from notillm_local.eval.scoring import extract_rule_correctness, route_correctness
from notillm_local.service import build_service
from notillm_local.settings import Settings

_COUNT = {"tokens": 0, "calls": 0}
_orig_generate = LocalModel.generate


def _counting_generate(self, prompt_tokens, grammar, *, max_tokens, stop="\n", stats=None):
    stats = stats if stats is not None else GenerationStats()
    before = stats.generated_tokens
    try:
        return _orig_generate(self, prompt_tokens, grammar, max_tokens=max_tokens, stop=stop, stats=stats)
    finally:
        _COUNT["tokens"] += stats.generated_tokens - before
        _COUNT["calls"] += 1


LocalModel.generate = _counting_generate  # type: ignore[method-assign]


def run(dataset: Path, adapter: Path | None, label: str, threads: int, mode: str = "model") -> dict:
    settings = Settings(
        extractor_mode=mode, adapter_path=adapter, embeddings_enabled=False, gate_enabled=False,
        n_threads=threads,
    )
    svc = build_service(settings)
    cases = load_cases(dataset)
    # Warm-up: the prefix into the KV cache, as a running service has it.
    svc.handle(HandleRequest(prompt="30분 동안 카톡 알림 꺼줘", currentTime="2026-03-10T09:00:00+09:00"))
    recs = []
    for c in cases:
        req = HandleRequest.model_validate(c.input)
        _COUNT.update(tokens=0, calls=0)
        t0 = time.perf_counter()
        ans = svc.handle(req)
        ms = (time.perf_counter() - t0) * 1000
        rule, diffs = extract_rule_correctness(c.expected, ans)
        route, _ = route_correctness(c.expected, ans, c.input)
        reason = ans.meta.reason or ""
        recs.append({
            "id": c.id, "tags": c.tags, "rule": rule, "route": route, "ms": ms,
            "llm": ans.meta.llmCalls, "tokens": _COUNT["tokens"], "gen_calls": _COUNT["calls"],
            "parse_fail": reason.startswith("local model output unusable"),
            "diffs": [d.to_dict() for d in diffs], "prompt": c.input.get("prompt"),
            "got": ans.targetFixed.model_dump() if ans.targetFixed else ans.failReason,
        })
        print(f"{label} {c.id} rule={rule} route={route} {ms:.0f}ms tok={_COUNT['tokens']} "
              f"parse_fail={int(bool(recs[-1]['parse_fail']))}",
              file=sys.stderr, flush=True)
    svc.close()
    return {"label": label, "records": recs}


def summary(recs: list[dict]) -> dict:
    n = len(recs)
    lat = [r["ms"] for r in recs]
    with_llm = [r for r in recs if r["llm"]]
    return {
        "n": n,
        "rule": sum(r["rule"] for r in recs) / n,
        "route": sum(r["route"] for r in recs) / n,
        "parse_failures": sum(r["parse_fail"] for r in recs),
        "model_requests": len(with_llm),
        "tokens_per_model_request": (sum(r["tokens"] for r in with_llm) / len(with_llm)) if with_llm else 0,
        "p50_ms": percentile(lat, 50),
        "p95_ms": percentile(lat, 95),
        "p50_ms_model_requests": percentile([r["ms"] for r in with_llm], 50),
    }


def per_tag(recs: list[dict]) -> dict:
    out: dict[str, dict] = defaultdict(dict)
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for r in recs:
        for k, v in r["tags"].items():
            groups[(k, v)].append(r)
    for (k, v), g in sorted(groups.items()):
        out[k][v] = {"n": len(g), "rule": sum(x["rule"] for x in g) / len(g),
                     "route": sum(x["route"] for x in g) / len(g)}
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--dataset", type=Path, default=Path("eval/data/dev.jsonl"))
    p.add_argument("--adapter", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--only", choices=["base", "adapter"], default=None)
    p.add_argument("--mode", choices=["model", "auto", "rules"], default="model")
    p.add_argument("--threads", type=int, default=1,
                   help="llama.cpp threads (1 is steadier on a shared, oversubscribed CPU)")
    args = p.parse_args()
    runs = []
    if args.only in (None, "base"):
        runs.append(run(args.dataset, None, "base", args.threads, args.mode))
    if args.only in (None, "adapter"):
        runs.append(run(args.dataset, args.adapter, "adapter", args.threads, args.mode))
    result = {r["label"]: {"summary": summary(r["records"]), "per_tag": per_tag(r["records"]),
                           "records": r["records"]} for r in runs}
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    for label, r in result.items():
        print(label, json.dumps(r["summary"], ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
