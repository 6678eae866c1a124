#!/usr/bin/env python3
"""Compare the time module with Duckling's Korean corpus (tests/data/duckling_ko/).

Each Duckling phrase is put in a command frame a user could say, parsed with ``parse_time`` at
Duckling's reference time (Tuesday 2013-02-12 04:30 at UTC-2), and compared with what Duckling's
value means for that command:

- an instant -> "{phrase}까지 알림 꺼줘" (a trailing 에 is dropped first): delivery = now,
  expires = the instant; for a day, week, month or year grain, the end of that period
  ("내일까지" runs to the end of tomorrow);
- an instant said as "<length> 안에/내/이내" -> "{phrase} 알림 꺼줘": expires = now + length, which
  Duckling writes rounded down to its grain, so the answer is compared at that grain;
- a duration -> "{phrase} 동안 알림 꺼줘": expires = now + the duration;
- an interval -> "{phrase} 알림 꺼줘": delivery = its start (now when it began before now),
  expires = its end. Duckling writes a range "A부터 B" / "A~B" / "A-B" as [A, B + 1 grain); a
  rule ends at B, so for grains below a day one grain is taken off. An interval open at the end
  ("오후2시 이후") names no end, so no rule can equal it;
- a phrase whose expected end is not after now is a past expression and must give invalid_time;
  so must one whose rule would be longer than 366 days (CONTRACT.md, Clarifications).

Classes: ``same`` (the answer above), ``decided`` (the answer a decision in docs/time.md
prescribes, listed with its phrase ids in decisions.json), ``refused`` (no_time or unclear: the
service asks; or invalid_time where invalid_time is expected), ``different`` (anything else).
Scopes (scope.json): ``in`` (a definite time a command can use), ``ask`` (in scope, but by design
the service asks: no end, a vague amount, a day part with no hours), ``past`` (found from the
value: must give invalid_time), ``out`` (far years, quarters, seasons, holidays, time zones).
``same`` is reported as a share of ``in``, and of ``in`` + ``ask`` + ``past`` for comparison.

Usage: python scripts/duckling_compare.py [--json] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from notillm_local.stages.timeparse import TimeResult, parse_time

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "duckling_ko"
CLASSES = ("same", "decided", "refused", "different")
SCOPES = ("in", "ask", "past", "out")
_MAX_SPAN = timedelta(days=366)
_WITHIN = re.compile(r"(?:안|내|이내)에?$")
_RANGE = re.compile(r"부터|~|-")
_SUB_DAY = {
    "second": timedelta(seconds=1),
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
}


@dataclass(frozen=True)
class Expect:
    outcome: str  # "ok", "invalid_time", or "none" (no rule can equal Duckling's value)
    delivery: str | None = None
    expires: str | None = None
    truncate: str | None = None  # compare expires rounded down to this grain


@dataclass(frozen=True)
class Row:
    id: str
    phrase: str
    frame: str
    scope: str
    klass: str
    expect: Expect
    got: dict[str, Any]
    decision: str | None
    why_out: str | None


def _add_months(moment: datetime, months: int) -> datetime:
    idx = moment.month - 1 + months
    return moment.replace(year=moment.year + idx // 12, month=idx % 12 + 1)


def _period_end(start: datetime, grain: str) -> datetime:
    if grain == "day":
        return start + timedelta(days=1)
    if grain == "week":
        return start + timedelta(days=7)
    if grain == "month":
        return _add_months(start, 1)
    if grain == "quarter":
        return _add_months(start, 3)
    if grain == "year":
        return _add_months(start, 12)
    return start


def _truncate(moment: datetime, grain: str) -> datetime:
    if grain == "second":
        return moment.replace(microsecond=0)
    if grain == "minute":
        return moment.replace(second=0, microsecond=0)
    if grain == "hour":
        return moment.replace(minute=0, second=0, microsecond=0)
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if grain == "week":
        return day - timedelta(days=day.weekday())
    if grain == "month":
        return day.replace(day=1)
    if grain == "year":
        return day.replace(month=1, day=1)
    return day


def _ok_or_invalid(
    now: datetime, delivery: datetime, expires: datetime, trunc: str | None = None
) -> Expect:
    if expires <= now or expires - delivery > _MAX_SPAN:
        return Expect("invalid_time")
    return Expect("ok", delivery.isoformat(), expires.isoformat(), trunc)


def frame(row: dict[str, Any], now: datetime) -> tuple[str, Expect]:
    """The command a user could say with the phrase, and what Duckling's value makes of it."""
    phrase, value = row["phrase"], row["value"]
    if value["type"] == "duration":
        expires = now + timedelta(seconds=value["seconds"])
        return f"{phrase} 동안 알림 꺼줘", _ok_or_invalid(now, now, expires)
    if value["type"] == "instant":
        moment = datetime.fromisoformat(value["value"])
        grain = value["grain"]
        if _WITHIN.search(phrase):
            return f"{phrase} 알림 꺼줘", _ok_or_invalid(now, now, moment, grain)
        stem = phrase[:-1] if phrase.endswith("에") else phrase
        return f"{stem}까지 알림 꺼줘", _ok_or_invalid(now, now, _period_end(moment, grain))
    text = f"{phrase} 알림 꺼줘"
    if value["to"] is None:
        return text, Expect("none")
    end = datetime.fromisoformat(value["to"])
    grain = value["grain"]
    if grain in _SUB_DAY and _RANGE.search(phrase):
        end -= _SUB_DAY[grain]
    # A window reports its own start, even one already under way (docs/time.md, decision 8).
    start = now if value["from"] is None else datetime.fromisoformat(value["from"])
    return text, _ok_or_invalid(now, start, end)


