"""Number words and units: values, which number words go with which unit, lengths.

Korean counts with two number systems (native 한/두/세 and Sino 일/이/삼) that pair with
different units ("두 시간", "삼십 분"; "두 분" are two people). The rules for reading a number
word, and for where it may stand, are shared by the clock and length token builders.
"""

from __future__ import annotations

from notillm_local.stages.timeparse.model import _Length
from notillm_local.stages.timeparse.vocabulary import (
    _DAY,
    _EN_UNIT,
    _HANGUL,
    _LEFT_WORDS,
    _NATIVE_TENS,
    _NATIVE_UNITS,
    _SINO,
)


def _native_value(word: str) -> int | None:
    word = word.replace(" ", "")
    for tens_word, tens in _NATIVE_TENS.items():
        if word.startswith(tens_word):
            rest = word[len(tens_word) :]
            if not rest:
                return tens
            unit = _NATIVE_UNITS.get(rest)
            return None if unit is None else tens + unit
    return _NATIVE_UNITS.get(word)


_SINO_POWERS = {"십": 10, "백": 100, "천": 1000}


def _sino_value(word: str) -> int | None:
    total, current = 0, 0
    for ch in word:
        if ch in _SINO:
            current = _SINO[ch]
        elif ch in _SINO_POWERS:
            total += (current or 1) * _SINO_POWERS[ch]
            current = 0
        elif ch == "만":
            total = (total + current or 1) * 10000
            current = 0
        else:
            return None
    return total + current


def _number(word: str) -> tuple[float, str] | None:
    """Value and kind ("digit", "native", "sino") of a number word."""
    word = word.strip()
    if word[:1].isdigit():
        return float(word), "digit"
    native = _native_value(word)
    if native is not None:
        return float(native), "native"
    sino = _sino_value(word)
    if sino is not None:
        return float(sino), "sino"
    return None


_UNIT_SECONDS = {"초": 1, "분": 60, "시간": 3600, "일": _DAY, "주": 7 * _DAY, "주일": 7 * _DAY}
_UNIT_MONTHS = {"달": 1, "개월": 1, "년": 12}
_UNIT_RANK = {"년": 6, "개월": 5, "달": 5, "주": 4, "주일": 4, "일": 3, "시간": 2, "분": 1, "초": 0}


def _unit_accepts(unit: str, kind: str, text: str) -> bool:
    """Which number words go with which unit: "두 분" are people, "삼십 분" is time."""
    if kind == "digit":
        return True
    if kind == "native":
        return unit in ("시간", "달", "주", "주일")
    multi = len(text.replace(" ", "")) > 1
    # Years and months take Sino-Korean numbers ("삼 년", "사 개월"), hours native ones.
    return unit in ("분", "초", "년", "개월") or (multi and unit in ("시간", "일"))


def _unit_accepts_marked(unit: str, kind: str) -> bool:
    """Pairings that are lengths once a length marker or 다음/지난 goes with them: "서른 분
    동안", "삼 주 동안", "다음 삼분"."""
    if kind == "native":
        return unit in ("분", "초")
    return kind == "sino" and unit in ("시간", "일", "주", "달", "개월")


def _glue_safe(unit: str, kind: str, text: str) -> bool:
    """Whether the number may be glued to the word before it ("알림세시간꺼줘")."""
    if unit in ("시간", "개월", "주일"):
        return True
    if unit in ("분", "초"):
        return kind == "digit" or len(text.replace(" ", "")) > 1
    return kind == "native" and unit in ("달", "주")


def _length_of(value: float, unit: str) -> _Length:
    if unit in _UNIT_MONTHS:
        # "1.5년" is 18 months, "1.5개월" a month and 15 days (as 반 is): a fraction is no
        # rounding error to drop, it may carry a rule past the 366-day limit.
        months = value * _UNIT_MONTHS[unit]
        whole = int(months)
        return _Length(months=whole, seconds=round((months - whole) * 30 * _DAY))
    return _Length(seconds=round(value * _UNIT_SECONDS[unit]))


def _half_of(unit: str) -> _Length:
    if unit in _UNIT_MONTHS:
        return _Length(seconds=15 * _DAY * _UNIT_MONTHS[unit])
    return _Length(seconds=_UNIT_SECONDS[unit] // 2)


def _plus(a: _Length, b: _Length) -> _Length:
    return _Length(seconds=a.seconds + b.seconds, months=a.months + b.months)


def _left_ok(text: str, pos: int, number: str, glued_ok: bool = False) -> bool:
    """A Korean number word must start a word, or follow a day part / day word.

    ``glued_ok``: the unit or the marker after it makes the reading safe even when the number is
    glued to the word before ("알림세시간꺼줘", "카톡세시까지").
    """
    if number[:1].isdigit() or pos == 0 or not _HANGUL.match(text[pos - 1]):
        return True
    if glued_ok:
        return True
    head = text[:pos]
    return head.endswith(_LEFT_WORDS)


def _hour_value(word: str) -> int | None:
    parsed = _number(word)
    if parsed is None or parsed[1] == "sino" or parsed[0] != int(parsed[0]):
        return None
    value = int(parsed[0])
    return value if 0 <= value <= 24 else None


def _minute_value(word: str | None) -> int | None:
    if not word:
        return 0
    parsed = _number(word)
    if parsed is None or not 0 <= parsed[0] <= 59 or parsed[0] != int(parsed[0]):
        return None
    return int(parsed[0])


def _unit_key(raw: str) -> str:
    return _EN_UNIT.get(" ".join(raw.split()), raw)
