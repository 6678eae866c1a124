"""How a typed word slips from the name it means: one jamo off, a letter said alike, two vowels
or two Latin letters swapped. The app mapper (apps.py) asks these of words no table knows."""

from __future__ import annotations

import unicodedata


def _is_final(jamo: str) -> bool:
    """A Hangul final consonant (jongseong) as NFD writes it."""
    return "\u11a8" <= jamo <= "\u11c2"


# Letters that are the same letter as said, so chat types one for the other: initial consonants
# (NFD choseong) that differ only in force — ㄱㄲㅋ, ㄷㄸㅌ, ㅂㅃㅍ, ㅈㅉㅊ, ㅅㅆ ("카똑", "까톡") — and
# vowels Korean no longer tells apart in speech — ㅐ/ㅔ, ㅒ/ㅖ, ㅙ/ㅞ/ㅚ ("벤드" for 밴드).
_SAID_ALIKE = {
    c: n for n, group in enumerate((
        "\u1100\u1101\u110f", "\u1103\u1104\u1110", "\u1107\u1108\u1111",
        "\u110c\u110d\u110e", "\u1109\u110a",
        "\u1162\u1166", "\u1164\u1168", "\u116b\u1170\u116c",
    ))
    for c in group
}


def _one_letter_said_alike(a: str, b: str) -> bool:
    """Whether two jamo strings differ in exactly one letter, the two said alike (`_SAID_ALIKE`)."""
    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(diff) == 1 and _SAID_ALIKE.get(diff[0][0], -1) == _SAID_ALIKE.get(diff[0][1], -2)


# The vowel keys of the standard two-set (dubeolsik) keyboard by (row, column), rows staggered
# as on a phone: a thumb that slips lands on a neighbour ("쿠펑", "쿠퍙" for 쿠팡).
_VOWEL_KEYS = {
    "\u116d": (0, 5), "\u1167": (0, 6), "\u1163": (0, 7), "\u1162": (0, 8), "\u1166": (0, 9),
    "\u1169": (1, 5), "\u1165": (1, 6), "\u1161": (1, 7), "\u1175": (1, 8),
    "\u1172": (2, 4), "\u116e": (2, 5), "\u1173": (2, 6),
}


def _keys_touch(a: str, b: str) -> bool:
    """Two vowel keys side by side, or one above the other (the row above sits half a key to
    the right, as the middle row does over the bottom one)."""
    (ra, ca), (rb, cb) = _VOWEL_KEYS[a], _VOWEL_KEYS[b]
    if ra == rb:
        return abs(ca - cb) == 1
    if abs(ra - rb) != 1:
        return False
    upper, lower = ((ca, cb) if ra < rb else (cb, ca))
    return lower - upper in (0, -1) if min(ra, rb) == 0 else upper - lower in (0, 1)


def last_vowel_slipped(a: str, b: str) -> bool:
    """Whether two jamo strings differ only in the vowel of their last syllable, by a key next
    to it ("쿠펑" for 쿠팡; `b` is the typed word): a slip of the thumb, not another word's vowel ("문제" is no "문자": ㅔ
    and ㅏ are far apart)."""
    if len(a) != len(b):
        return False
    diff = [k for k in range(len(a)) if a[k] != b[k]]
    if len(diff) != 1 or a[diff[0]] not in _VOWEL_KEYS or b[diff[0]] not in _VOWEL_KEYS:
        return False
    if b[diff[0]] in _SAID_ALIKE:
        # A typed ㅐ or ㅔ may be the other one of a real word ("문재" for 문제), not a slip.
        return False
    # The vowel of the last syllable: no vowel after it.
    return not any("\u1161" <= c <= "\u1175" for c in a[diff[0] + 1 :]) and _keys_touch(
        a[diff[0]], b[diff[0]]
    )


def _jamo(word: str) -> str:
    """Hangul syllables decomposed into their letters (NFD), so a typo is one small edit."""
    return unicodedata.normalize("NFD", word)


def _vowels_swap(a: str, b: str) -> bool:
    """Two jamo strings alike but for two vowels (medial jamo) in each other's place."""
    if len(a) != len(b):
        return False
    diff = [k for k in range(len(a)) if a[k] != b[k]]
    return (
        len(diff) == 2 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        and all("\u1161" <= a[k] <= "\u1175" for k in diff)
    )


def jamo_distance(a: str, b: str) -> int:
    """Edit distance between two words letter by letter (jamo): "스랙" is 1 from "슬랙"."""
    from rapidfuzz.distance import Levenshtein

    return int(Levenshtein.distance(_jamo(a), _jamo(b)))


def _near_in_jamo(a: str, b: str) -> bool:
    """One jamo apart, or a quarter of the longer word's jamo at most ("링크딘" for 링크드인, a
    syllable said short; "네이트온" is five jamo from 네이버's six: another name)."""
    d = jamo_distance(a, b)
    return d <= max(1, len(_jamo(max(a, b, key=len))) // 4)


def latin_slip(a: str, b: str) -> bool:
    """Whether two Latin names of five letters or more are one slip apart: a letter wrong, left
    out or added, or two neighbours swapped ("gmial" for gmail)."""
    from rapidfuzz.distance import OSA

    return a != b and min(len(a), len(b)) >= 5 and OSA.distance(a, b) <= 1


def syllables_abbreviate(short: str, name: str) -> bool:
    """Whether a word of two or three syllables cuts a name down to syllables of its parts, in
    order and from its first ("뱅샐" for 뱅크샐러드, "케뱅" for 케이뱅크), as chat shortens names."""
    if not 2 <= len(short) <= 3 or short[0] != name[0]:
        return False
    at = 1
    for ch in short[1:]:
        at = name.find(ch, at + 1)  # a later part, not the next syllable of the first
        if at < 0:
            return False
    return True


def one_syllable_slipped(typed: str, name: str) -> bool:
    """Whether a Hangul name of four syllables or more is typed with one syllable after the
    first two letters (jamo) off ("카카오텃" for 카카오톡: a thumb on the wrong vowel and final).
    The other syllables say the name; a shorter word has too few left to say it."""
    if len(typed) != len(name) or len(name) < 4 or not (typed + name).isalpha():
        return False
    diff = [k for k in range(len(name)) if typed[k] != name[k]]
    return (
        len(diff) == 1 and diff[0] > 0 and all("가" <= c <= "힣" for c in typed + name)
        and jamo_distance(typed[diff[0]], name[diff[0]]) <= 2
    )