def _matches(expect: Expect | dict[str, Any], got: TimeResult) -> bool:
    want = asdict(expect) if isinstance(expect, Expect) else expect
    if want["outcome"] != got.outcome.value:
        return False
    if want["outcome"] != "ok":
        return True
    cond = got.condition
    if cond is None or cond.recurrence != "none":
        return False
    if cond.delivery != datetime.fromisoformat(want["delivery"]):
        return False
    expires = cond.expires
    if want.get("truncate"):
        expires = _truncate(expires, want["truncate"])
    return bool(expires == datetime.fromisoformat(want["expires"]))


def _classify(expect: Expect, got: TimeResult, decision: dict[str, Any] | None) -> str:
    outcome = got.outcome.value
    if expect.outcome == "ok" and _matches(expect, got):
        return "same"
    if decision is not None and _matches(decision, got):
        return "decided"
    if outcome in ("no_time", "unclear"):
        return "refused"
    if outcome == "invalid_time" and expect.outcome == "invalid_time":
        return "refused"
    return "different"


def _got(result: TimeResult) -> dict[str, Any]:
    cond = result.condition
    return {
        "outcome": result.outcome.value,
        "delivery": cond.delivery.isoformat() if cond else None,
        "expires": cond.expires.isoformat() if cond else None,
        "recurrence": cond.recurrence if cond else None,
        "reason": result.reason,
    }


Scope = dict[str, tuple[str, str]]  # phrase id -> (scope, why)


def load() -> tuple[list[dict[str, Any]], Scope, dict[str, tuple[str, dict[str, Any]]]]:
    rows = [
        json.loads(line)
        for line in (DATA / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
        if line
    ]
    scope = json.loads((DATA / "scope.json").read_text(encoding="utf-8"))
    out = {
        pid: (name, why)
        for name in ("out", "ask")
        for why, ids in scope[name].items()
        for pid in ids
    }
    decisions = json.loads((DATA / "decisions.json").read_text(encoding="utf-8"))
    decided = {
        pid: (d["name"], want) for d in decisions["decisions"] for pid, want in d["expect"].items()
    }
    return rows, out, decided


def compare() -> list[Row]:
    rows, out, decided = load()
    result: list[Row] = []
    for row in rows:
        now = datetime.fromisoformat(row["reference_time"])
        text, expect = frame(row, now)
        got = parse_time(text, now)
        name, want = decided.get(row["id"], (None, None))
        klass = _classify(expect, got, want)
        if row["id"] in out:
            scope = out[row["id"]][0]
        elif expect.outcome == "invalid_time" and want is None:
            scope = "past"
        else:
            scope = "in"
        result.append(
            Row(
                row["id"],
                row["phrase"],
                text,
                scope,
                klass,
                expect,
                _got(got),
                name if klass == "decided" else None,
                out.get(row["id"], ("", None))[1],
            )
        )
    return result


def summary(rows: list[Row]) -> dict[str, Any]:
    counts = {s: dict(Counter(r.klass for r in rows if r.scope == s)) for s in SCOPES}
    inscope = [r for r in rows if r.scope == "in"]
    both = [r for r in rows if r.scope in ("in", "ask", "past")]
    same = sum(r.klass == "same" for r in inscope)
    return {
        "phrases": len(rows),
        "scope": {s: sum(r.scope == s for r in rows) for s in SCOPES},
        "classes": {s: {k: counts[s].get(k, 0) for k in CLASSES} for s in SCOPES},
        "same_share_in": round(same / len(inscope), 4) if inscope else 0.0,
        "same_share_in_ask_past": round(same / len(both), 4) if both else 0.0,
        "decisions": dict(Counter(r.decision for r in rows if r.decision)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per phrase")
    parser.add_argument("--quiet", action="store_true", help="counts only")
    args = parser.parse_args(argv)
    rows = compare()
    if args.json:
        for r in rows:
            print(json.dumps(asdict(r), ensure_ascii=False))
        return 0
    print(json.dumps(summary(rows), ensure_ascii=False, indent=1))
    if not args.quiet:
        for scope in SCOPES:
            for klass in CLASSES:
                picked = [r for r in rows if r.scope == scope and r.klass == klass]
                if not picked:
                    continue
                print(f"\n## {scope} / {klass} ({len(picked)})")
                for r in picked:
                    note = r.decision or (r.got["reason"] if klass != "same" else "") or ""
                    got = r.got["outcome"]
                    if got == "ok":
                        got = f"{r.got['delivery'][5:16]} -> {r.got['expires'][5:16]}"
                    want = r.expect.outcome
                    if want == "ok" and r.expect.expires and r.expect.delivery:
                        want = f"{r.expect.delivery[5:16]} -> {r.expect.expires[5:16]}"
                    print(f"{r.id} {r.frame!r}: got {got}; duckling {want}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
