"""How a name sounds, across scripts: "부킹닷컴" and "Booking.com", "핏빗" and "Fitbit".

A device may show an app by its Latin label while the user types its Korean transliteration (or
the other way round). No table can list every app on every device, but Korean writes English
loanwords by a small set of regular sound rules: each consonant has one or two Hangul letters,
vowels shift, an extra ㅡ or 이 breaks up consonant clusters ("스", "크"), and an "r" with no
vowel after it is not written ("에어비앤비" for Airbnb). So both sides are reduced to their
consonants in a few sound classes, and two names match when those skeletons are (nearly) the
same. Vowels are left out: they are what transliteration changes most.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Sound classes: B (b p f v / ㅂ ㅍ ㅃ), K (k g c q / ㄱ ㅋ ㄲ), T (t d / ㄷ ㅌ ㄸ, a final
# ㅅ as loanwords write a final t), S (s z j ch sh th / ㅅ ㅆ ㅈ ㅊ ㅉ), L (l r / ㄹ), M, N,
# G (the "ng" sound / final ㅇ), H (h / ㅎ).
_INITIAL = {
    "ᄀ": "K", "ᄁ": "K", "ᄏ": "K", "ᄃ": "T", "ᄄ": "T", "ᄐ": "T",
    "ᄇ": "B", "ᄈ": "B", "ᄑ": "B", "ᄉ": "S", "ᄊ": "S", "ᄌ": "S", "ᄍ": "S", "ᄎ": "S",
    "ᄅ": "L", "ᄆ": "M", "ᄂ": "N", "ᄒ": "H", "ᄋ": "",
}
_FINAL = {
    "ᆨ": "K", "ᆩ": "K", "ᆿ": "K", "ᆫ": "N", "ᆮ": "T", "ᆺ": "T", "ᆻ": "T", "ᆽ": "T",
    "ᆾ": "T", "ᇀ": "T", "ᇂ": "T", "ᆯ": "L", "ᆷ": "M", "ᆸ": "B", "ᇁ": "B", "ᆼ": "G",
}
_LATIN_DIGRAPHS = (
    ("ph", "B"), ("sh", "S"), ("ch", "S"), ("th", "S"), ("ck", "K"), ("qu", "K"), ("ng", "G"),
    ("nk", "GK"), ("wh", ""),
)
_LATIN = {
    "b": "B", "p": "B", "f": "B", "v": "B", "k": "K", "g": "K", "q": "K", "c": "K",
    "t": "T", "d": "T", "s": "S", "z": "S", "j": "S", "x": "KS", "l": "L", "r": "L",
    "m": "M", "n": "N", "h": "H",
}
_VOWELS = frozenset("aeiouy")
_HANGUL = re.compile(r"[가-힣]")
_LATIN_WORD = re.compile(r"[A-Za-z]")


# Latin letters as Korean says them: "카카오티" is 카카오T, "케이비스타" KB스타, "티맵" T맵.
_LETTER_NAMES = {
    "a": "에이", "b": "비", "c": "씨", "d": "디", "e": "이", "f": "에프", "g": "지", "h": "에이치",
    "i": "아이", "j": "제이", "k": "케이", "l": "엘", "m": "엠", "n": "엔", "o": "오", "p": "피",
    "q": "큐", "r": "알", "s": "에스", "t": "티", "u": "유", "v": "브이", "w": "더블유", "x": "엑스",
    "y": "와이", "z": "지",
}
# English number words are a closed set: their Hangul spellings are listed, not heard. A digit
# right after the letters is said in English too ("F1": 에프원).
_EN_ONES = (
    "제로 원 투 쓰리 포 파이브 식스 세븐 에잇 나인 텐 일레븐 트웰브 써틴 포틴 피프틴 식스틴 세븐틴 "
    "에잇틴 나인틴"
).split()
_EN_TENS = "_ _ 트웬티 써티 포티 피프티 식스티 세븐티 에이티 나인티".split()
_DIGIT_NAMES = {str(d): _EN_ONES[d] for d in range(10)}
_SHORT_LATIN = re.compile(r"(?<![a-z])([a-z]{1,3})(?![a-z])([0-9](?![0-9]))?")


def letters_spelt(key: str) -> str | None:
    """A normalised app word with its short Latin parts (initials, one to three letters beside
    Hangul or alone) spelt as Korean says the letters ("카카오t" → "카카오티", "kb스타" →
    "케이비스타", "f1" → "에프원"); None when it has none. Longer Latin words are names, said as words."""
    if not re.search(r"[a-z]", key) or re.search(r"[a-z]{4,}", key):
        return None
    spelt = _SHORT_LATIN.sub(
        lambda m: "".join(_LETTER_NAMES[c] for c in m.group(1)) + _DIGIT_NAMES.get(m.group(2) or "", ""),
        key,
    )
    return spelt if spelt != key and not re.search(r"[a-z]", spelt) else None


def is_hangul(word: str) -> bool:
    return bool(_HANGUL.search(word)) and not _LATIN_WORD.search(word)


def is_latin(word: str) -> bool:
    return bool(_LATIN_WORD.search(word)) and not _HANGUL.search(word)


@lru_cache(maxsize=4096)
def hangul_skeleton(word: str) -> str:
    """The consonant classes of a Hangul word in order ("에어비앤비" → "BNB")."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", word):
        if ch in _INITIAL:
            out.append(_INITIAL[ch])
        elif ch in _FINAL:
            out.append(_FINAL[ch])
    return _collapse("".join(out))


