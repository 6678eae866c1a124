#!/usr/bin/env python3
"""Report P50/P99 parse time per sentence over tests/data/time_cases.jsonl (goal: P99 < 1 ms).

Usage: python scripts/bench_time.py [--cases PATH] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from notillm_local.eval.timebench import bench_time

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=ROOT / "tests" / "data" / "time_cases.jsonl")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    rows = [
        json.loads(line) for line in args.cases.read_text(encoding="utf-8").splitlines() if line
    ]
    sentences = [(row["text"], datetime.fromisoformat(row["now"])) for row in rows]
    report = bench_time(sentences, args.repeat)
    print(json.dumps(report, indent=2))
    return 0 if report["meets_goal"] else 1


if __name__ == "__main__":
    sys.exit(main())
