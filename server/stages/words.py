"""Words of a turn: splitting with offsets, peeling particles, telling verbs from nouns.

Shared by the slot reader, the router and the extractor, so every stage cuts a sentence into
words, and a word into its stem, the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from notillm_local import lexicon
from notillm_local.lexicon import normalise

_TOKEN = re.compile(r"[^\s,，、.!?~…;:()\[\]{}'\"‘’“”「」『』`]+")
# Script changes inside a token are word breaks too ("slack만" → "slack", "만").
_SCRIPT_BREAK = re.compile(r"(?<=[가-힣])(?=[A-Za-z])|(?<=[A-Za-z])(?=[가-힣])")


@dataclass(frozen=True)
class Word:
    text: str
    start: int  # offsets in the text the word was cut from
    end: int


def words(text: str) -> list[Word]:
    """The words of `text` with their offsets (spaces, punctuation and script changes split)."""
    out: list[Word] = []
    for m in _TOKEN.finditer(text):
        token, base = m.group(0), m.start()
        cut = 0
        for b in _SCRIPT_BREAK.finditer(token):
            out.append(Word(token[cut : b.start()], base + cut, base + b.start()))
            cut = b.start()
        out.append(Word(token[cut:], base + cut, base + len(token)))
    return [w for w in out if w.text]


# What a time span becomes once the time parser has read it: a space of its own kind, so word
# breaks and offsets stay, and the next word may begin with a particle ("1시간은", "3시까지만").
TIME_GAP = "\u3000"


def blank_spans(text: str, spans: Sequence[tuple[int, int]], fill: str = " ") -> str:
    """Replace spans by `fill`, keeping offsets and word breaks."""
    chars = list(text)
    for start, end in spans:
        for i in range(max(0, start), min(len(chars), end)):
            chars[i] = fill
    return "".join(chars)


@cache
def _suffixes() -> tuple[str, ...]:
    return tuple(sorted(lexicon.raw_words("particles", "suffixes"), key=len, reverse=True))


@cache
def suffix_set() -> frozenset[str]:
    return frozenset(_suffixes())


def peel(token: str) -> list[str]:
    """The token and the shorter forms left by peeling particles or suffixes off its end.

    "카톡만" → ["카톡만", "카톡"]; "페이랑" → ["페이랑", "페", "페이"] ("이랑" or "랑"). The form
    left by the longest suffix comes first, as before; the others follow, so a lookup that
    tries every form finds "삼성 페이". Callers take the first form they know, so a word that
    merely ends like a particle ("모든", "카톡") is not cut short.
    """
    forms = [token]
    frontier = [token]
    for _ in range(3):
        nxt: list[str] = []
        for word in frontier:
            for suf in _suffixes():
                if len(word) > len(suf) and word.endswith(suf):
                    stem = word[: -len(suf)]
                    if stem not in forms:
                        forms.append(stem)
                        nxt.append(stem)
        frontier = nxt[:4]
        if not frontier:
            break
    return forms[:12]


def is_filler(word: str) -> bool:
    key = normalise(word)
    fillers = lexicon.words("filler")
    if key in fillers:
        return True
    # "해줘용", "해줘잉": a filler verb with a colloquial tail (a stem of two letters or more, so
    # "다" + "용" is no filler).
    # "들어간건", "오는거": 것 shortened and glued on, likewise.
    return any(
        key.endswith(t) and len(key) - len(t) >= 2 and key[: -len(t)] in fillers
        for tails in ("colloquial_tails", "thing_tails")
        for t in lexicon.words("filler", tails)
    )


def is_topic(word: str) -> bool:
    return normalise(word) in lexicon.words("topics")


def strip_suffixes(token: str) -> str:
    """The surest bare form of a token: a form some word list knows, else one peel at most."""
    forms = peel(token)
    for f in forms:
        if is_filler(f) or is_topic(f):
            return f
    # A word no list knows keeps a syllable-long ending rather than shrink to one syllable
    # ("클로" is no "클" + 로: one syllable is no name, and it had been let go as no target).
    if len(forms) > 1 and not (len(forms[1]) == 1 and "가" <= forms[1] <= "힣"):
        return forms[1]
    return forms[0]


def is_verb(raw: str) -> bool:
    """Predicates end in verbal endings; app names and topics do not."""
    if says_intent_verb(raw):
        return True
    if re.search(r"[하되]", raw) and lexicon.pattern("reading", "verb_endings").search(raw):
        return True
    if len(raw) >= 2 and lexicon.pattern("reading", "request_ending").search(raw):
        return True  # "잡아줘", "틀어줘": a request, for something other than notifications
    if len(raw) >= 3 and raw.endswith("는") and not raw.endswith(("에서는", "에는", "으로는")):
        return True  # "끝나는", "오는": a verb describing the next word
    return (
        len(raw) >= 2
        and bool(lexicon.pattern("reading", "final_ending").search(raw))
        and bool(lexicon.pattern("reading", "final_stem").search(raw))
    )


def ends_reason_clause(raw: str, following: str = "") -> bool:
    """Whether a word closes a reason or context clause ("마감이라", "들어가야돼서", "그런데");
    `following` is the text after it ("끄면" before "안 될까?" asks for the verb: no clause)."""
    if normalise(raw) in lexicon.words("context", "reason_end.words"):
        return True
    if raw.endswith("면") and lexicon.pattern("context", "reason_end.if_as_request").search(following):
        return False
    purpose = lexicon.raw_words("context", "reason_end.purpose_motion.ending")[0]
    if raw.endswith(purpose) and len(raw) > len(purpose):
        # "운동하러 가요" is a clause; "램블러 알림" names an app whatever its last syllable.
        return bool(lexicon.pattern("context", "reason_end.purpose_motion.motion").search(following))
    if _names_before_only(raw):
        return False
    if lexicon.pattern("context", "reason_end.endings", anchored="$").search(raw):
        return not (
            lexicon.pattern("context", "reason_end.insisted", anchored="$").search(raw)
            and says_intent_verb(raw)
        )
    # A purpose clause ("공부 좀 하게", "카운트다운 보게"): ~게 on a verb that is no intent cue
    # ("받게", "울리게", "조용하게" are the command's own verbs, "오지 않게" one negated).
    ending = lexicon.raw_words("context", "purpose_end.ending")[0]
    return (
        raw.endswith(ending) and len(raw) > len(ending)
        and not raw.endswith(lexicon.raw_words("context", "purpose_end.not_after"))
        and not says_intent_verb(raw)
    )


def _names_before_only(raw: str) -> bool:
    """"힌지만", "챌린지만": a name ending in ㄴ+지 and 만 ("only"), not "-지만" (but). No verb
    stem of a "-지만" clause ends in a lone ㄴ ("좋지만", "했지만", "비싸지만")."""
    if not raw.endswith("지만") or len(raw) < 3 or not "가" <= raw[-3] <= "힣":
        return False
    return (ord(raw[-3]) - 0xAC00) % 28 == 4  # the syllable's final is ㄴ


def says_intent_verb(raw: str) -> bool:
    return bool(
        lexicon.pattern("intent", "mute").search(raw) or lexicon.pattern("intent", "allow").search(raw)
    )


def keyword_candidates(text: str) -> list[str]:
    """The prompt's own words, particles peeled, as the only keywords the model may choose."""
    out: list[str] = []
    for tok in re.split(r"[\s,.!?~'\"‘’“”]+", text):
        w = strip_suffixes(tok)
        if len(w) >= 1 and w not in out and not re.fullmatch(r"[0-9]+", w):
            out.append(w)
    return out[:40]