# Cached: a device's labels are compared again with every word of every request.
@lru_cache(maxsize=4096)
def latin_skeleton(word: str, other: bool = False, hard_ch: bool = False) -> str:
    """The consonant classes of a Latin name as Korean would write them ("Airbnb" → "BNB").

    ".com" is said "dot com"; an "r" with no vowel after it, or only a last silent e, is silent
    (non-rhotic, as Korean loanwords write English), an "h" after a consonant or before none is silent (between
    vowels it is ㅎ), "gh" before t or at the end is silent, "c" before e/i/y is S, "th"
    between vowels is T ("weather"), "l" in "alk", "alm", "alf", "olk" is silent, "-ture" is S
    ("picture": 픽처), and the t of "tch" is silent ("kitchen": 키친). ``other``: the other
    reading of letters said two ways — a g before e, i or y as ㅈ ("Gemini": 제미나이, not
    "Gift"), a th as ㄷ ("theScore": 더스코어, not "Think"), a last ds or ts as ㅈ/ㅊ ("Friends":
    프렌즈, not "Cats": 캣츠). ``hard_ch``: a ch said as ㅋ ("Echo": 에코, not "Chat"), a reading of
    its own (with a soft g it would make "Geocaching" 지오캐킹).
    """
    text = word.lower().replace(".com", " dot com").replace("&", " and ")
    out: list[str] = []
    for part in re.findall(r"[a-z]+", text):
        i = 0
        while i < len(part):
            two = part[i : i + 2]
            three = part[i : i + 3]
            if three == "tio":  # "Notion": 노션
                out.append("S")
                i += 2
                continue
            if part[i : i + 4] == "ture":  # "Picture": 픽처; the r of "-ture" is not said
                out.append("S")
                i += 3
                continue
            if three == "tch":  # "Kitchen": 키친; the t before "ch" is not said
                i += 1
                continue
            if two == "gh" and i > 0 and part[i + 2 : i + 3] in ("", "t"):
                i += 2  # "Lightroom": 라이트룸; "gh" before t or at the end is not said
                continue
            if two == "th" and 0 < i and part[i - 1] in _VOWELS and part[i + 2 : i + 3] in _VOWELS:
                out.append("T")  # "Weather": 웨더; a voiced th between vowels is ㄷ
                i += 2
                continue
            if two == "ng" and part[i + 2 : i + 3] in _VOWELS:  # "Duolingo": 듀오링고
                # "Hinge": 힌지 — with a soft g, n and ㅈ
                out.append("NS" if other and part[i + 2] in "eiy" else "GK")
                i += 2
                continue
            if two == "th" and other:  # "the": 더
                out.append("T")
                i += 2
                continue
            if two in ("ds", "ts") and other and i + 2 == len(part):  # "Friends": 프렌즈
                out.append("S")
                i += 2
                continue
            if two == "ch" and hard_ch:  # "EchoLink": 에코링크
                out.append("K")
                i += 2
                continue
            rep = next((r for d, r in _LATIN_DIGRAPHS if two == d), None)
            if rep is not None:
                out.append(rep)
                i += 2
                continue
            c = part[i]
            nxt = part[i + 1] if i + 1 < len(part) else ""
            if c in _VOWELS or c == "w":
                pass
            elif c == "r" and (nxt not in _VOWELS or part[i + 1 :] == "e"):
                pass  # "Score": 스코어, "Firefox": 파이어폭스; an r before a last silent e too
            elif c == "l" and i > 0 and (
                part[i - 1] == "a" and nxt in ("k", "m", "f") or part[i - 1] == "o" and nxt == "k"
            ):
                pass  # "Walk": 워크, "Calm": 캄, "Folk": 포크; but "Golf": 골프, "Wolf": 울프
            elif c == "h" and (nxt not in _VOWELS or (i > 0 and part[i - 1] not in _VOWELS)):
                pass  # "John": silent after a consonant or before one; "Behance": 비핸스
            elif (c == "c" or (c == "g" and other)) and nxt in ("e", "i", "y"):
                out.append("S")
            else:
                out.append(_LATIN.get(c, ""))
            i += 1
    return _collapse("".join(out))


