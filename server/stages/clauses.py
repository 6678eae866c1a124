"""How a turn is built: its intent verbs, its sentences and reason clauses, questions.

The slot reader asks these questions of a turn before it reads targets: where the command
starts (a long message tells a story first), which verbs are intent cues, whether the turn
asks about notifications instead of asking for a rule.
"""

from __future__ import annotations

import re

from notillm_local import lexicon
from notillm_local.stages.words import (
    TIME_GAP,
    Word,
    ends_reason_clause,
    is_filler,
    says_intent_verb,
    suffix_set,
    words,
)


def has_intent_cue(text: str) -> bool:
    """Whether any mute or allow verb appears (cheap; used before reading a sentence fully)."""
    text = lexicon.read_english(text).text
    return bool(mute_cue().search(text) or allow_cue_in(text))


def mute_cue() -> re.Pattern[str]:
    return lexicon.pattern("intent", "mute")


def allow_cue_in(text: str) -> bool:
    if lexicon.pattern("intent", "allow").search(text):
        return True
    # "알려 줘" asks for information ("오늘 뉴스 알려줘") unless notifications or "only" are named.
    return bool(
        lexicon.pattern("intent", "allow_if_named.cue").search(text)
        and lexicon.pattern("intent", "allow_if_named.needs").search(text)
    )


# "안"/"못" as a word of its own just before a verb (or its first syllables: "안 들어 오게").
_NEGATION_BEFORE = re.compile(r"(?:^|\s)(?:안|못)(?:\s+\S{1,3})?\s*$")


def negates_cue(text: str) -> bool:
    """An intent verb with "안"/"못" just before it, outside the cue ("안 울려도 돼", "안 꺼도
    돼"): the negation turns the verb around, and a reading that took the verb alone would do
    the opposite of what the user said. (Cues that hold their negation, "안 받을래", are read
    whole as mute cues.)"""
    # Allow verbs inside a mute cue ("받을" of "안 받을래") are that cue, not verbs of their own;
    # a "안" that opens a cue of its own ("안 뜨게 막아") negates that cue, not the next verb.
    unmuted = mute_cue().sub(lambda m: "#" * len(m.group(0)), text)
    found = [
        m for rx, within in ((mute_cue(), text), (lexicon.pattern("intent", "allow"), unmuted))
        for m in rx.finditer(within)
    ]
    for m in found:
        neg = _NEGATION_BEFORE.search(text[: m.start()])
        at = neg.start() + (neg.group(0)[:1].isspace()) if neg else -1
        if neg and not any(o.start() <= at < o.end() for o in found):
            return True
    return False


def asks_about_notifications(text: str) -> bool:
    """A question or condition about notifications that asks for no rule.

    "알림 끄면 배터리 덜 닳아?", "카톡 알림 꺼져 있어?"; but "카톡 2시간 꺼줄래?" is a request.
    """
    spec = "question_not_request"
    asks_for = lexicon.pattern("context", "reason_end.if_as_request")
    conditions = list(lexicon.pattern("reading", f"{spec}.conditional").finditer(text))
    if any(asks_for.search(text[m.end() :]) for m in conditions):
        return False  # "끄면 안 될까?": the condition asks for the verb, a request
    if conditions:
        return True
    if lexicon.pattern("reading", f"{spec}.asks_whether").search(text.strip()):
        return True
    if not lexicon.pattern("reading", f"{spec}.question_end").search(text.strip()):
        return False
    return not lexicon.pattern("reading", f"{spec}.request").search(text)


# A dot before a letter or digit is inside a name or number ("Windy.com", "1.5"), no full stop.
_SENTENCE_END = re.compile(r"(?:[!?。？！…]|\.(?![A-Za-z0-9]))+")


