"""Base vs base + adapter on one dataset, by default in extractor_mode=model (the model answers
every slot; --mode auto compares the service's default mode). `score_slots` answers generated
examples (the held-out template families) slot by slot against their templates' truth.

    NOTILLM_EMBEDDINGS_ENABLED=false python export/compare_adapter.py \
        --dataset eval/data/dev.jsonl --adapter server/resources/adapters/notillm-gemma3-270m-lora.gguf \
        --out /tmp/adapter_compare.json

Per run: extract_rule_correctness and route correctness (server/scoring.py), parse failures
(an ExtractionError/GrammarError answered as fallback_unavailable), tokens generated per
request that called the model, P50/P95 latency; overall and per tag. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from notillm_local.contract.schemas import HandleRequest
from notillm_local.engines.local import GenerationStats, LocalModel
from notillm_local.eval.harness import load_cases
from notillm_local.eval.scoring import extract_rule_correctness, route_correctness
from notillm_local.lexicon import normalise
from notillm_local.service import build_service
from notillm_local.settings import Settings


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `values`; 0 for none."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q / 100 * len(s) + 0.5)) - 1))]


_COUNT = {"tokens": 0, "calls": 0}
_orig_generate = LocalModel.generate


def _counting_generate(self, prompt_tokens, grammar, *, max_tokens, stop="\n", stats=None,
                       fast_forward=True):
    stats = stats if stats is not None else GenerationStats()
    before = stats.generated_tokens
    try:
        return _orig_generate(self, prompt_tokens, grammar, max_tokens=max_tokens, stop=stop,
                              stats=stats, fast_forward=fast_forward)
    finally:
        _COUNT["tokens"] += stats.generated_tokens - before
        _COUNT["calls"] += 1


def _count_tokens() -> None:
    """Count generated tokens per request (the service comparison only)."""
    LocalModel.generate = _counting_generate  # type: ignore[method-assign]


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The text with the time spans replaced by spaces (as the extractor blanks them)."""
    chars = list(text)
    for start, end in spans:
        for i in range(max(0, start), min(len(chars), end)):
            chars[i] = " "
    return "".join(chars)


_NOW = datetime(2026, 3, 10, 9, 0, tzinfo=timezone(timedelta(hours=9)))


def _apps_of(answer: str, index: Any, names: dict[str, Any]) -> list[object]:
    """The answer's items as apps: the same app by the device's label or the table's name
    ("KakaoTalk" = "카카오톡" on an English device); "기타" and "없음" as themselves."""
    return [index.by_norm_label.get(normalise(x)) or names.get(x) or x for x in answer.split(", ")]