def _collapse(skeleton: str) -> str:
    """Doubled sounds as one ("Airbnb"'s bb, "핏빗"'s ㅅ+ㅂ stay two: only equal neighbours)."""
    return re.sub(r"(.)\1+", r"\1", skeleton)


# The Latin vowels a Hangul vowel may write in a loanword ("라인": the "i" of LINE is 아이).
_VOWEL_FOR = {
    "ᅡ": "auoiy", "ᅢ": "ae", "ᅦ": "ae", "ᅤ": "ae", "ᅨ": "ae", "ᅥ": "uoei", "ᅩ": "oa",
    "ᅮ": "uo", "ᅲ": "uoye", "ᅵ": "iey", "ᅱ": "eiu", "ᅪ": "ao", "ᅯ": "oau", "ᅫ": "ea",
    "ᅬ": "ea", "ᅰ": "ea", "ᅭ": "ouy", "ᅧ": "eauy", "ᅣ": "ayo", "ᅴ": "ei",
}
# Latin vowels Hangul writes with two vowels: a long i as 아이, a long a as 에이.
_GLIDES = {"i": ("ᅡ", "ᅵ"), "y": ("ᅡ", "ᅵ"), "a": ("ᅦ", "ᅵ")}
MIN_SOUNDS = 3


def _vowels(hangul: str) -> list[str]:
    """The Hangul word's vowels, the ㅡ that only breaks up a consonant cluster left out."""
    return [c for c in unicodedata.normalize("NFD", hangul) if c in _VOWEL_FOR]


def _latin_vowel_groups(latin: str) -> list[str]:
    # The i of "-cian", "-tia" glides into the next vowel ("Musician": 뮤지션), and the u of
    # "gui", "gue" is not said ("Guitar": 기타).
    # A y after a and o is a syllable of its own ("Buoy": 부이, "Pay": 페이).
    text = re.sub(r"(?<=[cst])i(?=[aou])|(?<=g)u(?=[eiy])", "", latin.lower())
    # A w after a vowel stays with it: Korean may write it as 우 ("Snow": 스노우) or not ("Show": 쇼).
    return re.findall(r"[aeiouy]+(?:w(?![aeiouy]))?", re.sub(r"(?<=[ao])y", " y", text))


def _first_vowels_agree(hangul: str, latin: str) -> bool:
    """Whether the first real vowel of the Hangul word can write the Latin name's first vowel."""
    h, groups = _vowels(hangul), _latin_vowel_groups(latin)
    return bool(h and groups) and groups[0][0] in _VOWEL_FOR[h[0]]


def _all_vowels_agree(hangul: str, latin: str) -> bool:
    """Syllable by syllable, every vowel writes the Latin name's vowel ("아고다": a-o-a)."""
    h, groups = _vowels(hangul), _latin_vowel_groups(latin)
    # One vowel is enough where the Hangul adds ㅡ syllables for the consonants ("고트": GOAT).
    syllables = len(re.findall(r"[가-힣]", hangul))
    return (len(h) >= 2 or syllables > len(h)) and _vowels_align(tuple(h), tuple(groups))


