"""The slot reading while it is being built: what each step of `RuleSlotReader` has found so
far, and the spans of the text it read. `SlotReading` is the frozen result (`Draft.done`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from notillm_local import lexicon
from notillm_local.domain import AppMatch, AppRef
from notillm_local.lexicon import MappedText
from notillm_local.stages.apps import Unresolved
from notillm_local.stages.reading import ReadSpan, SlotReading, SpanKind
from notillm_local.stages.words import Word, strip_suffixes


@dataclass
class Draft:
    """The reading while it is being built (SlotReading is frozen once done)."""

    text: MappedText
    mute: bool | None = None
    apps: list[tuple[int, AppMatch]] = field(default_factory=list)
    unresolved: list[tuple[int, Unresolved]] = field(default_factory=list)
    content: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    kept: list[tuple[int, AppMatch | Unresolved]] = field(default_factory=list)
    excepts_content: bool = False  # an exception marker right after a keyword frame
    both_ways: bool = False  # mute and allow verbs both in the command
    reason_apps: list[AppRef] = field(default_factory=list)  # apps named in a reason clause
    kept_by_verb: bool = False  # an allow verb that keeps the apps before it out ("켜 두고")
    cue_spans: list[tuple[int, int]] = field(default_factory=list)  # intent verbs (may span words)
    unknown: list[str] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)
    marked: list[str] = field(default_factory=list)
    says_all: bool = False
    residue: list[str] = field(default_factory=list)
    predicates: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    activity: str | None = None
    location: str | None = None
    cues: tuple[bool, bool] = (False, False)
    asks_about: bool = False
    contradicts: bool = False
    all_but: bool = False
    unsure: set[str] = field(default_factory=set)
    spans: list[ReadSpan] = field(default_factory=list)

    def read_again(self, ws: list[Word], i: int, match: AppMatch) -> None:
        """Word `i`, read as one app or an unknown one, names `match` with the next word."""
        self.apps = [(k, m) for k, m in self.apps if k != i] + [(i, match)]
        self.unresolved = [(k, m) for k, m in self.unresolved if k != i]
        a, b = self.text.span_in_source(ws[i].start, ws[i + 1].end)
        self.spans = [s for s in self.spans if s.end <= a or s.start >= b]
        self.mark(ws[i].start, ws[i + 1].end, "app", match.app.label)

    def app_at(self) -> set[int]:
        """Indices of the words read as apps so far, installed or not."""
        return {i for i, _ in self.apps} | {i for i, _ in self.unresolved}

    def mark(self, start: int, end: int, kind: SpanKind, label: str | None = None) -> None:
        a, b = self.text.span_in_source(start, end)
        if b > a:
            self.spans.append(ReadSpan(a, b, kind, label))

    def blank_laughter(self, text: str) -> str:
        """"ㅋㅋ", "ㅠㅠ", "^^" glued to a word ("슬랙ㅋㅋ") are filler, not part of the word."""

        def take(m: re.Match[str]) -> str:
            self.spans.append(ReadSpan(m.start(), m.end(), "filler"))
            # A full stop: people close a sentence with "ㅠㅠ" or "ㅋㅋ" as others do with ".".
            return "." * (m.end() - m.start())

        return lexicon.pattern("filler", "laughter").sub(take, text)

    def typed_onto_unread(self, ws: list[Word], i: int) -> bool:
        """Whether word `i` was typed onto the word before it (the space between is the
        respacer's) and that word is one nobody read."""
        w = ws[i]
        if not i or not w.start or self.text.origin[w.start - 1] != self.text.origin[w.start]:
            return False
        a, _ = self.text.span_in_source(ws[i - 1].start, ws[i - 1].end)
        return bool(self.unknown) and any(x.start == a and x.kind == "unread" for x in self.spans)

    def join_to_unread(self, before: Word, w: Word) -> None:
        """The unread word `before` and `w`, typed onto it, as one unread word."""
        self.unknown[-1] = strip_suffixes(before.text + w.text)
        if self.loose and self.loose[-1] == strip_suffixes(before.text):
            self.loose.pop()
        a, _ = self.text.span_in_source(before.start, before.end)
        self.spans = [x for x in self.spans if not (x.start == a and x.kind == "unread")]
        self.mark(before.start, w.end, "unread")

    def done(self) -> SlotReading:
        return SlotReading(
            # In the order the user named them, whichever step of the reading found each.
            apps=tuple(m for _, m in sorted(self.apps, key=lambda x: x[0])),
            unresolved=tuple(u for _, u in sorted(self.unresolved, key=lambda x: x[0])),
            content=tuple(self.content),
            quoted=tuple(self.quoted),
            excluded=tuple(self.excluded),
            unknown_words=tuple(self.unknown),
            loose_words=tuple(self.loose),
            marked_words=tuple(self.marked),
            says_all=self.says_all,
            time_residue=tuple(self.residue),
            predicates=tuple(self.predicates),
            devices=tuple(self.devices),
            activity=self.activity,
            location=self.location,
            intent_cues=self.cues,
            asks_about=self.asks_about,
            contradicts=self.contradicts,
            all_but=self.all_but,
            kept_out=tuple(r.app for _, r in self.kept if isinstance(r, AppMatch))
            if self.excluded else (),
            kept=tuple(r for _, r in sorted(self.kept, key=lambda x: x[0]))
            if self.excluded else (),
            mute=None if self.contradicts else self.mute,
            unsure=frozenset(self.unsure - ({"intent"} if self.contradicts else set())),
            spans=tuple(sorted(self.spans, key=lambda s: (s.start, s.end))),
        )
