"""meta.trace spans: which stretch of each turn was read as what (opt-in, never logged)."""

from __future__ import annotations

from collections.abc import Sequence

from notillm_local.contract.schemas import TraceSpan
from notillm_local.stages.turn import Turn


def spans_of(turns: Sequence[tuple[str, Turn]]) -> list[TraceSpan]:
    """Time spans and slot spans of each turn, one entry per stretch, in text order.

    Where a turn was read twice (a follow-up's replacement words), the last reading counts.
    """
    latest: dict[str, Turn] = {}
    for name, turn in turns:
        latest[name] = turn
    out: list[TraceSpan] = []
    for name, turn in latest.items():
        text = turn.text
        axis = turn.time.axis.value if turn.time.axis is not None else None
        for s in turn.time.spans:
            out.append(_span(name, text, s.start, s.end, "time", axis))
        for s in turn.time.unread:
            out.append(_span(name, text, s.start, s.end, "unread", "time"))
        for r in turn.slots.spans:
            out.append(_span(name, text, r.start, r.end, r.kind, r.label))
    out.sort(key=lambda s: (s.turn, s.start, s.end))
    return out


def _span(turn: str, text: str, start: int, end: int, kind: str, label: str | None) -> TraceSpan:
    start, end = max(0, start), min(len(text), end)
    return TraceSpan(
        turn=turn,  # type: ignore[arg-type]
        start=start,
        end=end,
        text=text[start:end],
        kind=kind,  # type: ignore[arg-type]
        label=label,
    )
