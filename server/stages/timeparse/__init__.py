"""Korean time expressions -> exact rule times, in code (no model, no network).

Follows the "Time axes" section of CONTRACT.md. The parser works in three passes:

1. lex: one left-to-right regex scan finds time tokens (numbers with units, clock times,
   day words, weekdays, recurrence words) together with the marker that follows each one
   (까지, 부터, 동안, 뒤 ...), which decides the token's role;
2. attach: day words and day parts ("내일", "밤") bind to the clock time right after them;
3. interpret: the roles decide the axis, and the resolver turns clock readings into instants
   using only ``now`` and its fixed UTC offset (never the process time zone).

Words beside a time that look like part of it but are not read ("첫째 주", "격주", "말일") are
reported as ``unread`` and make the outcome ``unclear``: asking beats a rule with the modifier
dropped. English time words mixed into Korean come from the data file lexicon/time_en.json.

Decisions the contract leaves open are documented in docs/time.md.

The package is split by pass; each module says what it does:

- ``results``: the public result types (and ``_Fail``, a non-OK outcome raised inside);
- ``vocabulary``: number words, units, markers, English words (lexicon/time_en.json);
- ``numbers``: reading number words and pairing them with units;
- ``model``: internal types: tokens, day references, clock readings, lengths, plan;
- ``dates``: calendar arithmetic;
- ``tokens`` and ``lex``: pass 1 (token builders; the scan, markers and roles);
- ``unread``: words beside a time that are not read;
- ``attach``: pass 2;
- ``plan``, ``resolve`` and ``recurring``: pass 3 (roles, one-off and recurring rules);
- ``parse``: ``parse_time``, which runs the passes.
"""

from __future__ import annotations

from notillm_local.domain import TimeCondition
from notillm_local.stages.timeparse.parse import parse_time
from notillm_local.stages.timeparse.results import TimeAxis, TimeOutcome, TimeResult, TimeSpan

__all__ = [
    "TimeAxis",
    "TimeCondition",
    "TimeOutcome",
    "TimeResult",
    "TimeSpan",
    "parse_time",
]
