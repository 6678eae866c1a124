#!/usr/bin/env python3
"""Convert Duckling's Korean time and duration corpora into tests/data/duckling_ko/corpus.jsonl.

Standard library only. Input: the Haskell files saved verbatim from facebook/duckling next to the
output (tests/data/duckling_ko/Time_KO_Corpus.hs, Duration_KO_Corpus.hs, Testing_Types.hs; the
commit is in SOURCE.md). The files are read as text: a small tokenizer reads each
``examples (<value>) [ "phrase", ... ]`` block, Haskell ``--`` comments are dropped (so the
corpus's commented-out examples are left out, as Duckling's own test run leaves them out), and the
value constructors of Duckling/Time/Corpus.hs are evaluated:

- ``datetime (y, m, d, h, mi, s) Grain``            -> {"type": "instant", "value", "grain"}
- ``datetimeHoliday (...) Grain "Name"``             -> instant plus "holiday"
- ``datetimeInterval ((...), (...)) Grain``          -> {"type": "interval", "from", "to", "grain"}
- ``datetimeOpenInterval After|Before (...) Grain``  -> interval with "to" / "from" null
- ``DurationData n Grain``                           -> {"type": "duration", "value", "unit",
                                                         "seconds"}

Datetimes are wall-clock times in the offset of Duckling's test context (``testContext`` in
Testing/Types.hs: Tuesday 2013-02-12 04:30:00 at UTC-2), written as ISO 8601 with that offset.
A phrase listed twice with the same value (the corpus repeats a few) is kept once.

Usage: python scripts/data/duckling_ko.py [--check]   (--check: fail if the file would change)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "duckling_ko"
SOURCES = [
    ("t", "Time_KO_Corpus.hs", "Duckling/Time/KO/Corpus.hs"),
    ("d", "Duration_KO_Corpus.hs", "Duckling/Duration/KO/Corpus.hs"),
]
GRAIN_SECONDS = {
    "Second": 1,
    "Minute": 60,
    "Hour": 3600,
    "Day": 86400,
    "Week": 7 * 86400,
    "Month": 30 * 86400,
    "Quarter": 91 * 86400,
    "Year": 365 * 86400,
}

_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<num>-?\d+)|(?P<id>[A-Za-z_][\w\']*)'
    r"|(?P<sym>[()\[\],]))"
)


def strip_comments(text: str) -> str:
    """Drop Haskell line comments (``--`` outside string literals)."""
    out = []
    for line in text.splitlines():
        in_str, i, cut = False, 0, len(line)
        while i < len(line):
            ch = line[i]
            if ch == '"' and (i == 0 or line[i - 1] != "\\"):
                in_str = not in_str
            elif not in_str and line.startswith("--", i):
                cut = i
                break
            i += 1
        out.append(line[:cut])
    return "\n".join(out)


def tokenize(text: str, pos: int) -> list[tuple[str, Any, int]]:
    """Tokens from pos until the list of phrases that closes an ``examples`` block."""
    toks: list[tuple[str, Any, int]] = []
    depth_sq = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot read Haskell at offset {pos}: {text[pos : pos + 40]!r}")
        pos = m.end()
        kind = m.lastgroup
        assert kind is not None
        value: Any = m.group(kind)
        if kind == "str":
            value = json.loads(value)
        elif kind == "num":
            value = int(value)
        toks.append((kind, value, m.start(kind)))
        if kind == "sym" and value == "[":
            depth_sq += 1
        elif kind == "sym" and value == "]":
            depth_sq -= 1
            if depth_sq == 0:
                break
    return toks


class Reader:
    def __init__(self, toks: list[tuple[str, Any, int]]) -> None:
        self.toks, self.i = toks, 0

    def peek(self) -> tuple[str, Any, int]:
        return self.toks[self.i]

    def take(self, kind: str | None = None, value: Any = None) -> Any:
        tok = self.toks[self.i]
        if (kind and tok[0] != kind) or (value is not None and tok[1] != value):
            raise ValueError(f"expected {kind} {value!r}, got {tok}")
        self.i += 1
        return tok[1]

    def atom(self) -> Any:
        """A number, string, identifier, or a parenthesised tuple / expression."""
        kind, value, _ = self.peek()
        if kind != "sym":
            self.i += 1
            return value
        self.take("sym", "(")
        items = [self.expr()]
        while self.peek()[1] == ",":
            self.take("sym", ",")
            items.append(self.expr())
        self.take("sym", ")")
        return tuple(items) if len(items) > 1 else items[0]

    def expr(self) -> Any:
        """Function application: atoms until a closing symbol."""
        parts = [self.atom()]
        while self.peek()[0] != "sym" or self.peek()[1] == "(":
            parts.append(self.atom())
        return parts[0] if len(parts) == 1 else ("app", *parts)

    def phrases(self) -> list[str]:
        self.take("sym", "[")
        out: list[str] = []
        while self.peek()[1] != "]":
            out.append(self.take("str"))
            if self.peek()[1] == ",":
                self.take("sym", ",")
        self.take("sym", "]")
        return out


def reference_time(types_text: str) -> datetime:
    m = re.search(
        r"referenceTime\s*=\s*refTime\s*\((\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),"
        r"\s*(\d+)\)\s*\((-?\d+)\)",
        types_text,
    )
    if m is None:
        raise ValueError("testContext's referenceTime not found")
    y, mo, d, h, mi, s, off = (int(g) for g in m.groups())
    return datetime(y, mo, d, h, mi, s, tzinfo=timezone(timedelta(hours=off)))


def moment(parts: tuple[int, ...], tz: timezone) -> str:
    y, mo, d, h, mi, s = parts
    return datetime(y, mo, d, h, mi, s, tzinfo=tz).isoformat()


def evaluate(expr: Any, tz: timezone) -> dict[str, Any]:
    if not (isinstance(expr, tuple) and expr and expr[0] == "app"):
        raise ValueError(f"not a value constructor: {expr!r}")
    name, *args = expr[1:]
    if name == "datetime":
        when, grain = args
        return {"type": "instant", "value": moment(when, tz), "grain": grain.lower()}
    if name == "datetimeHoliday":
        when, grain, holiday = args
        return {
            "type": "instant",
            "value": moment(when, tz),
            "grain": grain.lower(),
            "holiday": holiday,
        }
    if name == "datetimeInterval":
        (start, end), grain = args
        return {
            "type": "interval",
            "from": moment(start, tz),
            "to": moment(end, tz),
            "grain": grain.lower(),
        }
    if name == "datetimeOpenInterval":
        direction, when, grain = args
        value = moment(when, tz)
        after = direction == "After"
        return {
            "type": "interval",
            "from": value if after else None,
            "to": None if after else value,
            "grain": grain.lower(),
        }
    if name == "DurationData":
        amount, grain = args
        return {
            "type": "duration",
            "value": amount,
            "unit": grain.lower(),
            "seconds": amount * GRAIN_SECONDS[grain],
        }
    raise ValueError(f"unknown constructor {name}")


def convert(text: str, prefix: str, source: str, ref: datetime) -> list[dict[str, Any]]:
    tz = ref.tzinfo
    assert isinstance(tz, timezone)
    body = strip_comments(text)
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for m in re.finditer(r"\bexamples\s*\(", body):
        reader = Reader(tokenize(body, m.end() - 1))
        value = evaluate(reader.atom(), tz)
        line = body.count("\n", 0, m.start()) + 1
        for phrase in reader.phrases():
            key = (phrase, json.dumps(value, sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            rows.append(
                {
                    "id": f"{prefix}{len(rows) + 1:03d}",
                    "phrase": phrase,
                    "value": value,
                    "reference_time": ref.isoformat(),
                    "source": source,
                    "line": line,
                }
            )
    return rows


def build() -> str:
    ref = reference_time((DATA / "Testing_Types.hs").read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = []
    for prefix, saved, source in SOURCES:
        rows += convert((DATA / saved).read_text(encoding="utf-8"), prefix, source, ref)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    out = DATA / "corpus.jsonl"
    text = build()
    if args.check:
        same = out.exists() and out.read_text(encoding="utf-8") == text
        print("up to date" if same else "corpus.jsonl differs from the Haskell sources")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} phrases to {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
