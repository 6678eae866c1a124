"""Surface forms: how a word or a whole sentence is written, not what it says.

Particles after a final consonant (batchim), an app name's typo (one jamo or syllable off), the
case of a Latin name, and the spacing-free / partly spaced variants of a sentence.
"""

from __future__ import annotations

import random
import re

# --------------------------------------------------------------------------- surface helpers


def _batchim(word: str) -> bool:
    c = word.rstrip("'\"’” ")[-1:] or "a"
    if "가" <= c <= "힣":
        return (ord(c) - 0xAC00) % 28 != 0
    return c.lower() in "lmnr" or c in "013678"


def _p(word: str, with_b: str, without_b: str) -> str:
    return word + (with_b if _batchim(word) else without_b)


_JAMO_V = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_VOWEL_SWAP = {"ㅐ": "ㅔ", "ㅔ": "ㅐ", "ㅓ": "ㅗ", "ㅗ": "ㅓ", "ㅜ": "ㅡ", "ㅡ": "ㅜ", "ㅠ": "ㅜ",
               "ㅏ": "ㅑ", "ㅕ": "ㅓ", "ㅣ": "ㅢ", "ㅚ": "ㅙ", "ㅙ": "ㅚ"}
_FINALS = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ",
           "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]


def _syllable(c: str) -> tuple[int, int, int]:
    n = ord(c) - 0xAC00
    return n // 588, (n % 588) // 28, n % 28


def _compose(i: int, v: int, f: int) -> str:
    return chr(0xAC00 + i * 588 + v * 28 + f)


def latin_typo(word: str, rng: random.Random) -> str | None:
    """A Latin name of five letters or more with two letters swapped or one dropped ("temas",
    "slak"); None for other words."""
    if len(word) < 5 or not word.isascii() or not word.isalpha():
        return None
    i = rng.randrange(1, len(word) - 1)
    if rng.random() < 0.6:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + word[i + 1:]


def app_typo(word: str, rng: random.Random) -> str | None:
    """One jamo or syllable off, on a Hangul name of three syllables or more (else None)."""
    syl = [i for i, c in enumerate(word) if "가" <= c <= "힣"]
    if len(syl) < 3:
        return None
    pos = rng.choice(syl[1:])
    i, v, f = _syllable(word[pos])
    k = rng.random()
    if k < 0.4 and _JAMO_V[v] in _VOWEL_SWAP:
        new = _compose(i, _JAMO_V.index(_VOWEL_SWAP[_JAMO_V[v]]), f)
    elif k < 0.75:
        new = _compose(i, v, 0 if f else rng.choice([4, 8, 16, 21]))  # drop / add a final
    elif pos == syl[-1]:
        return word[:pos] + word[pos + 1:]  # last syllable dropped
    else:
        new = word[pos] * 2  # a syllable doubled
    return word[:pos] + new + word[pos + 1:]


def latin_case(word: str, rng: random.Random) -> str:
    if not re.search(r"[A-Za-z]", word):
        return word
    return rng.choice([word, word.lower(), word.upper(), word.title(), word.lower()])


# --------------------------------------------------------------------------- surface variants


def spacing_free(text: str) -> str:
    return re.sub(r"\s+", "", text)


def some_spaces_gone(text: str, r: random.Random) -> str:
    parts = text.split(" ")
    out = parts[0]
    for p in parts[1:]:
        out += ("" if r.random() < 0.5 else " ") + p
    return out