@lru_cache(maxsize=4096)
def _vowels_align(h: tuple[str, ...], groups: tuple[str, ...]) -> bool:
    """Whether the Hangul vowels write the Latin vowel groups in order, one for one, except
    that a long i is written 아이 ("Nike": 나이키) and a long a 에이 ("Radar": 레이더).
    Cached: asked for every installed label for each word no table knows."""
    if not groups:
        return not h
    if not h:
        return False
    g = groups[0]
    # The last a is often a schwa, written 어 ("Radar": 레이더, "Data": 데이터).
    said = _VOWEL_FOR[h[0]] + ("a" if h[0] == "ᅥ" and len(groups) == 1 else "")
    if g[0] in said:
        rest = h[1:]
        if _vowels_align(rest, groups[1:]):
            return True
        if g.endswith("w") and rest[:1] == ("ᅮ",) and _vowels_align(rest[1:], groups[1:]):
            return True
        run = g.rstrip("w")
        # Vowels side by side may each be said ("Vimeo": 비메오, "Radio": 라디오, "Gaia": 가이아).
        n = len(run) - 1
        if (
            n >= 1
            and len(rest) >= n
            and all(run[j + 1] in _VOWEL_FOR[rest[j]] for j in range(n))
            and _vowels_align(rest[n:], groups[1:])
        ):
            return True
    glide = _GLIDES.get(g)
    return glide is not None and h[:2] == glide and _vowels_align(h[2:], groups[1:])


def sounds_alike(a: str, b: str) -> bool:
    """Whether two names in different scripts sound like one name.

    Their consonant skeletons are equal (or, with five sounds or more, one sound apart:
    "링크드잉" for LinkedIn) and the first vowels agree. Two sounds match only when every vowel
    agrees too ("아고다", Agoda); "토스" and Twitch share two sounds, and so do most short words
    with some name. One sound is never enough.
    """
    return sound_distance(a, b) is not None


def sound_distance(a: str, b: str) -> int | None:
    """0 when two names in different scripts have the same consonant skeleton, 1 when they are
    one sound apart (five sounds or more), None when they do not sound alike (`sounds_alike`).
    The distance ranks two labels that both sound like a word ("포켓캐스트": Pocket Casts
    exactly, Podcast one sound off)."""
    from rapidfuzz.distance import Levenshtein

    if is_latin(a) and is_hangul(b):
        a, b = b, a
    if not (is_hangul(a) and is_latin(b)):
        return None
    sa, sb = hangul_skeleton(a), latin_skeleton(b)
    if sa != sb and sb.endswith("S") and re.search(r"[^aeious]s$|[^aeiou]es$|ies$", b.lower()):
        # A plural s is often left unsaid ("타이드차트": Tide Charts, "버디": Birdies).
        sb = latin_skeleton(b[:-1])
    if sa != sb and sa in (latin_skeleton(b, other=True), latin_skeleton(b, hard_ch=True)):
        sb = sa
    if not sa or not sb or not _first_vowels_agree(a, b):
        return None
    if len(sa) < MIN_SOUNDS or len(sb) < MIN_SOUNDS:  # "츄이": Chewy, "고트": GOAT
        return 0 if sa == sb and _all_vowels_agree(a, b) else None
    if sa == sb:
        return 0
    if min(len(sa), len(sb)) >= 5 and Levenshtein.distance(sa, sb) <= 1:
        return 1
    return None


def says_short_label(hangul: str, latin: str) -> bool:
    """Whether one Hangul syllable says the whole of a short one-word Latin label, every sound
    and vowel ("캄": Calm, "숲": SOOP). `sounds_alike` never takes one syllable: the caller asks
    this only where the word stands as a target (before 알림, or in a list of apps)."""
    if len(hangul) != 1 or not is_hangul(hangul) or not re.fullmatch(r"[A-Za-z]{3,6}", latin):
        return False
    sa = hangul_skeleton(hangul)
    return (
        len(sa) >= 2
        and sa == latin_skeleton(latin)
        and _vowels_align(tuple(_vowels(hangul)), tuple(_latin_vowel_groups(latin)))
    )


def says_nearly(hangul: str, latin: str) -> bool:
    """Whether a Hangul word says a Latin name alike or one sound off, however short: a looser
    test for the rest of a label already named by its first word ("포캐스트": Forecast)."""
    from rapidfuzz.distance import Levenshtein

    if sounds_alike(hangul, latin):
        return True
    if not (is_hangul(hangul) and is_latin(latin) and _first_vowels_agree(hangul, latin)):
        return False
    sa, sb = hangul_skeleton(hangul), latin_skeleton(latin)
    if sa != sb and latin_skeleton(latin, other=True) == sa:  # "지오": geo
        sb = sa
    # "GS샵": one syllable says "SHOP" once its first word has named the label.
    return bool(sa) and sa == sb or min(len(sa), len(sb)) >= 3 and Levenshtein.distance(sa, sb) <= 1