def score_slots(
    examples: Sequence[Any], gguf: Path, adapter: Path | None, prefix: str, *, threads: int = 1
) -> dict:
    """Each example's three slots answered by the model as the extractor asks for them (same
    token layout, same grammars: the example's installed labels, the prompt's own words),
    compared with the example's template truth. Per slot, whole example, per family."""
    from notillm_local import resources
    from notillm_local.domain import AppRef
    from notillm_local.engines.grammars import GrammarSet
    from notillm_local.stages.alias_table import AliasTable
    from notillm_local.stages.apps import AppMapper, InstalledIndex, load_catalog
    from notillm_local.stages.timeparse import parse_time
    from notillm_local.stages.words import keyword_candidates

    model = LocalModel(gguf, n_threads=threads, n_ctx=512, lora_path=adapter)
    grammars = GrammarSet.load()
    catalog = load_catalog()
    mapper = AppMapper(AliasTable.load(resources.path("app_aliases.json"), catalog))
    default_index = InstalledIndex.of(catalog)
    head = model.bos() + model.tokenize(prefix)
    rows: list[dict] = []
    try:
        for ex in examples:
            index = (InstalledIndex.of(AppRef(lb, pkg) for lb, pkg in ex.installed)
                     if ex.installed else default_index)
            names = mapper.answer_names(index)
            labels = [*index.labels, *names]


            line = re.sub(r"\s+", " ", ex.sentence)
            t0 = time.perf_counter()
            toks = head + model.tokenize(f"\n문장: {line}\n의도:")
            intent = model.generate(toks, model.grammar(grammars.intent), max_tokens=6).strip()
            toks = toks + model.tokenize(f" {intent}\n앱:")
            apps = model.generate(
                toks, model.grammar(grammars.apps_for(labels)), max_tokens=64
            ).strip()
            toks = toks + model.tokenize(f" {apps}\n키워드:")
            spans = [(sp.start, sp.end) for sp in parse_time(line, _NOW).spans]
            cands = keyword_candidates(_blank(line, spans))
            kws = "없음"
            if cands:
                kws = model.generate(
                    toks, model.grammar(grammars.keywords_for(cands)), max_tokens=64
                ).strip()
            want_kws = [] if ex.keywords == "없음" else ex.keywords.split(", ")
            rows.append({
                "family": ex.family, "sentence": ex.sentence,
                "want": [ex.intent, ex.apps, ex.keywords], "got": [intent, apps, kws],
                "intent": intent == ex.intent, "apps": _apps_of(apps, index, names) == _apps_of(ex.apps, index, names),
                "keywords": kws == ex.keywords, "ms": (time.perf_counter() - t0) * 1000,
                "keyword_reachable": all(k in cands for k in want_kws),
            })
    finally:
        model.close()

    def acc(rs: list[dict]) -> dict:
        n = len(rs) or 1
        return {
            "n": len(rs),
            "all": round(sum(r["intent"] and r["apps"] and r["keywords"] for r in rs) / n, 3),
            "intent": round(sum(r["intent"] for r in rs) / n, 3),
            "apps": round(sum(r["apps"] for r in rs) / n, 3),
            "keywords": round(sum(r["keywords"] for r in rs) / n, 3),
        }

    fams = sorted({r["family"] for r in rows})
    summary = acc(rows) | {"per_family": {f: acc([r for r in rows if r["family"] == f]) for f in fams},
                           "keyword_unreachable": sum(not r["keyword_reachable"] for r in rows)}
    return {"summary": summary, "rows": rows}


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


def main_heldout(argv: list[str]) -> int:
    """--heldout: the held-out families (as build_examples makes them) on base and/or adapters."""
    from notillm_local.export.adapter_data import (
        ADAPTER_PREFIX,
        SEED,
        build_examples,
        fresh_examples,
    )
    from notillm_local.models.catalog import extractor_model_path

    p = argparse.ArgumentParser()
    p.add_argument("--heldout", action="store_true")
    p.add_argument("--adapter", type=Path, action="append", required=True,
                   help="an adapter GGUF (its folder's prefix.txt is used); repeatable")
    p.add_argument("--n", type=int, default=150)
    p.add_argument("--examples", type=int, default=6000, help="the training run's --examples")
    p.add_argument("--seed", type=int, default=SEED, help="the training run's seed")
    p.add_argument("--trained-families", type=int, default=0,
                   help="also score this many fresh examples of the trained families")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    ts = build_examples(args.examples, seed=args.seed, n_heldout=args.n)
    sets = {"heldout": ts.heldout[: args.n]}
    if args.trained_families:
        sets["trained_fresh"] = fresh_examples(ts, args.trained_families, args.seed + 2)
    gguf = extractor_model_path(Settings())[0]
    result: dict[str, Any] = {}
    for adapter in args.adapter:
        prefix_file = adapter.parent / "prefix.txt"
        prefix = prefix_file.read_text(encoding="utf-8") if prefix_file.is_file() else ADAPTER_PREFIX
        for name, exs in sets.items():
            r = score_slots(exs, gguf, adapter, prefix, threads=args.threads)
            result[f"{adapter}:{name}"] = r
            print(adapter, name, json.dumps(r["summary"], ensure_ascii=False))
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def main() -> int:
    if "--heldout" in sys.argv[1:]:
        return main_heldout(sys.argv[1:])
    _count_tokens()
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
