"""Answer the same datasets natively on x86 and compare with the arm64 runs, case by case.

    .venv/bin/python scripts/arm64/compare.py --arm /var/tmp/notillm-arm64/out

Reads what run_in_root.sh left in --arm: DIR/data/*.jsonl (the input files) and one folder per
emulated CPU model, DIR/qemu-<cpu>/*.answers.jsonl. Runs scripts/arm64/answers.py and
`notillm-local eval` on the same input files with this machine's .venv (--python) into --x86
(default: a sibling folder `x86`), then prints and writes --x86/compare.md: identical answers
per dataset and CPU, every differing field, eval accuracy, wheels, encoder export hashes and
timings (the arm64 ones EMULATED). Exit status 1 when an answer to a worked example differs
on any CPU model, 0 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
MUST_MATCH = "examples"


# What decides the answers: the runtime, the tooling it imports, the project file.
FINGERPRINTED = ("server", "eval", "export", "pyproject.toml")


def fingerprint(tree: Path) -> str:
    """sha256 over the answer-deciding files of a working tree (or a copy of one)."""
    h = hashlib.sha256()
    for top in FINGERPRINTED:
        base = tree / top
        files = [base] if base.is_file() else sorted(
            p for p in base.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc"))
        for f in files:
            h.update(f.relative_to(tree).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()[:16]


def read_answers(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["id"]] = row["answer"]
    return out


def flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        items: dict[str, Any] = {}
        for k, v in value.items():
            items.update(flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return items or {prefix: {}}
    return {prefix: value}


def diff_answers(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    fa, fb = flat(a), flat(b)
    return [(k, fa.get(k), fb.get(k)) for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]


def run_x86(python: Path, data: Path, x86: Path, names: list[str]) -> None:
    x86.mkdir(parents=True, exist_ok=True)
    specs = [f"{n}={data / (n.split('@')[0] + '.jsonl')}" for n in names]
    print(f"==> x86: answers for {', '.join(names)} with {python}", file=sys.stderr)
    with (x86 / "answers.log").open("w") as log:
        subprocess.run([str(python), str(REPO / "scripts/arm64/answers.py"), "--out", str(x86),
                        *specs], check=True, cwd=REPO, stderr=log)
    cli = python.parent / "notillm-local"
    for n in names:
        if n == MUST_MATCH or "@" in n:
            continue
        print(f"==> x86: notillm-local eval --dataset {n}", file=sys.stderr)
        with (x86 / f"eval-{n}.summary.json").open("w") as out, \
                (x86 / "eval.log").open("a") as log:
            subprocess.run([str(cli), "eval", "--dataset", str(data / f"{n}.jsonl"),
                            "--out", str(x86 / f"eval-{n}")], check=True, cwd=REPO,
                           stdout=out, stderr=log)
    manifest = Path.home() / ".cache" / "notillm-local" / "encoder" / "manifest.json"
    if manifest.is_file():
        (x86 / "encoder-manifest.json").write_bytes(manifest.read_bytes())


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def _short(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 90 else s[:87] + "..."


def _ms(block: dict[str, Any] | None, key: str) -> str:
    if not block or not block.get(key) or not block[key].get("n"):
        return "–"
    b = block[key]
    return f"{b['median']:.0f} / {b['p90']:.0f} / {b['max']:.0f} (n={b['n']})"


def _hwcap(path: Path) -> str:
    try:
        return " ".join(path.read_text().split())
    except OSError:
        return "?"


def report(arm: Path, variants: list[Path], x86: Path, names: list[str]) -> tuple[str, bool]:
    must_ok = True
    lines = ["| emulated CPU (QEMU_CPU) | dataset | cases | identical to x86 | different | "
             "missing |", "|---|---|---:|---:|---:|---:|"]
    details: list[str] = []
    for v in variants:
        cpu = v.name.removeprefix("qemu-")
        for n in names:
            if not (v / f"{n}.answers.jsonl").is_file():
                continue
            a = read_answers(v / f"{n}.answers.jsonl")
            b = read_answers(x86 / f"{n}.answers.jsonl")
            ids = list(dict.fromkeys([*b, *a]))
            same = [i for i in ids if i in a and i in b and a[i] == b[i]]
            diff = [i for i in ids if i in a and i in b and a[i] != b[i]]
            lonely = [i for i in ids if (i in a) != (i in b)]
            if n == MUST_MATCH and (diff or lonely or not ids):
                must_ok = False
            lines.append(f"| {cpu} | {n} | {len(ids)} | {len(same)} | {len(diff)} | "
                         f"{len(lonely)} |")
            for i in diff:
                details.append(f"- `{cpu}` `{n}` **{i}**:")
                for field, va, vb in diff_answers(a[i], b[i]):
                    details.append(f"  - `{field}`: arm64 {_short(va)} · x86 {_short(vb)}")
            for i in lonely:
                details.append(f"- `{cpu}` `{n}` **{i}**: answered only on "
                               f"{'arm64' if i in a else 'x86'}")
    lines.append("")
    lines.extend(details or ["Every answer is identical, field by field (meta.latencyMs aside)."])

    lines += ["", "| eval (`notillm-local eval`) | arm64 (emulated) | x86 (native) |",
              "|---|---|---|"]
    for n in names:
        if n == MUST_MATCH or "@" in n:
            continue
        for v in variants:
            sa = _json(v / f"eval-{n}.summary.json")
            if sa is None:
                continue
            sb = _json(x86 / f"eval-{n}.summary.json") or {}
            for k in ("accuracy", "route_accuracy"):
                if sa.get(k) is not None or sb.get(k) is not None:
                    lines.append(f"| {n} {k} ({v.name}) | {_short(sa.get(k))} | "
                                 f"{_short(sb.get(k))} |")

    ma, mb = _json(arm / "encoder-manifest.json") or {}, _json(x86 / "encoder-manifest.json") or {}
    lines += ["", "| encoder export (sha256) | arm64 | x86 |", "|---|---|---|"]
    for f in sorted(set(ma.get("files") or {}) | set(mb.get("files") or {})):
        ha = ((ma.get("files") or {}).get(f) or {}).get("sha256", "–")
        hb = ((mb.get("files") or {}).get(f) or {}).get("sha256", "–")
        lines.append(f"| {f} | `{ha[:16]}` | `{hb[:16]}` {'same' if ha == hb else ('DIFFERENT' if '–' not in (ha, hb) else '')} |")

    first = variants[0]
    ea, eb = _json(first / "environment.json") or {}, _json(x86 / "environment.json") or {}
    lines += ["", "| | arm64 (qemu-user, EMULATED) | x86 (native) |", "|---|---|---|"]
    lines.append(f"| machine | {ea.get('machine')} | {eb.get('machine')} |")
    lines.append(f"| python | {ea.get('python')} | {eb.get('python')} |")
    for dist in sorted(set(ea.get("packages") or {}) | set(eb.get("packages") or {})):
        pa = (ea.get("packages") or {}).get(dist) or {}
        pb = (eb.get("packages") or {}).get(dist) or {}
        if pa or pb:
            lines.append(f"| {dist} | {pa.get('version')} `{pa.get('wheel')}` | "
                         f"{pb.get('version')} `{pb.get('wheel')}` |")
    lines.append(f"| llama.cpp system info | `{ea.get('llama_cpp_system_info')}` | "
                 f"`{eb.get('llama_cpp_system_info')}` |")
    for v in variants:
        lines.append(f"| HWCAP under {v.name} | `{_hwcap(v / 'hwcap.txt')}` | |")

    tb = _json(x86 / "timings.json") or {}
    head = " | ".join(f"{v.name} (EMULATED)" for v in variants)
    lines += ["", f"| timing | {head} | x86 (native) |",
              "|---|" + "---|" * (len(variants) + 1)]
    tas = [_json(v / "timings.json") or {} for v in variants]

    def row(label: str, get: Any) -> None:
        lines.append(f"| {label} | " + " | ".join(str(get(t)) for t in tas) + f" | {get(tb)} |")

    row("build service (GGUF + LoRA + encoder load), s", lambda t: t.get("build_service_s"))
    row("warm-up request, s", lambda t: t.get("warmup_request_s"))
    if any("build_service_s@model" in t for t in [*tas, tb]):
        row("extractor_mode=model: build service, s", lambda t: t.get("build_service_s@model"))
        row("extractor_mode=model: warm-up request (first model call), s",
            lambda t: t.get("warmup_request_s@model"))
    for n in names:
        for key, label in (("all_ms", "all"), ("model_decided_ms", "model-decided"),
                           ("code_only_ms", "code only")):
            row(f"{n}: {label}, ms median / p90 / max", lambda t, n=n, key=key: _ms(t.get(n), key))
    return "\n".join(lines) + "\n", must_ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arm", type=Path, default=Path("/var/tmp/notillm-arm64/out"))
    ap.add_argument("--x86", type=Path, default=None, help="default: ARM/../x86")
    ap.add_argument("--python", type=Path, default=REPO / ".venv" / "bin" / "python")
    ap.add_argument("--no-run", action="store_true", help="compare existing x86 answers only")
    ap.add_argument("--fingerprint", type=Path, metavar="TREE",
                    help="print the answer-deciding fingerprint of TREE and exit")
    args = ap.parse_args(argv)
    if args.fingerprint:
        print(fingerprint(args.fingerprint))
        return 0
    arm = args.arm.resolve()
    x86 = (args.x86 or arm.parent / "x86").resolve()
    # the variant that also ran the eval (run_in_root.sh's first CPU) leads
    variants = sorted((p for p in arm.glob("qemu-*") if any(p.glob("*.answers.jsonl"))),
                      key=lambda p: (not any(p.glob("eval-*.summary.json")), p.name))
    if not variants:
        ap.error(f"no qemu-*/*.answers.jsonl in {arm}: run scripts/arm64/run_in_root.sh first")
    names = sorted({p.name[: -len(".answers.jsonl")] for v in variants
                    for p in v.glob("*.answers.jsonl")})
    if platform.machine() != "x86_64":
        print(f"warning: this machine is {platform.machine()}, not x86_64", file=sys.stderr)
    if not args.no_run:
        run_x86(args.python, arm / "data", x86, names)
        (x86 / "fingerprint.txt").write_text(fingerprint(REPO) + "\n")
    fa = (arm / "fingerprint.txt").read_text().strip() if (arm / "fingerprint.txt").is_file() else "?"
    fb = (x86 / "fingerprint.txt").read_text().strip() if (x86 / "fingerprint.txt").is_file() else "?"
    text, ok = report(arm, variants, x86, names)
    same_tree = fa == fb
    note = (f"Same code on both sides (fingerprint of server/, eval/, export/, pyproject.toml: "
            f"`{fa}`).\n\n" if same_tree else
            f"**WARNING: the x86 run used different code** (fingerprint arm64 `{fa}`, x86 "
            f"`{fb}`): the tree changed between the two runs; differences may come from that.\n\n")
    text = note + text
    (x86 / "compare.md").write_text(text, encoding="utf-8")
    print(text)
    print(f"worked examples identical on every emulated arm64 CPU and x86: {'yes' if ok else 'NO'}",
          file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