def context_end(text: str) -> int:
    """Offset where the context before the command ends (0 if there is none).

    A long message tells a story and then asks ("…단톡 알림이 계속 울려서 집중이 안돼. 한 2시간만
    카톡 좀 꺼줄래?"): the command is the last sentence with an intent verb, and everything
    before it — plus a reason clause that opens that sentence — is context, never a target,
    keyword or intent of the rule.
    """
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text)]
    spans = [(a, b) for a, b in zip(starts, [*starts[1:], len(text)], strict=True) if b > a]
    command = next(
        (a for a, b in reversed(spans) if _command_verb_at(text[a:b]) is not None),
        spans[-1][0] if spans else 0,
    )
    return command + _reason_clause_end(text[command:])


def opening_statement_end(text: str) -> int:
    """Offset where a short statement opening the message ends ("휴가 출발~ 슬랙 팀즈 꺼줘",
    "면접 들어감 팀즈 줌 알림 90분 꺼줘"), or 0. The caller checks that no app stands in it."""
    spec = "opening_statement"
    ws = words(text)
    brk = lexicon.pattern("context", f"{spec}.break").search(text)
    ending = lexicon.pattern("context", f"{spec}.endings", anchored="$")
    at = next((k for k, w in enumerate(ws) if ending.search(w.text)), None)
    # "공항 도착 완료": a statement may end in two such words.
    while at is not None and at + 1 < len(ws) and ending.search(ws[at + 1].text):
        at += 1
    end = 0 if at is None else ws[at].end
    if brk and (not end or brk.start() < end):
        end = brk.start()
    opening = [w for w in ws if w.end <= end]
    heading = brk is not None and end == brk.start() and brk.group().strip() == ":"
    limit = lexicon.data("context")[spec]["colon_max_words" if heading else "max_words"]
    if not opening or len(opening) > int(limit):
        return 0
    # "장바구니 그만 볼래 …": 그만 with a verb of doing something else is no verb of the rule
    # when the command's own verb follows.
    said = lexicon.pattern("context", f"{spec}.stop_doing").sub(" ", text[:end])
    if has_intent_cue(said) or (said != text[:end] and not has_intent_cue(text[end:])):
        return 0
    return end


def remark_start(text: str) -> int:
    """Offset where a remark after the command begins ("밤 9시까지 배민만 울리게 해줘 배달 기다리는
    중", "팀즈 꺼줘 휴가야"), or len(text) when the message ends with the command.

    Only when the last word ends like a remark and no intent verb stands after the command's:
    "꺼줘 카톡" still names its target after the verb.
    """
    cues = [
        m.end() for rx in (mute_cue(), lexicon.pattern("intent", "allow"))
        for m in rx.finditer(text)
    ]
    if not cues:
        return len(text)
    tail = [w for w in words(text[max(cues) :]) if w.text.strip(_TRAILING_MARKS)]
    if not tail:
        return len(text)
    # An emoticon typed onto the last word ("무서워서ㅠ") is no part of its ending.
    last = re.sub(r"[ㄱ-ㅎㅏ-ㅣ]+$", "", tail[-1].text.strip(_TRAILING_MARKS))
    before = tail[-2].text if len(tail) > 1 else ""
    if not (
        lexicon.pattern("context", "remark_end.endings", anchored="$").search(last)
        # "…꺼줘 지름신 오기 전에", "…꺼줘 운동하는 동안": a clause of its own after the command
        or lexicon.pattern("context", "reason_end.while").search(f"{before} {last}")
    ):
        return len(text)
    return max(cues) + tail[0].start


_TRAILING_MARKS = " .!?~…"


def _command_verb_at(text: str) -> int | None:
    """Offset of the first intent verb that is not inside a reason clause ("울려서", "끄면")."""
    ws = words(text)
    quoted = lexicon.pattern("context", "quoted_speech.endings", anchored="$")
    for k, w in enumerate(ws):
        # "받지 마", "울리지 않게": a negated verb may run over two words.
        nxt = ws[k + 1].text if k + 1 < len(ws) else ""
        split = w.text.endswith("지") and nxt.startswith(("마", "말", "않"))
        cue = mute_cue().search(f"{w.text} {nxt}" if split else w.text)
        if (cue and cue.start() < len(w.text) or allow_cue_in(w.text)) and (
            not ends_reason_clause(w.text, words_after(ws, k)) or joins_commands(w.text)
        ):
            if k + 1 < len(ws) and quoted.search(ws[k + 1].text):
                continue  # "엄마가 폰 좀 그만 보라고 …": someone else's words, quoted
            if k + 1 < len(ws) and _modifies_clause_end(w.text, ws[k + 1].text):
                continue  # "PT 받는 중이라": the verb describes what the user is doing
            if _tells_what_was_done(w.text, text[w.end :]):
                continue
            return w.start
    return None