# Numbers in labels as people say them: the digits themselves, in English ("Hole19":
# 홀나인틴) or in Sino-Korean, as a number or digit by digit ("365": 삼백육십오, 삼육오).
_SINO = "영일이삼사오육칠팔구"


def english_number(digits: str) -> str:
    """A run of digits said in English, in Hangul ("19": 나인틴); past 99, digit by digit."""
    n = int(digits)
    if len(digits) > 2 or digits.startswith("0") and len(digits) > 1:
        return "".join(_EN_ONES[int(d)] for d in digits)
    if n < 20:
        return _EN_ONES[n]
    return _EN_TENS[n // 10] + ("" if n % 10 == 0 else _EN_ONES[n % 10])


def _sino_number(digits: str) -> str:
    n = int(digits)
    if n == 0 or n >= 10000:
        return ""
    out = ""
    for value, unit in ((1000, "천"), (100, "백"), (10, "십"), (1, "")):
        d, n = divmod(n, value)
        if d:
            out += ("" if d == 1 and unit else _SINO[d]) + unit
    return out


@lru_cache(maxsize=4096)
def _label_pieces(label: str) -> tuple[tuple[tuple[str, ...], str, bool], ...]:
    """A label as the pieces a name is said by: the exact ways of writing a digit run or a lone
    Latin letter, the Latin word said (for a number, its English words in Hangul), and whether
    the piece is a number. Cached: asked for every installed label for each word no table
    knows."""
    pieces: list[tuple[tuple[str, ...], str, bool]] = []
    for said_as in re.findall(r"[A-Z]+(?![a-z])|[A-Za-z][a-z]*|[0-9]+|[가-힣]+", unicodedata.normalize("NFKC", label)):
        token = said_as.lower()
        if token.isdigit():
            said = {token, _sino_number(token), "".join(_SINO[int(d)] for d in token)}
            pieces.append((tuple(sorted(said - {""})), english_number(token), True))
        elif len(token) == 1 and token.isascii() or said_as.isupper() and len(token) <= 3:
            # A lone letter, or capitals said letter by letter ("29CM": 이구씨엠).
            pieces.append(((token, "".join(_LETTER_NAMES[c] for c in token)), "", False))
        elif token.isascii():
            pieces.append(((token,), token, False))
        else:
            pieces.append(((token,), "", False))
    return tuple(pieces)


def says_label_by_parts(key: str, label: str) -> bool:
    """Whether a normalised word says a label that holds a number or a lone letter, piece by
    piece: the number as typed, in Sino-Korean or said in English ("18버디" for 18Birdies,
    "홀나인틴" for Hole19), a lone letter by its name ("씨지오" for c:geo), and every word said
    nearly alike. A label with neither is left to `sound_distance`."""
    pieces = _label_pieces(label)
    return any(len(exact) > 1 or number for exact, _, number in pieces) and _says_pieces(
        key, pieces
    )


@lru_cache(maxsize=4096)
def _says_pieces(key: str, pieces: tuple[tuple[tuple[str, ...], str, bool], ...]) -> bool:
    if not pieces:
        return not key
    (exact, latin, number), rest = pieces[0], pieces[1:]
    if any(key.startswith(e) and _says_pieces(key[len(e) :], rest) for e in exact if e):
        return True
    if not latin:
        return False
    # A number said in English is spelt as listed or nearly; a word may be said one sound off.
    # Each takes a prefix of the word and leaves the rest.
    return any(
        (_says_number(key[:end], latin) if number else says_nearly(key[:end], latin))
        and _says_pieces(key[end:], rest)
        for end in range(len(key), 0, -1) if is_hangul(key[:end])
    )


def _says_number(hangul: str, spelt: str) -> bool:
    """Whether a Hangul stretch spells a number's English words as listed or nearly: the same
    consonants, the same first vowel, a syllable more or less ("나인딘", "에이틴"). "포" is four,
    never five (파이브)."""
    if hangul == spelt:
        return True
    first = _vowels(hangul)[:1]
    return (
        hangul_skeleton(hangul) == hangul_skeleton(spelt)
        and bool(first) and first == _vowels(spelt)[:1]
        and abs(len(hangul) - len(spelt)) <= 1
    )
