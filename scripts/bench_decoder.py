"""Four grammar-held greedy decoders on the same slot prompts, and the service's own latency.

    python scripts/bench_decoder.py [--n 60] [--repeats 2] [--out reports/decoder.json]
    python scripts/bench_decoder.py --pipeline [--mode auto] [--out reports/pipeline.json]

Decoders (docs/decoder.md):
- stock: llama-cpp-python's `Llama.create_completion(grammar=LlamaGrammar)`, temperature 0:
  llama.cpp's sampler chain (penalties, GBNF grammar over the whole vocabulary, greedy).
- topk: the decoder this service had before: asks llama.cpp's GBNF engine about the 64 best
  tokens and, when none is allowed, about all 262,144 one by one.
- llguidance-step: llguidance's full mask at every step, every token a model pass of its own
  (the decoder shipped until the forced-token fast-forward).
- llguidance: `LocalModel.generate` now: the full mask at every step, and the tokens the
  grammar forces taken without asking the model, evaluated in one batch.

The prompts are the ones the slot extractor builds in model mode (every slot by the model) for
the first `--n` cases of eval/data/holdout.jsonl and holdout_nospace.jsonl: the service runs
once and records each `generate` call (prompt tokens, grammar, token cap); each recorded
request is then replayed through each decoder in turn, from a KV cache holding only the
few-shot prefix (as a new request finds it), `--repeats` times with the decoder order rotated.
Per-call outputs are compared with llguidance's.

`--pipeline` times `Service.handle` in process over dev + both holdouts + their spacing-free
variants (the done-when of issue 12) in one extractor mode, and splits out requests that
called the model.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from notillm_local.contract.schemas import HandleRequest
from notillm_local.engines.local import GenerationStats, LlamaCppGrammar, LocalModel
from notillm_local.service import build_service
from notillm_local.settings import Settings

DATA = Path(__file__).resolve().parents[1] / "eval" / "data"
DECODERS = ("stock", "topk", "llguidance-step", "llguidance")
PIPELINE_SETS = ("dev", "holdout", "holdout2", "dev_nospace", "holdout_nospace",
                 "holdout2_nospace")
_TOP_K = 64


@dataclass
class Call:
    request: int
    prompt: list[int]
    grammar: str
    max_tokens: int
    recorded: str | None = None  # the served decoder's answer while recording


@dataclass
class Outcome:
    text: str | None  # None: the decoder failed (an exception)
    seconds: float
    tokens: int  # tokens of the answer, closing stop included
    mask_seconds: float
    fallbacks: int = 0


@dataclass
class Tally:
    outcomes: list[list[Outcome]] = field(default_factory=list)  # per repeat, per call
    request_seconds: list[float] = field(default_factory=list)
    request_cpu_seconds: list[float] = field(default_factory=list)


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    name = fields.get("Model name", "unknown").strip()
    flags = fields.get("Flags", "")
    simd = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "no AVX2"
    return f"{name}, {fields.get('CPU(s)', '?').strip()} CPUs, {simd}"


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def cases(name: str, n: int | None = None) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text("utf-8").splitlines()
            if line.strip()]
    return rows[:n] if n else rows


# -- recording -------------------------------------------------------------------------------
def record_calls(svc: Any, sets: list[str], n: int) -> tuple[list[Call], int]:
    model = svc.model
    assert model is not None, "the bench needs the local model"
    calls: list[Call] = []
    current = [-1]
    original = model.generate

    def recording(prompt_tokens, grammar, *, max_tokens, stop="\n", stats=None):  # type: ignore[no-untyped-def]
        call = Call(current[0], list(prompt_tokens), grammar.text, max_tokens)
        calls.append(call)
        call.recorded = original(prompt_tokens, grammar, max_tokens=max_tokens, stop=stop,
                                 stats=stats)
        return call.recorded

    model.generate = recording  # type: ignore[method-assign]
    requests = 0
    try:
        for name in sets:
            for case in cases(name, n):
                current[0] = requests
                requests += 1
                try:
                    svc.handle(HandleRequest.model_validate(case["input"]))
                except Exception as exc:  # the calls made before it are still recorded
                    print(f"{case.get('id')}: {type(exc).__name__}", file=sys.stderr)
    finally:
        model.generate = original  # type: ignore[method-assign]
    return calls, requests


# -- the four decoders -----------------------------------------------------------------------
def run_llguidance(m: LocalModel, call: Call) -> Outcome:
    st = GenerationStats()
    t0 = time.perf_counter()
    try:
        text: str | None = m.generate(call.prompt, m.grammar(call.grammar),
                                      max_tokens=call.max_tokens, stats=st)
    except Exception:
        text = None
    return Outcome(text, time.perf_counter() - t0, st.generated_tokens + st.forced_tokens,
                   st.mask_seconds)


def run_llguidance_step(m: LocalModel, call: Call) -> Outcome:
    """llguidance masks, forced tokens evaluated one model pass each (last round's shipping)."""
    st = GenerationStats()
    t0 = time.perf_counter()
    try:
        text: str | None = m.generate(call.prompt, m.grammar(call.grammar),
                                      max_tokens=call.max_tokens, stats=st, fast_forward=False)
    except Exception:
        text = None
    return Outcome(text, time.perf_counter() - t0, st.generated_tokens + st.forced_tokens,
                   st.mask_seconds)


def run_topk(m: LocalModel, call: Call) -> Outcome:
    """The decoder this service shipped before llguidance, kept here only to be measured."""
    t0 = time.perf_counter()
    g = LlamaCppGrammar(m._vocab, call.grammar)
    every = np.arange(m._n_vocab, dtype=np.int32)
    m.feed(call.prompt)
    out, n, mask_s, fallbacks = b"", 0, 0.0, 0
    text: str | None = None
    try:
        for _ in range(call.max_tokens):
            tm = time.perf_counter()
            logits = m._last_logits()
            top = np.argpartition(-logits, _TOP_K)[:_TOP_K]
            top = top[np.argsort(-logits[top])]
            mask = g.allowed(top)
            if mask.any():
                tok = int(top[int(np.argmax(mask))])
            else:
                fallbacks += 1
                allowed = g.allowed(every)
                if not allowed.any():
                    break
                tok = int(np.argmax(np.where(allowed, logits, -np.inf)))
            g.accept(tok)
            mask_s += time.perf_counter() - tm
            out += m.piece(tok)
            n += 1
            decoded = out.decode("utf-8", errors="ignore")
            if decoded.endswith("\n"):
                text = decoded[:-1]
                break
            m._append(tok)
    finally:
        g.close()
    return Outcome(text, time.perf_counter() - t0, n, mask_s, fallbacks)


def run_stock(m: LocalModel, call: Call) -> Outcome:
    from llama_cpp import LlamaGrammar

    llm = m._llm
    sample_s = [0.0, 0]
    original = llm.sample

    def timed_sample(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            sample_s[0] += time.perf_counter() - t
            sample_s[1] += 1

    t0 = time.perf_counter()
    llm.sample = timed_sample  # type: ignore[method-assign]
    text: str | None
    try:
        grammar = LlamaGrammar.from_string(call.grammar, verbose=False)
        res = llm.create_completion(
            call.prompt, grammar=grammar, max_tokens=call.max_tokens, temperature=0.0,
            repeat_penalty=1.0, stop=["\n"],
        )
        text = res["choices"][0]["text"]  # type: ignore[index]
        if res["choices"][0]["finish_reason"] != "stop":  # type: ignore[index]
            text = None
    except Exception:
        text = None
    finally:
        llm.sample = original  # type: ignore[method-assign]
        # create_completion moved the KV cache: tell LocalModel what is in it now.
        m._tokens = [int(t) for t in llm._input_ids[: llm.n_tokens]]
    return Outcome(text, time.perf_counter() - t0, int(sample_s[1]), sample_s[0])


RUNNERS = {"stock": run_stock, "topk": run_topk, "llguidance-step": run_llguidance_step,
           "llguidance": run_llguidance}


# -- the replay ------------------------------------------------------------------------------
def common_prefix(seqs: list[list[int]]) -> list[int]:
    first = seqs[0]
    k = len(first)
    for s in seqs[1:]:
        k = min(k, len(s))
        for i in range(k):
            if s[i] != first[i]:
                k = i
                break
    return first[:k]


def replay(m: LocalModel, calls: list[Call], repeats: int, decoders: tuple[str, ...]
           ) -> dict[str, Tally]:
    by_request: dict[int, list[int]] = {}
    for i, c in enumerate(calls):
        by_request.setdefault(c.request, []).append(i)
    prefix = common_prefix([calls[idx[0]].prompt for idx in by_request.values()])
    tallies = {d: Tally() for d in decoders}
    for rep in range(repeats):
        for d in decoders:
            tallies[d].outcomes.append([None] * len(calls))  # type: ignore[list-item]
        for k, (_req, idx) in enumerate(sorted(by_request.items())):
            shift = (rep + k) % len(decoders)
            for d in decoders[shift:] + decoders[:shift]:
                with m.lock:
                    m.feed(prefix)  # a new request finds only the few-shot prefix cached
                    total = 0.0
                    # Process CPU time as well: on a shared machine wall time includes waiting
                    # for a core, CPU time mostly does not.
                    cpu0 = time.process_time()
                    for i in idx:
                        o = RUNNERS[d](m, calls[i])
                        tallies[d].outcomes[rep][i] = o
                        total += o.seconds
                    tallies[d].request_cpu_seconds.append(time.process_time() - cpu0)
                tallies[d].request_seconds.append(total)
            if k % 20 == 19:
                print(f"repeat {rep + 1}: {k + 1}/{len(by_request)} requests", file=sys.stderr,
                      flush=True)
        print(f"repeat {rep + 1}/{repeats} done", file=sys.stderr, flush=True)
    return tallies


def pct(values: list[float], q: float) -> float:
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = int(pos), min(len(xs) - 1, int(pos) + 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarise(tallies: dict[str, Tally], calls: list[Call]) -> dict[str, Any]:
    ref = tallies["llguidance"].outcomes if "llguidance" in tallies else None
    out: dict[str, Any] = {}
    for d, t in tallies.items():
        flat = [o for rep in t.outcomes for o in rep]
        tokens = sum(o.tokens for o in flat)
        secs = sum(o.seconds for o in flat)
        row: dict[str, Any] = {
            "calls": len(calls),
            "mask_us_per_token": 1e6 * sum(o.mask_seconds for o in flat) / max(1, tokens),
            "tokens_per_s": tokens / secs if secs else None,
            "request_p50_s": pct(t.request_seconds, 50),
            "request_p95_s": pct(t.request_seconds, 95),
            "request_max_s": max(t.request_seconds),
            "request_cpu_p50_s": pct(t.request_cpu_seconds, 50),
            "request_cpu_p95_s": pct(t.request_cpu_seconds, 95),
            "fallbacks_per_repeat": sum(o.fallbacks for o in flat) / len(t.outcomes),
            "calls_with_fallback": sum(1 for o in t.outcomes[0] if o.fallbacks),
            "failed_calls": sum(1 for o in t.outcomes[0] if o.text is None),
            # Per repeat: a shared machine's load varies between passes.
            "request_p95_s_per_repeat": [
                pct(_per_request(rep, calls), 95) for rep in t.outcomes
            ],
        }
        row["outputs_differing_from_recording"] = sum(
            1 for o, c in zip(t.outcomes[0], calls, strict=True) if o.text != c.recorded
        )
        if ref is not None:
            diffs = [
                (calls[i].request, calls[i].grammar.splitlines()[-1][:40], o.text, ref[0][i].text)
                for i, o in enumerate(t.outcomes[0])
                if o.text != ref[0][i].text
            ]
            row["outputs_differing_from_llguidance"] = len(diffs)
            row["differences"] = diffs[:20]
        out[d] = row
    return out


def _per_request(outcomes: list[Outcome], calls: list[Call]) -> list[float]:
    per: dict[int, float] = {}
    for c, o in zip(calls, outcomes, strict=True):
        per[c.request] = per.get(c.request, 0.0) + o.seconds
    return list(per.values())


def render(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        f"CPU: {meta['cpu']}; load average at start {meta['load_start']}, end {meta['load_end']}",
        f"{meta['requests']} requests, {meta['calls']} decoding calls, {meta['repeats']} repeats",
        "",
        "| decoder | mask µs/token | tokens/s | request P50 | P95 | max | CPU s P50 / P95 "
        "| full-vocab fallbacks | outputs = llguidance's |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for d, r in summary.items():
        same = r.get("outputs_differing_from_llguidance")
        lines.append(
            f"| {d} | {r['mask_us_per_token']:,.0f} | {r['tokens_per_s']:.1f} "
            f"| {r['request_p50_s']:.3f} s | {r['request_p95_s']:.3f} s "
            f"| {r['request_max_s']:.3f} s "
            f"| {r['request_cpu_p50_s']:.2f} / {r['request_cpu_p95_s']:.2f} "
            f"| {r['fallbacks_per_repeat']:.0f} "
            f"({r['calls_with_fallback']} calls) "
            f"| {'–' if same is None else 'identical' if same == 0 else f'{same} differ'} |"
        )
    return "\n".join(lines)


# -- the service end to end ------------------------------------------------------------------
def pipeline(settings: Settings, sets: tuple[str, ...]) -> dict[str, Any]:
    svc = build_service(settings)
    try:
        # As a running service: the prefix is in the KV cache before the first request.
        svc.handle(HandleRequest(prompt="30분 동안 카톡 알림 꺼줘",
                                 currentTime="2026-03-10T09:00:00+09:00"))  # type: ignore[arg-type]
        rows = []
        for name in sets:
            for case in cases(name):
                req = HandleRequest.model_validate(case["input"])
                t0 = time.perf_counter()
                try:
                    llm, error = svc.handle(req).meta.llmCalls, None
                except Exception as exc:  # a deadline on a busy machine: timed, reported
                    llm, error = None, type(exc).__name__
                rows.append({"set": name, "id": case.get("id"), "s": time.perf_counter() - t0,
                             "llm": llm, "error": error})
    finally:
        svc.close()
    every = [r["s"] for r in rows]
    model = [r["s"] for r in rows if r["llm"]]
    return {
        "mode": settings.extractor_mode.value,
        "requests": len(rows),
        "p50_s": pct(every, 50), "p95_s": pct(every, 95), "max_s": max(every),
        "over_1s": sum(1 for s in every if s > 1.0),
        "errors": sum(1 for r in rows if r["error"]),
        "model_requests": len(model),
        "model_p50_s": pct(model, 50) if model else None,
        "model_p95_s": pct(model, 95) if model else None,
        "model_max_s": max(model) if model else None,
        "slowest": sorted(rows, key=lambda r: -r["s"])[:5],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=60, help="cases taken from each set")
    ap.add_argument("--sets", default="holdout,holdout_nospace")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--decoders", default=",".join(DECODERS))
    ap.add_argument("--pipeline", action="store_true", help="time Service.handle instead")
    ap.add_argument("--mode", default="auto", help="extractor mode for --pipeline")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--calls", type=Path,
                    help="recorded calls: read if the file exists, else recorded and written")
    args = ap.parse_args()

    meta: dict[str, Any] = {"cpu": cpu_model(), "load_start": load_average(),
                            "python": platform.python_version()}
    if args.pipeline:
        rep = pipeline(Settings(extractor_mode=args.mode), PIPELINE_SETS)
        meta["load_end"] = load_average()
        result: dict[str, Any] = {"meta": meta, "pipeline": rep}
        print(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        # A generous deadline: recording must not lose calls to a busy machine.
        settings = Settings(extractor_mode="model", request_deadline_s=300)
        svc = build_service(settings)
        assert svc.model is not None
        if args.calls and args.calls.exists():
            calls = [Call(**c) for c in json.loads(args.calls.read_text(encoding="utf-8"))]
            requests = len({c.request for c in calls})
        else:
            calls, requests = record_calls(svc, args.sets.split(","), args.n)
            if args.calls:
                args.calls.parent.mkdir(parents=True, exist_ok=True)
                args.calls.write_text(json.dumps([c.__dict__ for c in calls], ensure_ascii=False),
                                      encoding="utf-8")
        decoders = tuple(d for d in args.decoders.split(",") if d)
        t0 = time.perf_counter()
        tallies = replay(svc.model, calls, args.repeats, decoders)
        summary = summarise(tallies, calls)
        meta.update(load_end=load_average(), requests=requests, calls=len(calls),
                    repeats=args.repeats, replay_s=time.perf_counter() - t0,
                    median_prompt_tokens=statistics.median(len(c.prompt) for c in calls))
        svc.close()
        result = {"meta": meta, "decoders": summary}
        print(render(summary, meta))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
