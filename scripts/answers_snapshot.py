"""Every answer of the service for some evaluation files, to compare two versions case by case.

    python scripts/answers_snapshot.py dump OUT.jsonl eval/data/dev.jsonl eval/data/holdout.jsonl
    ... change the code ...
    python scripts/answers_snapshot.py dump AFTER.jsonl eval/data/dev.jsonl eval/data/holdout.jsonl
    python scripts/answers_snapshot.py diff OUT.jsonl AFTER.jsonl

`dump` answers each case with the default settings (or `--extractor-mode`) and writes one line
per case: its file, id and the whole answer except `meta.latencyMs`. `diff` prints the cases
whose answers differ, field by field, and exits 1 if any does (0 when all are identical). Used
for the restructure of issue 13: dev + holdout + holdout2 + the contract's examples, 530 cases,
identical before and after the move.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def dump(out: Path, files: list[Path], mode: str | None) -> int:
    from notillm_local.contract.schemas import HandleRequest
    from notillm_local.service import build_service
    from notillm_local.settings import Settings

    settings = Settings(**({"extractor_mode": mode} if mode else {}))
    service = build_service(settings)
    service.wait_warm()
    n = 0
    try:
        with out.open("w", encoding="utf-8") as fh:
            for f in files:
                for line in f.read_text(encoding="utf-8").splitlines():
                    if not line.strip():
                        continue
                    case = json.loads(line)
                    answer = service.handle(HandleRequest(**case["input"])).model_dump(mode="json")
                    answer["meta"].pop("latencyMs", None)
                    row = {"file": f.name, "id": case["id"], "answer": answer}
                    fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
                    n += 1
    finally:
        service.close()
    print(f"{n} answers written to {out}")
    return 0


def _fields(a: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(a, dict):
        out: dict[str, Any] = {}
        for k, v in a.items():
            out.update(_fields(v, f"{prefix}{k}."))
        return out
    return {prefix.rstrip("."): a}


def diff(before: Path, after: Path) -> int:
    def load(p: Path) -> dict[tuple[str, str], Any]:
        rows = (json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x.strip())
        return {(r["file"], r["id"]): r["answer"] for r in rows}

    a, b = load(before), load(after)
    differing = 0
    for key in sorted(a.keys() | b.keys()):
        if key not in a or key not in b:
            print(f"{key[0]} {key[1]}: only in {'after' if key not in a else 'before'}")
            differing += 1
            continue
        fa, fb = _fields(a[key]), _fields(b[key])
        changed = sorted(k for k in fa.keys() | fb.keys() if fa.get(k) != fb.get(k))
        if changed:
            differing += 1
            for k in changed:
                print(f"{key[0]} {key[1]} {k}: {fa.get(k)!r} -> {fb.get(k)!r}")
    print(f"{len(a.keys() & b.keys())} cases in both, {differing} differ")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("files", type=Path, nargs="+")
    d.add_argument("--extractor-mode", choices=["auto", "model", "rules"])
    c = sub.add_parser("diff")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        return dump(args.out, args.files, args.extractor_mode)
    return diff(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
