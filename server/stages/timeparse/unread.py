"""Words beside a time that look like part of it but are not read.

"첫째 주", "격주", "말일", a holiday, a number glued to a time with no unit: the parser cannot read
them exactly, and dropping them would change the rule, so they are reported as ``unread`` and
make the outcome ``unclear`` (asking beats guessing). This runs beside the lexer, over the same
scan text and tokens, and decides nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from notillm_local.stages.timeparse.model import _Role, _Token
from notillm_local.stages.timeparse.vocabulary import (
    _EN,
    _HOLIDAYS,
    _ORD_RE,
    _REMARK_AFTER,
    _SINO_MULTI_RE,
    _en_alt,
)

# Words that look like part of a time but are not read. Strong ones are time words on their
# own (flagged beside a time or before a time marker); weak ones only when right beside a time.
_UNREAD_STRONG = re.compile(
    rf"격주|다다음\s*(?:주|달)?|(?<![가-힣])말\s*(?:쯤|께|경)|말일|월말|월초|(?<=[주달])\s*(?:초반|중반|후반)|연말|연초|초순|중순|하순|주초|매달|매월|매년"
    rf"|반나절|한나절|분기|(?:이|요|그)\s*맘\s*때|{_ORD_RE}\s*주(?=$|[^가-힣]|에|엔|부터|까지|동안|내내)"
    rf"|(?<![가-힣\d])시간\s*반|(?<![가-힣\d])시반|{_HOLIDAYS}|{_en_alt(_EN['time_zones'])}"
)
_WEAK_WORDS = (
    # "폰 못 봄" is "can't look at the phone" (보다 in -ㅁ), not the spring.
    rf"(?:{_ORD_RE}(?:\s*주|\s*날)?|이번|다음|여름|겨울|(?<!못)(?<!안)(?<!못\s)(?<!안\s)봄|가을"
    rf"|{_en_alt(_EN['unread_modifiers'])}|{_en_alt(_EN['time_zones'])})"
)
_WEAK_BEFORE = re.compile(rf"({_WEAK_WORDS})\s*$")
_WEAK_AFTER = re.compile(rf"\s*({_WEAK_WORDS})")
# "몇 시간 동안" (a few hours) is vague; "몇 시야?" alone is a question, not a time.
_UNREAD_VAGUE = re.compile(
    r"몇\s*(?:시간|분|초|일|주|달|개월|년)(?=\s*(?:동안|간|만|뒤|후|안|내|이내|까지|전|이후|쯤|정도))"
    r"|(?<![가-힣])한\s*몇\s*(?:시간|분|일|주|달|개월)"  # "한 몇 시간": some hours, no length
)
# Glued to a time with no blank: a number with no unit ("1시간30", "오후3까지").
_GLUED_AFTER = re.compile(rf"\d+(?:\.\d+)?|{_SINO_MULTI_RE}")
_GLUED_BEFORE = re.compile(r"\d+(?:\.\d+)?$")
# A number with a unit the parser does not know, before a time marker ("30m 동안").
_UNREAD_UNIT = re.compile(
    r"(?<![a-z\d])\d+(?:\.\d+)?\s?[a-z]+(?=\s*(?:까지|부터|동안|간|뒤|후|안에|내에|이내))"
)
# "추석 때부터": 때 ("the time of") may stand between the word and its marker, and so may an
# approximation ("중순쯤까지", "연말께까지").
_TIME_MARK_AFTER = re.compile(
    r"(?:\s*(?:쯤|께|경|무렵|정도))?(?:\s*때)?(?:\s*(?:까지|부터|동안|마다|내내|이후)|(?:에는|에도|에|로|전|후|간|안|내)(?![가-힣]))"
)


def _unread(scan: str, tokens: Sequence[_Token]) -> list[tuple[int, int]]:
    """Words inside or beside the time that look like part of it but were not read."""
    taken = sorted((t.start, t.end) for t in tokens if t.end > t.start)

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    def modifies(end: int) -> bool:
        # Right before a time ("격주 월요일", "설날 밤 10시까지"); after one, a time word is
        # usually the next part of the sentence ("2시간 동안 크리스마스 이벤트 알림").
        return any(end <= a and not scan[end:a].strip() for a, _ in taken)

    found: list[tuple[int, int]] = []
    for strong in _UNREAD_STRONG.finditer(scan):
        start, end = strong.span()
        if free(start, end) and (modifies(end) or _TIME_MARK_AFTER.match(scan, end)):
            found.append((start, end))
    # Weak words and glued numbers only count right beside a token: anchored look-ups around
    # each token keep this linear in the number of tokens.
    for i, (a, b) in enumerate(taken):
        lo = taken[i - 1][1] if i else 0
        hi = taken[i + 1][0] if i + 1 < len(taken) else len(scan)
        for weak in (_WEAK_BEFORE.search(scan, max(lo, a - 16), a), _WEAK_AFTER.match(scan, b, hi)):
            if weak:
                found.append(weak.span(1))
        for glued in (
            _GLUED_BEFORE.search(scan, max(lo, a - 8), a),
            _GLUED_AFTER.match(scan, b, hi),
        ):
            if glued and glued.end() > glued.start():
                found.append(glued.span())
    for pattern in (_UNREAD_UNIT, _UNREAD_VAGUE):
        for other in pattern.finditer(scan):
            if free(*other.span()):
                found.append(other.span())
    return sorted(set(found))


# A remark closes with 이네/인데… or a break in the message ("올해 마지막 밤.. 늦잠 잘 거니까 …").
_REMARK_BREAK = re.compile(r"\s*(?:\.{2,}|…+|~+|!+|ㅠ+|ㅜ+|ㅋ+|ㅎ+)")
# "3월 마지막 밤이네": a day part glued to the remark's ending is no time token of its own.
_DAYPART_OF_REMARK = re.compile(r"\s*(?:밤|낮|아침|저녁|새벽)(?=이네|인데|이야|이라|이니|이잖아|임(?![가-힣]))")


def _said_about_now(
    scan: str, tokens: list[_Token], unread: Sequence[tuple[int, int]]
) -> tuple[list[_Token], list[tuple[int, int]]]:
    """"2월 마지막 날이네, …", "올해 마지막 밤.. …": a day the parser cannot read, said about now
    (a remark closed by 이네/인데 or a break), is no part of the rule's time. It and the plain
    time words right beside it ("2월", "밤") are dropped; the rest of the message says the time.
    Returns the tokens and the unread spans left."""
    by_start = sorted(tokens, key=lambda t: t.start)
    dropped: set[int] = set()
    kept: list[tuple[int, int]] = []
    for a, b in unread:
        beside, end = [], b
        for t in by_start:  # the plain time words right after it ("마지막 밤")
            if t.start >= end and not scan[end : t.start].strip() and t.role is _Role.AT and not t.mark:
                beside.append(t)
                end = t.end
        if not beside and (part := _DAYPART_OF_REMARK.match(scan, end)):
            end = part.end()
        if not (_REMARK_AFTER.match(scan, end) or _REMARK_BREAK.match(scan, end)):
            kept.append((a, b))
            continue
        start = a
        for t in reversed(by_start):  # …and right before it ("2월 마지막 날")
            if t.end <= start and not scan[t.end : start].strip() and t.role is _Role.AT and not t.mark:
                beside.append(t)
                start = t.start
        dropped |= {id(t) for t in beside}
    return [t for t in tokens if id(t) not in dropped], kept

