"""The words the parser knows: number words, units, markers, and the regex pieces built on them.

Pure data, loaded once at import: Korean number words and units, the markers that decide a
token's role (까지, 부터, 동안 ...), the parts of the day with their hours, and the English time
words mixed into Korean, read from the data file lexicon/time_en.json. Kept apart from the code
that uses them so that a word can be added or checked in one place.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable
from importlib import resources
from typing import Any

_DAY = 86_400
_HANGUL = re.compile(r"[가-힣]")
# English is matched on an ASCII-lower-cased copy: same length, so every offset stays valid.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _load_english() -> dict[str, Any]:
    source = resources.files("notillm_local.lexicon").joinpath("time_en.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


_EN = _load_english()


def _en_alt(words: Iterable[str]) -> str:
    """A whole-word alternation of English words (longest first; blanks may vary or vanish)."""
    parts = sorted({w.lower() for w in words}, key=len, reverse=True)
    body = "|".join(r"\s*".join(re.escape(p) for p in w.split()) for w in parts)
    return rf"(?<![a-z])(?:{body})(?![a-z])"


def _en_map(section: dict[str, list[str]]) -> dict[str, str]:
    return {w.lower(): ko for ko, words in section.items() for w in words}


_EN_UNIT = _en_map(_EN["units"])
_EN_MERIDIEM = _en_map(_EN["meridiem"])
_EN_MERIDIEM_SHORT = _en_map(_EN["meridiem_after_minutes"])
_EN_NAMED = _en_map(_EN["named_times"])
_EN_DAYS = _en_map(_EN["days"])
_EN_DAYSETS = _en_map(_EN["day_sets"])
_EN_PREFIX = _en_map(_EN["prefix_markers"])

_NATIVE_UNITS = {
    "한": 1,
    "두": 2,
    "세": 3,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    # The old forms of 3 and 4 before 달 ("석 달", "넉 달"); _NATIVE_RE takes them there only.
    "석": 3,
    "넉": 4,
}
_NATIVE_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50}
_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_WEEKDAY = {"월": 1, "화": 2, "수": 3, "목": 4, "금": 5, "토": 6, "일": 7}

_NATIVE_RE = (
    r"(?:(?:열|스물|스무|서른|마흔|쉰)\s?(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉)?"
    r"|한|두|세|네|다섯|여섯|일곱|여덟|아홉|(?<![가-힣])[석넉](?=\s?달))"
)
_SINO_TENS_RE = (
    r"(?:[이삼사오육칠팔구]?백(?:[이삼사오육칠팔구]?십)?[일이삼사오육칠팔구]?"
    r"|[이삼사오육칠팔구]?십[일이삼사오육칠팔구]?)"
)
# 천 and 만 only start a word: a glued 만 is the particle "only" ("카톡만").
_SINO_MULTI_RE = (
    r"(?:(?<![가-힣])(?:[이삼사오육칠팔구]?만(?:\s?[이삼사오육칠팔구]?천)?|[이삼사오육칠팔구]?천)"
    rf"(?:\s?{_SINO_TENS_RE}|[일이삼사오육칠팔구])?|{_SINO_TENS_RE})"
)
# 일/이/구 alone are words ("이 분" = this person, "구분" = a distinction).
_SINO_ONE_RE = r"[삼사오육칠팔]"
_NUM_RE = rf"(?:\d{{1,6}}(?:\.\d+)?|{_SINO_MULTI_RE}|{_NATIVE_RE}|{_SINO_ONE_RE})"
# Korean units, minus the words they start that are no time ("2분기", "초등", "시간표",
# "10달러"). Kept short: in text typed without spaces an app name may follow a length
# ("3시간당근", "30분배민"), so only syllables no app name here starts with are excluded.
_UNIT_KO_RE = (
    r"(?:시간(?!표)|분(?![기석류들께])|초(?![등대코록])|일(?!요일|욜|기|등|상|출|찍|정(?!도))"
    r"|주일|주(?![말중년식소차문민제])|달(?![러력성콤걀])|개월|년(?![생대도차]))"
)
_UNIT_RE = rf"(?:{_UNIT_KO_RE}|{_en_alt(_EN_UNIT)})"
_DUR_SPECIAL = {
    "하루": 1,
    "이틀": 2,
    "사흘": 3,
    "나흘": 4,
    "닷새": 5,
    "엿새": 6,
    "이레": 7,
    "여드레": 8,
    "아흐레": 9,
    "열흘": 10,
    "보름": 15,
    "일주일": 7,
    "이주일": 14,  # 2주일, said with the Sino-Korean number like 일주일
    "삼주일": 21,
}

# A day part only counts when a boundary, a particle or an hour follows ("낮춰줘" is no time).
_DP_FOLLOW = r"(?=$|[^가-힣]|에|엔|부터|까지|동안|마다|내내|중|열|한|두|세|네|다|여|일|아)"
_WD = "[월화수목금토일]"
_WDN = rf"{_WD}(?:요일|욜)"
# A weekday list starts a word, or is glued to 매주/매일/주말 in text typed without spaces.
_WD_LEFT = r"(?=[월화수목금토일])(?:(?<![가-힣])|(?<=매주)|(?<=매일)|(?<=마다))"
_WD_FOLLOW = (
    r"(?=$|[^가-힣]|에|엔|마다|만|은|는|부터|까지|동안|내내|밤|아침|저녁|오전|오후|새벽"
    r"|낮|점심|알림|알람)"  # "매주토일알림다꺼": typed without spaces, 알림 follows the days
)
# A week, month or day word standing alone must end a word or take a particle.
_PERIOD_FOLLOW = r"(?=$|[^가-힣]|까지|부터|에|엔|내내|동안|중|만|는|은|의)"
_HOUR_RE = rf"(?:\d{{1,2}}|{_NATIVE_RE})"
_MIN_RE = rf"(?:\d{{1,2}}|{_SINO_MULTI_RE}|{_SINO_ONE_RE})"
# Only a marker, a particle or a boundary may follow 시 ("한시적으로", "시작" are no times).
_CLOCK_FOLLOW = r"(?=$|[^가-힣]|[까부에반정쯤경께전이인임지후만사넘]|으?로(?![가-힣]))"
_ORD_RE = r"(?:첫\s*째|둘\s*째|셋\s*째|넷\s*째|다섯\s*째|(?:첫|두|세|네|다섯)\s*번\s*째|마지막)"
_ORDINAL = {"첫째": 1, "둘째": 2, "셋째": 3, "넷째": 4, "다섯째": 5, "마지막": -1}
_ORDINAL.update({"첫번째": 1, "두번째": 2, "세번째": 3, "네번째": 4, "다섯번째": 5})
_YEAR_RE = r"(?:19|20)\d{2}"
_PAST_SPECIAL = (
    r"(?:지지난|지난|저번)\s*(?:일주일|하루|이틀|사흘|나흘|닷새|엿새|이레|여드레|아흐레|열흘|보름|한\s*(?:주|달))"
)
# Holidays: their dates are not read, but "지난 어린이날" is in the past whatever its date.
_HOLIDAYS = (
    "크리스마스\\s*이브|크리스마스|성탄절|설\\s*연휴|설날|구정|신정|추석|삼일절|어린이날|어버이날"
    "|현충일|제헌절|광복절|개천절|한글날|석가탄신일|부처님\\s*오신\\s*날|명절|연휴|새해|연말연시"
    "|(?:정월\\s*)?대보름|단오|칠석"
)
# Words that name a moment before now. Said as the rule's time they make it invalid.
_PAST_RE = (
    rf"(?:지지난|지난|저번)\s*주\s*말|(?:지지난|지난|저번)\s*(?:주|달|해)(?:\s*{_WDN})?{_PERIOD_FOLLOW}"
    rf"|(?:지지난|지난|저번)\s*(?:주|달|해)\s*{_WDN}|(?:지지난|지난|저번)\s*{_WDN}"
    rf"|(?:지지난|지난|저번)\s*(?:{_NUM_RE}|[일이구])\s*{_UNIT_RE}"
    rf"|{_PAST_SPECIAL}"
    r"|지금\s*까지|어젯\s*밤|엊\s*저녁|어제|엊그제|엊그저께|그저께|그제(?!서야)|그끄저께|방금|재작년|작년"
    r"|지난\s*해|아까(?=$|[^가-힣]|부터|까지|에)"
    rf"|(?:지지난|지난|저번)\s*번{_PERIOD_FOLLOW}|전주(?=\s*(?:까지|부터|{_WDN}))"
    rf"|(?:지지난|지난|저번)(?=\s*(?:{_HOLIDAYS}))"
)

_PAST_LENGTH = re.compile(
    rf"(?:지지난|지난|저번)\s*(?:{_NUM_RE}|[일이구])\s*{_UNIT_RE}(?:\s*반)?|{_PAST_SPECIAL}"
)


_DUR_NEXT = re.compile(
    # "1시간 하고 15분", "2 hours and 30 minutes": a joining word between the parts.
    rf"\s*(?:(?:하고도?|and|&|\+)\s*)?(?:(?P<dn>{_NUM_RE})\s*(?P<du>{_UNIT_RE})|(?P<half>반)"
    # Glued text puts anything after 반 ("1시간반받지마"); only words that start with 반 stop it.
    r"(?!대|복|말|찬|응|드시|갑|값|짝|려|도|지|영|환|품|납|장|사|성|발|박|면|칙|년|나절))"
)
# A clock time said as a statement ("새벽 2시 반인데", "벌써 11시네"): the copula after it.
_REMARK_AFTER = re.compile(
    r"\s*(?:인데|이니까|이니|이라서|이라|이네|이야|이잖아|였는데|이었는데|였네|임(?![가-힣]))"
)
_FILLER = re.compile(
    r"\s*(?:정각|정도|가량|쯤)|(?:경|께)(?=$|[^가-힣]|까|부|에|동|만)|여(?=$|[^가-힣]|동|간)"
)
_MARKER = re.compile(
    r"\s*(?P<mk>까지만|까지|전까지|이전까지|전부터|전에|이전에|이전|에서\s*부터|부터|에서|이후로|이후부터"
    r"|이후|넘어서|지나고\s*나서\s*부터|지나고\s*나서|지나서\s*부터|지나고\s*부터|지나서|지나고|지나면|지난\s*후|뒤부터|뒤에|뒤|후부터|후에|후(?!반)|있다가|있다|이따가|동안"
    r"|내내|간|만|사이에|사이|마다|에는|안에|이내에|이내|내에|내(?![가-힣])"
    r"|안(?!\s*[보울오받뜨들나와가켜꺼되하])|전(?![가-힣])|에|~|-|–|〜)"
)
_AFTER_DELAY = re.compile(r"\s*(?P<mk>까지|부터|동안)")
# A length marker right after a number word makes an unusual pairing unambiguous ("서른 분
# 동안", "삼 주 동안" are lengths; "두 분" alone are two people).
_LEN_FOLLOW = re.compile(r"\s*(?:동안|간|만에|만|뒤|후|안|내|이내|내내)")
_EN_PREFIX_RE = re.compile(rf"(?P<pw>{_en_alt(_EN_PREFIX)})\s*$")
_PREFIX_FILLER_RE = re.compile(rf"(?:(?<![가-힣])(?:약|대략)|{_en_alt(_EN['prefix_fillers'])})\s*$")
# English number words before a unit, and "half an hour": rewritten in place, as digits padded
# with blanks to the same length, so that the scan reads "two hours" as "2 hours" and every
# offset stays valid.
_EN_NUMBER = _en_map(_EN["number_words"])
_EN_NUMBER_RE = re.compile(
    rf"(?P<n>{_en_alt(_EN_NUMBER)})(?=[\s-]*(?:{_en_alt(_EN_UNIT)}))"
    rf"|(?P<half>{_en_alt(_EN['half_hour'])})"
    rf"|(?<=[a-z])(?P<andhalf>\s+and\s+a\s+half)(?![a-z])"
)


def english_numbers_as_digits(scan: str) -> str:
    """"two hours" -> "2   hours", "half an hour" -> "30      m", "and a half" -> "반", padded
    to the same length so that the time's span covers the whole phrase."""

    def digits(m: re.Match[str]) -> str:
        text = m.group(0)
        if m.group("andhalf"):
            return "반".rjust(len(text))  # "an hour and a half": 1시간 반
        if m.group("half"):
            return "30" + "m".rjust(len(text) - 2)
        return _EN_NUMBER[" ".join(text.replace("-", " ").split())].ljust(len(text))

    return _EN_NUMBER_RE.sub(digits, scan)


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”|「[^」]*」|『[^』]*』|`[^`]*`")
_LEFT_WORDS = (
    "오전",
    "오후",
    "아침",
    "낮",
    "점심",
    "저녁",
    "밤",
    "새벽",
    "오늘",
    "내일",
    "모레",
    "부터",
    "앞으로",
    "지금",
    "매일",
    "맨날",
    "요일",
    "욜",
    "마다",
    "까지",
    "에서",
)

_END_MARKS = {
    "까지만",
    "까지",
    "전까지",
    "이전까지",
    "전에",
    "이전에",
    "이전",
    "전",
    "사이에",
    "사이",
    "안에",
    "안",
    "내에",
    "내",
    "이내",
    "이내에",
}
_START_MARKS = {
    "지나고나서부터",
    "지나고나서",
    "지나서부터",
    "지나고부터",
    "에서부터",
    "부터",
    "에서",
    "이후로",
    "이후부터",
    "이후",
    "넘어서",
    "지나서",
    "지나고",
    "지난후",
    "후부터",
    "후에",
    "후",
    "~",
    "-",
    "–",
    "〜",
}
_DELAY_MARKS = {
    "지나고나서부터",
    "지나고나서",
    "지나서부터",
    "지나고부터",
    "뒤부터",
    "뒤에",
    "뒤",
    "후부터",
    "후에",
    "후",
    "있다가",
    "있다",
    "이따가",
    "지나서",
    "지나고",
    "지나면",  # "20분 지나면 두 시간 동안": once 20 minutes have passed
    "지난후",
}
_LEN_MARKS = {"동안", "내내", "간", "만", "까지만", "까지"}
# "7일 전", "3주 전에": a length before now names the past.
_PAST_MARKS = {"전", "전에", "이전", "이전에", "전까지", "이전까지", "전부터"}
_PAST_WORD_MARKS = _END_MARKS | _START_MARKS | {"동안", "내내", "에", "엔", "에는"}
# "15일에", "15일까지", "3일부터" name a day of the month; "15일 동안" / "15일간" are lengths.
_MDAY_MARKS = {"까지", "까지만", "에", "엔", "에는", "부터", "에서부터"}

_DP_HOURS: dict[str, frozenset[int]] = {
    "오전": frozenset(range(0, 12)),
    "오후": frozenset(range(12, 24)),
    "새벽": frozenset(range(0, 7)),
    "아침": frozenset(range(5, 12)),
    "점심": frozenset(range(11, 15)),
    "낮": frozenset(range(11, 18)),
    "저녁": frozenset(range(17, 22)),
    "밤": frozenset([*range(19, 24), *range(0, 5)]),
}
_DP_MORNING = frozenset({"오전", "새벽", "아침"})
