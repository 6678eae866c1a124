"""Putting the spaces back: commands typed without spaces, split at the words we know.

"카톡은놔두고인스타랑유튜브만꺼줘" → "카톡은 놔두고 인스타랑 유튜브만 꺼줘". Korean chat is often typed
with no spaces at all, and the slot reader reads words. Each run of Hangul is segmented by a
small dynamic programme over the pieces the project knows — app names (the alias table and this
request's installed labels), nouns and fillers of the lexicon, intent verbs with their endings,
particles after a word — with unknown stretches allowed but expensive. The cheapest
segmentation wins; its pieces become words, particles stay glued to the word before them
(the reader peels them itself).

Unknown stretches are kept whole rather than cut around a short known word inside them
("온라인" is not "온" + the app "라인"): an unknown piece costs far more than a known one, a
one-syllable known word may not touch an unknown piece, and an app may not be glued to an
unknown piece without a particle between them. A word we do not know therefore reaches the
reader intact, where it is either resolved or reported — never silently split into a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from notillm_local import lexicon
from notillm_local.lexicon import MappedText
from notillm_local.stages.words import TIME_GAP

# Costs of the pieces of one segmentation (lower is better).
_KNOWN = 1.0
_PARTICLE = 0.2
_UNKNOWN = 10.0
_UNKNOWN_PER_CHAR = 1.0
# A lone unknown syllable is almost never a word of its own: "하는데" is not "하는" + "데".
_UNKNOWN_ONE_SYLLABLE = 3.0
_APP_TOUCHES_UNKNOWN = 3.0
_MAX_UNKNOWN = 12  # longer unknown runs are split; keeps the programme linear in practice
_MAX_WORD = 16

_HANGUL_RUN = re.compile(r"[가-힣ㄱ-ㅎㅏ-ㅣ]+")
# Latin runs are segmented too, at app names only ("DiscordFacebook", "slackteams").
_RUN = re.compile(r"[가-힣ㄱ-ㅎㅏ-ㅣA-Za-z]+")
_LATIN_KEY = re.compile(r"[a-z0-9가-힣]*[a-z][a-z0-9가-힣]*")
# Characters a verb ending is made of ("꺼" + "줘", "받" + "을래요", "막" + "아주셈").
_ENDING_CHARS = frozenset(
    "줘주세요게고해하지마말아어라셈욤용조줭래자기는을음다요네야죠서도봐놔둬버려싶달면시되돼겠"
    "습니까쇼랑줄래요봐요히여염켜궁엽당욧옹잉유놓ㅋㅎㅠㅜㄱㅇ"
)

_APPROX = ("한", "약")
_STANDALONE_SYLLABLES = ("다", "좀", "싹", "폰", "앱", "중", "땐", "음", "쭉")

_START, _CONTENT, _PARTICLE_K, _VERB, _OTHER, _UNKNOWN_K, _SHORT = range(7)


@dataclass(frozen=True)
class _Piece:
    start: int
    end: int
    kind: int  # one of the kinds above (content = an app or a noun)


def _spelt_forms(pattern: str) -> set[str]:
    """The words a simple marker pattern spells: optional letters ("말고는?") both ways and
    optional spaces ("살려\\s*두고") left out."""
    forms = {""}
    text = pattern.replace("\\s*", "")
    for i, ch in enumerate(text):
        if ch == "?":
            continue
        optional = i + 1 < len(text) and text[i + 1] == "?"
        forms = {f + ch for f in forms} | (forms if optional else set())
    return {f for f in forms if f and re.fullmatch(pattern, f)}


@cache
def _lexicon_words() -> tuple[frozenset[str], frozenset[str]]:
    """(nouns and fillers, particles): the non-app pieces, normalised."""
    nouns: set[str] = set()
    for name in ("filler", "topics"):
        # Raw forms as well as keys: NFKC turns chat jamo ("ㄴㄴ") into other code points.
        nouns |= lexicon.words(name) | set(lexicon.raw_words(name))
    nouns |= {lexicon.normalise(w) for w in lexicon.raw_words("context", "context_word")}
    nouns |= {lexicon.normalise(w) for w in lexicon.raw_words("reading", "frame_words")}
    for word in ("말고", "대신", "알림"):
        nouns.add(word)
    # Every written form of the exception and keep markers is one piece: "살려두고" is not the
    # allow verb "살려" plus "두고".
    for section in ("except", "keep"):
        for form in lexicon.raw_words("markers", section):
            nouns |= _spelt_forms(form)
    # One-syllable words are kept only where they stand alone in chat ("알림다꺼줘"): most of
    # them ("온", "이", "저") are far more often a piece of a longer word we do not know.
    nouns = {w for w in nouns if len(w) > 1} | set(_STANDALONE_SYLLABLES)
    particles = set(lexicon.raw_words("particles", "suffixes"))
    particles |= set(lexicon.raw_words("filler", "thing_tails"))  # "들어간건": one word
    # Clause endings close the word they end, like a particle ("공부해야돼서알림다꺼줘" →
    # "공부해야돼서 알림 다 꺼줘", "운전중이라티맵만" → "운전중이라 티맵만"): the reader then sees
    # the reason clause.
    particles |= {
        e for e in lexicon.raw_words("context", "reason_end.endings")
        if len(e) >= 2 and _HANGUL_RUN.fullmatch(e)
    }
    particles |= set(lexicon.raw_words("context", "reason_end.glued_syllables"))
    return frozenset(nouns), frozenset(particles)


def _runs(text: str, apps: frozenset[str]) -> Iterator[tuple[re.Match[str], int | None]]:
    """The runs to segment. Where digits and the Latin start of a run make an installed label
    ("29" + "cm" of "29CM"), that Latin part comes alone, with the label's start, to be set
    apart whole; the rest of the mixed run ("알림" of "cm알림") is a run of its own."""
    pos = 0
    while True:
        run = _RUN.search(text, pos)
        if run is None:
            return
        gap = text[pos : run.start()]
        digits = re.search(r"[0-9]+$", gap)
        latin = re.match(r"[A-Za-z]+", run.group(0))
        if digits and latin and (digits.group(0) + latin.group(0)).lower() in apps:
            end = run.start() + latin.end()
            piece = _LATIN_RUN.match(text, run.start(), end)
            assert piece is not None
            yield piece, pos + digits.start()
            pos = end
            continue
        yield run, None
        pos = run.end()


_LATIN_RUN = re.compile(r"[A-Za-z]+")
_SLASHED = re.compile(r"\s*/\s*")


class Respacer:
    """Segments spacing-free Hangul runs at known words; one per process (tables are fixed)."""

    def __init__(self, app_words: Iterable[str]) -> None:
        self._apps = frozenset(
            k
            for k in (lexicon.normalise(w) for w in app_words)
            if k and (_HANGUL_RUN.fullmatch(k) or _LATIN_KEY.fullmatch(k))
        )
        self._nouns, self._particles = _lexicon_words()
        self._clause_ends = frozenset(lexicon.raw_words("context", "reason_end.glued_syllables"))
        self._splits_unknown = frozenset(lexicon.raw_words("context", "reason_end.splits_unknown"))
        self._mute = lexicon.pattern("intent", "mute")
        self._allow = lexicon.pattern("intent", "allow")

    def respace(self, text: str, extra_apps: Iterable[str] = ()) -> MappedText:
        """`text` with spaces inserted between the known words of each Hangul run."""
        # A label written with a slash ("다른 기기에서도 전화/문자하기") is cut into runs there:
        # each side is a piece of its own, so the words glued after it are found.
        labels = [p for w in extra_apps for p in (w, *(_SLASHED.split(w) if "/" in w else ())) if p]
        apps = self._apps | {
            k
            for k in (lexicon.normalise(w) for w in labels)
            if _HANGUL_RUN.fullmatch(k) or _LATIN_KEY.fullmatch(k)
        }
        out: list[str] = []
        origin: list[int] = []
        pos = 0
        for run, label_at in _runs(text, apps):
            if label_at is not None:
                # A label that opens with digits ("29CM") glued to the words around it
                # ("지그재그29cm알림"): a word of its own on both sides.
                out.append(text[pos:label_at])
                origin.extend(range(pos, label_at))
                if label_at and not text[label_at - 1].isspace():
                    out.append(" ")
                    origin.append(label_at)
                out.append(text[label_at : run.end()])
                origin.extend(range(label_at, run.end()))
                if run.end() < len(text) and not text[run.end()].isspace():
                    out.append(" ")
                    origin.append(run.end())
                pos = run.end()
                continue
            out.append(text[pos : run.start()])
            origin.extend(range(pos, run.start()))
            # A particle may open a run glued to a time expression or a Latin name ("Chrome은").
            before = text[run.start() - 1] if run.start() else " "
            after_time = before == TIME_GAP or before.isascii() and before.isalnum()
            latin = not _HANGUL_RUN.fullmatch(run.group(0))
            approx = (
                not latin
                and len(run.group(0)) > 1
                and run.group(0)[-1] in _APPROX
                and run.end() < len(text)
                and (text[run.end()] == TIME_GAP or text[run.end()].isdigit())
            )
            if latin and (
                (len(run.group(0)) < 6 and _LATIN_RUN.fullmatch(run.group(0)))
                or run.group(0).lower() in apps
            ):
                # One short Latin word or a known name, kept whole; the reader splits scripts
                # ("t맵막아줘" is no Latin word: it is segmented, "t맵" an app before the verb).
                pieces = [_Piece(0, len(run.group(0)), _CONTENT)]
            else:
                seg = run.group(0).lower() if latin else run.group(0)
                if approx:
                    # "음한20분": "한" (about) before a time is a word of its own.
                    pieces = self._segment(seg[:-1], apps, after_time=after_time)
                    pieces.append(_Piece(len(seg) - 1, len(seg), _SHORT))
                else:
                    pieces = self._segment(seg, apps, after_time=after_time)
            for n, piece in enumerate(pieces):
                if n and piece.kind != _PARTICLE_K:
                    out.append(" ")
                    origin.append(run.start() + piece.start)
                out.append(run.group(0)[piece.start : piece.end])
                origin.extend(range(run.start() + piece.start, run.start() + piece.end))
            pos = run.end()
        out.append(text[pos:])
        origin.extend(range(pos, len(text)))
        return MappedText("".join(out), tuple(origin), len(text))

    # -- the segmentation -----------------------------------------------------------------
    def _candidates(self, run: str, i: int, apps: frozenset[str]) -> list[tuple[int, int, float]]:
        """(end, kind, cost) of every known piece that starts at `i`."""
        out: list[tuple[int, int, float]] = []
        n = len(run)
        for end in range(min(n, i + _MAX_WORD), i, -1):
            word = run[i:end]
            if word in apps:
                out.append((end, _CONTENT, _KNOWN))
            elif word in self._nouns:
                out.append((end, _SHORT if end - i == 1 else _OTHER, _KNOWN))
            if word in self._particles:
                out.append((end, _PARTICLE_K, _PARTICLE))
        verbs = (self._mute, self._allow)
        for rx in verbs:
            m = rx.match(run, i)
            if m and m.end() > i:
                end = m.end()
                out.append((end, _VERB, _KNOWN))
                while end < n and run[end] in _ENDING_CHARS:
                    if run[end - 2 : end] == "면서" and any(r.match(run, end) for r in verbs):
                        break  # "끄면서켜줘": two verbs, the second no ending of the first
                    end += 1
                    out.append((end, _VERB, _KNOWN))
        return out

    def _segment(self, run: str, apps: frozenset[str], *, after_time: bool = False) -> list[_Piece]:
        n = len(run)
        if n <= 1:
            return [_Piece(0, n, _PARTICLE_K if after_time and run in self._particles else _UNKNOWN_K)]
        # best[i][k]: cheapest cover of run[:i] whose last piece has kind k.
        inf = float("inf")
        best: list[dict[int, tuple[float, int, int]]] = [dict() for _ in range(n + 1)]
        # Right after a time expression a particle may come first ("1시간은전화만").
        best[0][_CONTENT if after_time else _START] = (0.0, -1, -1)
        for i in range(n):
            if not best[i]:
                continue
            known = self._candidates(run, i, apps)
            for prev_kind, (cost, _, _) in list(best[i].items()):
                for end, kind, c in known:
                    if kind == _PARTICLE_K and prev_kind not in (_CONTENT, _UNKNOWN_K, _OTHER):
                        continue
                    if kind == _PARTICLE_K and prev_kind == _CONTENT and run[i:end] in self._clause_ends:
                        continue  # "문자중'연체'": among the messages, no clause about an app
                    if kind == _SHORT and prev_kind == _UNKNOWN_K:
                        continue
                    # A long app name ("배달민족") is no accident of the syllables around it.
                    extra = (
                        _APP_TOUCHES_UNKNOWN
                        if kind == _CONTENT and prev_kind == _UNKNOWN_K and end - i < 4
                        else 0
                    )
                    self._relax(best, end, kind, cost + c + extra, i, prev_kind)
                if prev_kind == _SHORT:
                    continue  # a one-syllable word may not touch an unknown stretch
                for end in range(i + 1, min(n, i + _MAX_UNKNOWN) + 1):
                    c = _UNKNOWN + _UNKNOWN_PER_CHAR * (end - i)
                    if end - i == 1:
                        c += _UNKNOWN_ONE_SYLLABLE
                    # (At 0 the "content" before is the time expression, no app.)
                    if prev_kind == _CONTENT and i and not _long_app_ends_at(best, i):
                        c += _APP_TOUCHES_UNKNOWN
                    self._relax(best, end, _UNKNOWN_K, cost + c, i, prev_kind)
        end_kind = min(best[n], key=lambda k: best[n][k][0], default=None)
        if end_kind is None or best[n][end_kind][0] == inf:
            return [_Piece(0, n, _UNKNOWN_K)]
        pieces: list[_Piece] = []
        i, kind = n, end_kind
        while i > 0:
            _, start, prev_kind = best[i][kind]
            pieces.append(_Piece(start, i, kind))
            i, kind = start, prev_kind
        pieces.reverse()
        return self._split_at_clause_ends(run, _merge_unknown(pieces), apps)

    def _split_at_clause_ends(
        self, run: str, pieces: list[_Piece], apps: frozenset[str]
    ) -> list[_Piece]:
        """An unknown stretch that holds a clause ending ("뮤지컬보러가니까넷플릭수") is a clause
        and the words after it: cut there, and segment the rest on its own. Only stretches left
        unknown are cut, so no reading of known words changes."""
        out: list[_Piece] = []
        for p in pieces:
            cut = None if p.kind != _UNKNOWN_K else self._clause_end_in(run[p.start : p.end])
            if cut is None:
                out.append(p)
                continue
            at, end = p.start + cut[0], p.start + cut[1]
            out += [_Piece(p.start, at, _UNKNOWN_K), _Piece(at, end, _PARTICLE_K)]
            out += [
                _Piece(end + q.start, end + q.end, q.kind)
                for q in self._segment(run[end : p.end], apps)
            ]
        return out

    def _clause_end_in(self, stretch: str) -> tuple[int, int] | None:
        """(start, end) of the first clause ending inside `stretch` with a word on each side."""
        for i in range(1, len(stretch) - 2):
            for e in self._splits_unknown:
                if stretch.startswith(e, i) and len(stretch) - (i + len(e)) >= 2:
                    return i, i + len(e)
        return None

    @staticmethod
    def _relax(
        best: list[dict[int, tuple[float, int, int]]],
        end: int,
        kind: int,
        cost: float,
        start: int,
        prev_kind: int,
    ) -> None:
        # A short unknown piece next to another unknown is one unknown word cut in two.
        if kind == _UNKNOWN_K and prev_kind == _UNKNOWN_K:
            cost += _UNKNOWN
        old = best[end].get(kind)
        if old is None or cost < old[0]:
            best[end][kind] = (cost, start, prev_kind)


def _long_app_ends_at(best: list[dict[int, tuple[float, int, int]]], i: int) -> bool:
    """Whether the cheapest cover of the run up to `i` ends in an app name of four syllables or
    more: an unknown word may follow it without the penalty a short name pays."""
    entry = best[i].get(_CONTENT)
    return entry is not None and i - entry[1] >= 4


def _merge_unknown(pieces: list[_Piece]) -> list[_Piece]:
    """Adjacent unknown pieces (a long unknown run) are one word to the reader."""
    out: list[_Piece] = []
    for p in pieces:
        if out and p.kind == _UNKNOWN_K and out[-1].kind == _UNKNOWN_K:
            out[-1] = _Piece(out[-1].start, p.end, _UNKNOWN_K)
        else:
            out.append(p)
    return out