def _tells_what_was_done(raw: str, rest: str) -> bool:
    """"촛불 켜놨어 … 알림 다 꺼": a verb in the past tells what the user already did; with an
    intent verb after it in the message, it closes a clause of context, not the command."""
    done = lexicon.pattern("context", "reason_end.done", anchored="$")
    return bool(done.search(raw)) and has_intent_cue(rest)


def _modifies_clause_end(verb: str, following: str) -> bool:
    """A verb in its modifier form ("받는", "끄던") before a word that closes a reason clause
    ("중이라", "중이라서"), or that closes it with the verb ("받는 중", "받는 동안"): the verb is
    part of that clause, not the command."""
    ending = lexicon.pattern("context", "modifier_end.endings", anchored="$")
    return bool(ending.search(verb)) and (
        ends_reason_clause(following) or ends_reason_clause(verb + following)
    )


def joins_commands(raw: str) -> bool:
    """An intent verb ending in "-면서" ("차단하면서 넷플만 허용해줘"): the first of two verbs of one
    command, said at the same time, not a reason for it ("운전하면서" has no intent verb)."""
    return bool(
        re.search(r"면서$", raw) and (mute_cue().search(raw) or allow_cue_in(raw))
    )


def _reason_clause_end(text: str) -> int:
    """Offset where the last reason/context clause before the command ends (0 if none).

    "과제 마감이라 그런데 세 시간 동안 알림 다 꺼줘": the clause ends after "그런데"; its words are
    context, never a target or keyword. Only clauses before the first intent verb count: the
    predicate comes last in Korean, and words after it are read as usual.
    """
    verb_at = _command_verb_at(text)
    if verb_at is None:
        verb_at = len(text)
    end = 0
    prev = ""
    ws = words(text)
    for k, w in enumerate(ws):
        if w.end > verb_at:
            break
        if (
            ends_reason_clause(w.text, words_after(ws, k))
            and not _is_only_app(w.text)
            and not joins_commands(w.text)
        ) or _tells_what_was_done(w.text, text[w.end :]):
            end = w.end
        elif verb_at < len(text) and (lexicon.pattern("context", "reason_end.while").search(
            f"{prev} {w.text}"
        ) or _modifies_time(w.text, text[w.end :])):
            # "달리기하는 동안": a while-clause the time parser has no length for; with no command
            # verb after it ("3시간째 유튜브 보는 중") the message is talk, left to the gate.
            end = w.end
        prev = w.text or prev
    return end


def _modifies_time(raw: str, after: str) -> bool:
    """"밥 먹는 이십오 분만": a verb in its modifier form right before the time says what the user
    does in it, a clause of its own ("운동하는 1시간 동안"); "오는", "울리는" and the command's own
    verbs are not such a clause."""
    return (
        raw.endswith("는") and len(raw) >= 2 and after.lstrip(" ").startswith(TIME_GAP)
        and not is_filler(raw) and not says_intent_verb(raw)
    )


def words_after(ws: list[Word], k: int) -> str:
    """The two words after `ws[k]`, which tell whether a condition asks for its verb."""
    return " ".join(w.text for w in ws[k + 1 : k + 3])


def _is_only_app(raw: str) -> bool:
    # "카톡이라서" is still a reason clause, but a bare particle word is not a clause end.
    return raw in suffix_set()


def blank_before(text: str, end: int) -> str:
    return " " * end + text[end:]


def tails(word: str) -> list[str]:
    """Every ending of a word: "카톡놔두고" → ["카톡놔두고", "톡놔두고", "놔두고", …]."""
    return [word[k:] for k in range(len(word))]


