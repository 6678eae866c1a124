"""Korean time expressions -> exact rule times, in code (no model, no network).

Follows the "Time axes" section of CONTRACT.md. The parser works in three passes:

1. lex: one left-to-right regex scan finds time tokens (numbers with units, clock times,
   day words, weekdays, recurrence words) together with the marker that follows each one
   (까지, 부터, 동안, 뒤 ...), which decides the token's role;
2. attach: day words and day parts ("내일", "밤") bind to the clock time right after them;
3. interpret: the roles decide the axis, and the resolver turns clock readings into instants
   using only ``now`` and its fixed UTC offset (never the process time zone).

Words beside a time that look like part of it but are not read ("첫째 주", "격주", "말일") are
reported as ``unread`` and make the outcome ``unclear``: asking beats a rule with the modifier
dropped. English time words mixed into Korean come from the data file lexicon/time_en.json.

Decisions the contract leaves open are documented in docs/time.md.
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from enum import Enum, StrEnum
from importlib import resources
from typing import Any

logger = logging.getLogger(__name__)

__all__ = [
    "TimeAxis",
    "TimeCondition",
    "TimeOutcome",
    "TimeResult",
    "TimeSpan",
    "parse_time",
]


# --------------------------------------------------------------------------- public types


class TimeOutcome(StrEnum):
    OK = "ok"
    NO_TIME = "no_time"
    CONFLICT = "conflict"
    INVALID_TIME = "invalid_time"
    # Time words were found that the parser cannot read exactly ("다음 달 첫째 주", "격주",
    # "설날까지", "다음 월요일" said early in the week): the service asks instead of guessing.
    UNCLEAR = "unclear"


class TimeAxis(StrEnum):
    DURATION = "duration"
    UNTIL_ABSOLUTE = "until_absolute"
    RELATIVE_DELAY = "relative_delay"
    DAILY = "daily"
    WEEKLY = "weekly"
    WINDOW = "window"  # a one-off window, "오후 3시부터 5시까지"


@dataclass(frozen=True)
class TimeSpan:
    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text}


@dataclass(frozen=True)
class TimeCondition:
    delivery: datetime
    expires: datetime
    recurrence: str = "none"
    days_of_week: tuple[int, ...] = ()
    window_start: str | None = None
    window_end: str | None = None

    def to_contract(self) -> dict[str, Any]:
        return {
            "delivery": self.delivery.isoformat(timespec="seconds"),
            "expires": self.expires.isoformat(timespec="seconds"),
            "recurrence": self.recurrence,
            "days_of_week": list(self.days_of_week),
            "window_start": self.window_start,
            "window_end": self.window_end,
            "activity": None,
            "location": None,
        }


@dataclass(frozen=True)
class TimeResult:
    """What ``parse_time`` read.

    ``spans`` cover every character the parser consumed (markers and English words included), so
    text outside them is not time. ``unread`` lists words inside or beside a time expression that
    look like part of it but were not read; when it is not empty the outcome is never OK.
    """

    outcome: TimeOutcome
    condition: TimeCondition | None
    axis: TimeAxis | None
    spans: tuple[TimeSpan, ...]
    reason: str | None
    unread: tuple[TimeSpan, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "axis": self.axis.value if self.axis is not None else None,
            "condition": self.condition.to_contract() if self.condition is not None else None,
            "spans": [s.to_json() for s in self.spans],
            "unread": [s.to_json() for s in self.unread],
            "reason": self.reason,
        }


# --------------------------------------------------------------------------- vocabulary

_DAY = 86_400
_MAX_SPAN = timedelta(days=366)
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
}
_NATIVE_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50}
_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_WEEKDAY = {"월": 1, "화": 2, "수": 3, "목": 4, "금": 5, "토": 6, "일": 7}

_NATIVE_RE = (
    r"(?:(?:열|스물|스무|서른|마흔|쉰)\s?(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉)?"
    r"|한|두|세|네|다섯|여섯|일곱|여덟|아홉)"
)
_SINO_MULTI_RE = (
    r"(?:[이삼사오육칠팔구]?백(?:[이삼사오육칠팔구]?십)?[일이삼사오육칠팔구]?"
    r"|[이삼사오육칠팔구]?십[일이삼사오육칠팔구]?)"
)
# 일/이/구 alone are words ("이 분" = this person, "구분" = a distinction).
_SINO_ONE_RE = r"[삼사오육칠팔]"
_NUM_RE = rf"(?:\d{{1,4}}(?:\.\d+)?|{_SINO_MULTI_RE}|{_NATIVE_RE}|{_SINO_ONE_RE})"
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
    "열흘": 10,
    "보름": 15,
    "일주일": 7,
}

# A day part only counts when a boundary, a particle or an hour follows ("낮춰줘" is no time).
_DP_FOLLOW = r"(?=$|[^가-힣]|에|엔|부터|까지|동안|마다|내내|중|열|한|두|세|네|다|여|일|아)"
_WD = "[월화수목금토일]"
_WDN = rf"{_WD}(?:요일|욜)"
# A weekday list starts a word, or is glued to 매주/매일/주말 in text typed without spaces.
_WD_LEFT = r"(?=[월화수목금토일])(?:(?<![가-힣])|(?<=매주)|(?<=매일)|(?<=마다))"
_WD_FOLLOW = (
    r"(?=$|[^가-힣]|에|엔|마다|만|은|는|부터|까지|동안|내내|밤|아침|저녁|오전|오후|새벽"
    r"|낮|점심)"
)
# A week, month or day word standing alone must end a word or take a particle.
_PERIOD_FOLLOW = r"(?=$|[^가-힣]|까지|부터|에|엔|내내|동안|중|만|는|은|의)"
_HOUR_RE = rf"(?:\d{{1,2}}|{_NATIVE_RE})"
_MIN_RE = rf"(?:\d{{1,2}}|{_SINO_MULTI_RE}|{_SINO_ONE_RE})"
# Only a marker, a particle or a boundary may follow 시 ("한시적으로", "시작" are no times).
_CLOCK_FOLLOW = r"(?=$|[^가-힣]|[까부에반정쯤경께전이지후만사넘])"
_ORD_RE = r"(?:첫\s*째|둘\s*째|셋\s*째|넷\s*째|다섯\s*째|(?:첫|두|세|네|다섯)\s*번\s*째|마지막)"
_ORDINAL = {"첫째": 1, "둘째": 2, "셋째": 3, "넷째": 4, "다섯째": 5, "마지막": -1}
_ORDINAL.update({"첫번째": 1, "두번째": 2, "세번째": 3, "네번째": 4, "다섯번째": 5})
_YEAR_RE = r"(?:19|20)\d{2}"
_PAST_SPECIAL = (
    r"(?:지난|저번)\s*(?:일주일|하루|이틀|사흘|나흘|닷새|엿새|이레|열흘|보름|한\s*(?:주|달))"
)
# Words that name a moment before now. Said as the rule's time they make it invalid.
_PAST_RE = (
    rf"(?:지난|저번)\s*주\s*말|(?:지난|저번)\s*(?:주|달|해)(?:\s*{_WDN})?{_PERIOD_FOLLOW}"
    rf"|(?:지난|저번)\s*(?:주|달|해)\s*{_WDN}|(?:지난|저번)\s*{_WDN}"
    rf"|(?:지난|저번)\s*(?:{_NUM_RE}|[일이구])\s*{_UNIT_RE}"
    rf"|{_PAST_SPECIAL}"
    r"|지금\s*까지|어젯\s*밤|어제|엊그제|엊그저께|그저께|그제(?!서야)|그끄저께|방금|재작년|작년"
    r"|지난\s*해|아까(?=$|[^가-힣]|부터|까지|에)"
    rf"|(?:지난|저번)\s*번{_PERIOD_FOLLOW}|전주(?=\s*(?:까지|부터|{_WDN}))"
)

_PAST_LENGTH = re.compile(
    rf"(?:지난|저번)\s*(?:{_NUM_RE}|[일이구])\s*{_UNIT_RE}(?:\s*반)?|{_PAST_SPECIAL}"
)


def _build_master(english: bool) -> re.Pattern[str]:
    """The one scan pattern; without English words when the text has no Latin letters (faster)."""

    def en(words: Iterable[str]) -> str:
        return _en_alt(words) if english else "(?!)"

    unit = _UNIT_RE if english else _UNIT_KO_RE
    return re.compile(
        "|".join(
            [
                rf"(?P<past>{_PAST_RE})",
                rf"(?P<now>지금\s*부터|지금으로\s*부터|이제\s*부터|앞으로|지금|{en(_EN['now'])})",
                r"(?P<wholeday>하루\s*종일|온\s*종일|종일|하루\s*내내)",
                rf"(?P<daily>매일\s*매일|매일같이|매일|날마다|{en(_EN['daily'])})",
                rf"(?P<weekly>매주|주마다|{en(_EN['weekly'])})",
                r"(?P<weekend>(?<!다)(?:이번|금)\s*주\s*(?:주\s*)?말)",
                rf"(?P<dayset>평일|주중|주말|{en(_EN_DAYSETS)})",
                rf"(?P<weekref>(?<!다)(?:(?P<wk_w>이번|다음|오는)\s*주|(?P<wk_g>금주))"
                rf"(?:\s*(?P<wk_wd>{_WD})(?:요일|욜)|{_PERIOD_FOLLOW}))",
                rf"(?P<nextwd>(?<!다)(?P<nw_w>다음|오는)\s*(?P<nw_wd>{_WD})(?:요일|욜))",
                rf"(?P<ordwd>(?<!\d)(?:(?:(?P<ow_y>{_YEAR_RE})\s*년\s*)?(?P<ow_m>\d{{1,2}})\s*월"
                rf"|(?<!다)(?P<ow_rel>이번|다음)\s*달)\s*(?P<ow_n>{_ORD_RE})\s*(?P<ow_wd>{_WD})(?:요일|욜))",
                rf"(?P<monthref>(?<!다)(?:(?P<mr_w>이번|다음)\s*달|(?P<mr_t>이달|내달|담달))"
                r"(?:\s*(?P<mr_d>\d{1,2})\s*일(?!\s*(?:간|동안))"
                rf"|{_PERIOD_FOLLOW}))",
                rf"(?P<wdrange>{_WD_LEFT}{_WD}(?:요일|욜)?\s*(?:~|-|부터|에서)\s*{_WD}(?:요일|욜)?"
                rf"(?:\s*까지|\s*사이)?)",
                rf"(?P<wdlist>{_WD_LEFT}{_WD}(?:요일|욜)?(?:\s*(?:[,·/、]|와|과|랑|이랑|하고|및)\s*"
                rf"{_WD}(?:요일|욜)?)+{_WD_FOLLOW})",
                rf"(?P<wdspaced>{_WD_LEFT}{_WD}(?:\s+{_WD}){{2,6}}{_WD_FOLLOW})",
                rf"(?P<wdcompact>{_WD_LEFT}{_WD}{{2,7}}(?:요일|욜)?{_WD_FOLLOW})",
                rf"(?P<wdone>{_WDN})",
                rf"(?P<ymd>(?<![\d/.:-])(?P<ymd_y>{_YEAR_RE})(?P<ymd_s>[/.-])(?P<ymd_m>\d{{1,2}})"
                r"(?P=ymd_s)(?P<ymd_d>\d{1,2})(?![\d/.-]))",
                rf"(?P<date>(?<!\d)(?:(?P<dt_y>{_YEAR_RE})\s*년\s*)?(?P<mon>\d{{1,2}})\s*월"
                r"\s*(?P<mday>\d{1,2})\s*일(?!\s*(?:간|동안)))",
                r"(?P<md>(?<![\d/.:-])(?P<md_m>\d{1,2})/(?P<md_d>\d{1,2})(?![\d/]))",
                rf"(?P<monthname>(?:(?<!다)(?P<mn_nx>다음|오는)\s*)?(?<!\d)(?:(?P<mn_y>{_YEAR_RE})\s*년\s*)?"
                rf"(?P<mn_m>\d{{1,2}})\s*월(?!\s*\d{{1,2}}\s*일){_PERIOD_FOLLOW})",
                r"(?P<dayword>내일\s*모레|모레|오늘|금일|당일|내일|글피|다음\s*날|이튿날"
                r"|낼(?=\s*(?:아침|오전|오후|저녁|밤|새벽|점심|낮|\d|까지|부터|하루))"
                rf"|{en(_EN_DAYS)})",
                rf"(?P<tonight>{en(w for ws in _EN['day_with_part'].values() for w in ws)})",
                rf"(?P<ampm>(?<![\d.:])(?P<ap_h>\d{{1,2}})(?:\s*:\s*(?P<ap_m>[0-5]\d))?\s*"
                rf"(?P<ap>{en(_EN_MERIDIEM)})"
                rf"|(?<![\d.:])(?P<ap_h2>\d{{1,2}}):(?P<ap_m2>[0-5]\d)"
                rf"(?P<ap2>{en(_EN_MERIDIEM_SHORT)}))",
                r"(?P<hhmm>(?<![\d:])(?P<hh>[01]?\d|2[0-4])\s*:\s*(?P<mm>[0-5]\d)"
                r"(?:\s*:\s*(?P<ss>[0-5]\d))?(?!\d))",
                rf"(?P<hrange>(?<![\d.:])(?P<ra>{_HOUR_RE})\s*[~\-]\s*(?P<rb>{_HOUR_RE})\s*시(?!간)"
                rf"{_CLOCK_FOLLOW})",
                rf"(?P<clock>(?<![\d.:])(?P<ch>{_HOUR_RE})\s*시(?!간)(?:\s*(?P<cm>{_MIN_RE})\s*분"
                rf"(?:\s*(?P<cs>{_MIN_RE})\s*초)?(?P<cbefore>\s*전(?!\s*에서))?|\s*(?P<chalf>반))?"
                rf"{_CLOCK_FOLLOW})",
                rf"(?P<named>정오|자정|{en(_EN_NAMED)})",
                rf"(?P<nextlen>(?<!다)다음\s*(?P<nl_n>{_NUM_RE}|[일이구])\s*(?P<nl_u>{unit}))",
                r"(?P<durspecial>일주일|하루|이틀|사흘|나흘|닷새|엿새|이레|열흘|보름)",
                rf"(?P<dur>(?<![\d.:])(?P<dn>{_NUM_RE})\s*(?P<du>{unit}))",
                r"(?P<dursmall>(?<![가-힣\d])(?P<ds_n>[일이구])\s*(?P<ds_u>분|초)"
                r"(?=\s*(?:안|내|동안|간|뒤|후|만에)))",
                rf"(?P<daypart>(?:오전|오후|아침|점심|저녁|새벽|낮|밤){_DP_FOLLOW})",
            ]
        )
    )


_MASTER_KO = _build_master(english=False)
_MASTER_EN = _build_master(english=True)
_LATIN = re.compile(r"[a-z]")

_DUR_NEXT = re.compile(
    rf"\s*(?:(?P<dn>{_NUM_RE})\s*(?P<du>{_UNIT_RE})|(?P<half>반)"
    # Glued text puts anything after 반 ("1시간반받지마"); only words that start with 반 stop it.
    r"(?!대|복|말|찬|응|드시|갑|값|짝|려|도|지|영|환|품|납|장|사|성|발|박|면|칙|년|나절))"
)
_FILLER = re.compile(
    r"\s*(?:정각|정도|가량|쯤)|(?:경|께)(?=$|[^가-힣]|까|부|에|동|만)|여(?=$|[^가-힣]|동|간)"
)
_MARKER = re.compile(
    r"\s*(?P<mk>까지만|까지|전까지|이전까지|전부터|전에|이전에|이전|에서\s*부터|부터|에서|이후로|이후부터"
    r"|이후|넘어서|지나서|지나고|지난\s*후|뒤부터|뒤에|뒤|후부터|후에|후|있다가|있다|이따가|동안"
    r"|내내|간|만|사이에|사이|마다|에는|안에|이내에|이내|내에|내(?![가-힣])"
    r"|안(?!\s*[보울오받뜨들나와가켜꺼되하])|전(?![가-힣])|에|~|-|–|〜)"
)
_AFTER_DELAY = re.compile(r"\s*(?P<mk>까지|부터|동안)")
# A length marker right after a number word makes an unusual pairing unambiguous ("서른 분
# 동안", "삼 주 동안" are lengths; "두 분" alone are two people).
_LEN_FOLLOW = re.compile(r"\s*(?:동안|간|만에|만|뒤|후|안|내|이내|내내)")
_EN_PREFIX_RE = re.compile(rf"(?P<pw>{_en_alt(_EN_PREFIX)})\s*$")
_PREFIX_FILLER_RE = re.compile(rf"(?:(?<![가-힣])(?:약|대략)|{_en_alt(_EN['prefix_fillers'])})\s*$")
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

# Words that look like part of a time but are not read. Strong ones are time words on their
# own (flagged beside a time or before a time marker); weak ones only when right beside a time.
_HOLIDAYS = (
    "크리스마스\\s*이브|크리스마스|성탄절|설\\s*연휴|설날|구정|신정|추석|삼일절|어린이날|어버이날"
    "|현충일|제헌절|광복절|개천절|한글날|석가탄신일|부처님\\s*오신\\s*날|명절|연휴|새해|연말연시"
)
_UNREAD_STRONG = re.compile(
    rf"격주|다다음\s*(?:주|달)?|말일|월말|월초|연말|연초|초순|중순|하순|주초|매달|매월|매년"
    rf"|반나절|한나절|분기"
    rf"|(?<![가-힣\d])시간\s*반|(?<![가-힣\d])시반|{_HOLIDAYS}|{_en_alt(_EN['time_zones'])}"
)
_WEAK_WORDS = (
    rf"(?:{_ORD_RE}(?:\s*주|\s*날)?|이번|다음|여름|겨울|봄|가을"
    rf"|{_en_alt(_EN['unread_modifiers'])}|{_en_alt(_EN['time_zones'])})"
)
_WEAK_BEFORE = re.compile(rf"({_WEAK_WORDS})\s*$")
_WEAK_AFTER = re.compile(rf"\s*({_WEAK_WORDS})")
# "몇 시간 동안" (a few hours) is vague; "몇 시야?" alone is a question, not a time.
_UNREAD_VAGUE = re.compile(
    r"몇\s*(?:시간|분|초|일|주|달|개월|년)(?=\s*(?:동안|간|만|뒤|후|안|내|이내|까지|전|이후|쯤|정도))"
)
# Glued to a time with no blank: a number with no unit ("1시간30", "오후3까지").
_GLUED_AFTER = re.compile(rf"\d+(?:\.\d+)?|{_SINO_MULTI_RE}")
_GLUED_BEFORE = re.compile(r"\d+(?:\.\d+)?$")
# A number with a unit the parser does not know, before a time marker ("30m 동안").
_UNREAD_UNIT = re.compile(
    r"(?<![a-z\d])\d+(?:\.\d+)?\s?[a-z]+(?=\s*(?:까지|부터|동안|간|뒤|후|안에|내에|이내))"
)
_TIME_MARK_AFTER = re.compile(
    r"\s*(?:까지|부터|동안|마다|내내|이후)|(?:에는|에도|에|로|전|후|간|안|내)(?![가-힣])"
)


# --------------------------------------------------------------------------- internal types


class _Role(Enum):
    AT = "at"
    START = "start"
    END = "end"
    LEN = "len"
    DELAY = "delay"
    EVERY = "every"
    PAST = "past"


@dataclass(frozen=True)
class _Length:
    seconds: int = 0
    months: int = 0

    def add_to(self, moment: datetime) -> datetime:
        return _add_months(moment, self.months) + timedelta(seconds=self.seconds)

    @property
    def is_zero(self) -> bool:
        return self.seconds == 0 and self.months == 0


@dataclass(frozen=True)
class _DayRef:
    """A day, or a period of days (a week, a weekend, a month), named in the sentence."""

    offset: int | None = None  # 오늘=0, 내일=1 ...
    weekday: int | None = None  # ISO 1..7
    month_day: tuple[int, int] | None = None
    year: int | None = None  # with month_day or month: that year only
    week: int | None = None  # ISO week from this one: 0 이번주, 1 다음주 (alone: the whole week)
    weekend: bool = False  # with week: that week's Saturday and Sunday
    after_today: bool = False  # with weekday: 다음/오는 X요일, strictly after today
    next_week_only: bool = False  # 다음 X요일: must fall in the next ISO week, else unclear
    month_rel: int | None = None  # 0 이번 달, 1 다음 달 (alone: the whole month)
    month: int | None = None  # a named month, 3월 (alone: the whole month)
    month_after: bool = False  # 다음 3월: the first one that starts after today
    mday: int | None = None  # a day of the month: alone ("15일에") or with month_rel
    nth: int | None = None  # with weekday and a month: 1..5, or -1 for the last
    check_weekday: int | None = None  # "2월 18일 월요일": the date must fall on that weekday

    @property
    def multi_day(self) -> bool:
        """A week, weekend or month rather than one day."""
        if self.week is not None:
            return self.weekday is None
        month = self.month_rel is not None or self.month is not None
        return month and self.mday is None and self.nth is None

    def end_of(self, base: date) -> date:
        """The day after the period that starts on ``base``."""
        if self.week is not None and self.weekday is None:
            return base + timedelta(days=2 if self.weekend else 7)
        if self.multi_day:
            return _add_months_date(base, 1)
        return base + timedelta(days=1)

    def dates(self, today: date) -> list[date]:
        found = self._dates(today)
        if self.check_weekday is not None and any(
            d.isoweekday() != self.check_weekday for d in found
        ):
            raise _Fail(TimeOutcome.CONFLICT, "the weekday does not match the date")
        return found

    def _dates(self, today: date) -> list[date]:
        if self.offset is not None:
            return [today + timedelta(days=self.offset)]
        if self.week is not None:
            monday = today - timedelta(days=today.weekday()) + timedelta(weeks=self.week)
            if self.weekend:
                return [monday + timedelta(days=5)]
            return [monday + timedelta(days=(self.weekday or 1) - 1)]
        if self.month_rel is not None or self.month is not None:
            return self._month_dates(today)
        if self.mday is not None:
            return [_next_month_day(today, self.mday)]
        if self.weekday is not None:
            return self._weekday_dates(today)
        assert self.month_day is not None
        if self.year is not None:
            return [_calendar_date(self.year, *self.month_day)]
        return _month_day_dates(today, *self.month_day)

    def _weekday_dates(self, today: date) -> list[date]:
        assert self.weekday is not None
        if not self.after_today:
            return [
                today + timedelta(days=k)
                for k in range(-1, 14)
                if (today + timedelta(days=k)).isoweekday() == self.weekday
            ]
        ahead = (self.weekday - today.isoweekday()) % 7 or 7
        day = today + timedelta(days=ahead)
        if self.next_week_only and day.isocalendar()[:2] == today.isocalendar()[:2]:
            # "다음 금요일" said on a Monday: this Friday or next week's? Ask.
            raise _Fail(TimeOutcome.UNCLEAR, "'next weekday' may be this week or the next")
        return [day]

    def _month_dates(self, today: date) -> list[date]:
        """Start of the named month, or the day in it (a day of the month, an nth weekday)."""
        this_month = today.replace(day=1)
        if self.month_rel is not None:
            firsts = [_add_months_date(this_month, self.month_rel)]
        else:
            assert self.month is not None
            years = [self.year] if self.year is not None else [today.year, today.year + 1]
            firsts = [date(y, self.month, 1) for y in years]
            if self.year is None:
                # The coming such month: this year's unless it is over (or, for 다음 3월, begun).
                firsts = [
                    f
                    for f in firsts
                    if (f > today if self.month_after else _add_months_date(f, 1) > today)
                ]
        out: list[date] = []
        for first in firsts:
            if self.mday is not None:
                out.append(_calendar_date(first.year, first.month, self.mday))
            elif self.nth is not None:
                assert self.weekday is not None
                day = _nth_weekday(first, self.weekday, self.nth)
                if day is None:
                    raise _Fail(TimeOutcome.INVALID_TIME, "that month has no such weekday")
                if self.year is None and self.month_rel is None and day < today:
                    continue  # this year's is over: next year's
                out.append(day)
            else:
                out.append(first)
        if not out:
            raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over")
        return out[:1]


@dataclass
class _Clock:
    hour: int  # as said (1..12 for ambiguous hours, else 0..24)
    minute: int
    daypart: str | None = None
    named: str | None = None  # 정오 / 자정
    day: _DayRef | None = None
    second: int = 0

    @property
    def ambiguous(self) -> bool:
        return self.daypart is None and self.named is None and 1 <= self.hour <= 12

    @property
    def explicit(self) -> bool:
        return not self.ambiguous

    def readings(self) -> list[tuple[int, int]]:
        """(minute of day, day shift) pairs; shift 1 = the night after the named day."""
        m = self.minute
        if self.named == "정오":
            return [(12 * 60, 0)]
        if self.named == "자정" or self.hour == 24:
            return [(m, 1)]
        if self.hour > 12 or self.hour == 0:
            return [(self.hour * 60 + m, 0)]
        am, pm = self.hour % 12, self.hour % 12 + 12
        if self.daypart is None:
            return [(am * 60 + m, 0), (pm * 60 + m, 0)]
        return [(self._daypart_hour(am, pm) * 60 + m, 0)]

    def _daypart_hour(self, am: int, pm: int) -> int:
        assert self.daypart is not None
        allowed = _DP_HOURS[self.daypart]
        for hour in (am, pm):
            if hour in allowed:
                return hour
        return am if self.daypart in _DP_MORNING else pm

    def shifts(self, shift: int) -> tuple[int, ...]:
        if self.daypart == "밤" and self.hour in (12, 1, 2, 3, 4):
            return (1,)
        if self.daypart == "새벽" and self.day is not None and self.day.offset == 0:
            # "오늘 새벽 3시" said late at night means the coming early morning too.
            return (0, 1)
        return (shift,)

    def fixed_minutes(self) -> int:
        """One reading for recurring windows: an ambiguous hour reads as a.m., 12 as noon."""
        if self.ambiguous:
            return (12 if self.hour == 12 else self.hour) * 60 + self.minute
        return self.readings()[0][0]


@dataclass
class _Token:
    kind: str
    start: int
    end: int
    role: _Role = _Role.AT
    clock: _Clock | None = None
    day: _DayRef | None = None
    days: frozenset[int] = frozenset()
    length: _Length | None = None
    daypart: str | None = None
    word: str = ""
    used: bool = False
    mark: str = ""  # the marker consumed after the token ("까지", "부터", "" ...)
    prefix: str = ""  # the Korean meaning of an English marker before it ("until" -> "까지")
    mday: int | None = None  # a length "N일" that may name a day of the month instead
    ranged: bool = False  # the end of "3~5시", which shares the start's day part


@dataclass
class _Plan:
    """The roles found in the sentence, before resolution."""

    starts: list[_Token] = field(default_factory=list)
    ends: list[_Token] = field(default_factory=list)
    lengths: list[_Token] = field(default_factory=list)
    delays: list[_Token] = field(default_factory=list)
    ats: list[_Token] = field(default_factory=list)
    days: set[int] = field(default_factory=set)
    lone_days: list[_Token] = field(default_factory=list)
    has_now: bool = False
    loose_dayparts: int = 0
    daily: bool = False
    weekly: bool = False
    whole_day: bool = False


class _Fail(Exception):
    def __init__(self, outcome: TimeOutcome, reason: str, axis: TimeAxis | None = None) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason
        self.axis = axis


# --------------------------------------------------------------------------- numbers


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


def _sino_value(word: str) -> int | None:
    total, current = 0, 0
    for ch in word:
        if ch in _SINO:
            current = _SINO[ch]
        elif ch in ("십", "백"):
            total += (current or 1) * (10 if ch == "십" else 100)
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
    return unit in ("분", "초") or (multi and unit in ("시간", "일"))


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
        return _Length(months=int(value) * _UNIT_MONTHS[unit])
    return _Length(seconds=round(value * _UNIT_SECONDS[unit]))


def _half_of(unit: str) -> _Length:
    if unit in _UNIT_MONTHS:
        return _Length(seconds=15 * _DAY * _UNIT_MONTHS[unit])
    return _Length(seconds=_UNIT_SECONDS[unit] // 2)


def _plus(a: _Length, b: _Length) -> _Length:
    return _Length(seconds=a.seconds + b.seconds, months=a.months + b.months)


# --------------------------------------------------------------------------- lexing


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


def _mask_quotes(text: str) -> str:
    # Quoted words are notification keywords ("'3시' 들어간 알림"), never times.
    return _QUOTED.sub(lambda m: "\x00" * len(m.group(0)), text)


def _scan_text(text: str) -> str:
    return _mask_quotes(text).translate(_ASCII_LOWER)


def _lex(scan: str) -> list[_Token]:
    tokens: list[_Token] = []
    master = _MASTER_EN if _LATIN.search(scan) else _MASTER_KO
    pos = 0
    while pos < len(scan):
        m = master.search(scan, pos)
        if m is None:
            break
        made = _make_tokens(scan, m, tokens[-1].end if tokens else 0)
        if not made:
            pos = m.start() + 1
            continue
        for tok in made:
            tokens.append(tok)
        pos = made[-1].end
    return tokens


def _make_tokens(text: str, m: re.Match[str], floor: int) -> list[_Token]:
    kind = m.lastgroup
    if kind is None:
        return []
    builder = _BUILDERS.get(kind)
    if builder is None:
        return []
    made = builder(text, m)
    if made:
        _attach_prefix(text, made, floor)
        if made[-1].kind != "now":
            _attach_marker(text, made[-1])
    return made


def _attach_prefix(text: str, made: list[_Token], floor: int) -> None:
    """Consume what goes before a token: "약"/"about", and an English marker ("until 6pm")."""
    first = made[0]
    if first.start <= floor or (
        "가" <= text[first.start - 1] <= "힣" and text[first.start - 1] not in "약략"
    ):
        return  # only a blank, a Latin letter or 약/대략 can end a prefix
    head = text[max(floor, first.start - 24) : first.start]
    filler = _PREFIX_FILLER_RE.search(head)
    if filler:
        first.start -= len(filler.group(0))
        head = head[: len(head) - len(filler.group(0))]
    marker = _EN_PREFIX_RE.search(head)
    if marker:
        first.start -= len(marker.group(0))
        made[-1].prefix = _EN_PREFIX[" ".join(marker.group("pw").split())]


def _tok_now(text: str, m: re.Match[str]) -> list[_Token]:
    return [_Token("now", m.start(), m.end(), word=m.group(0))]


_Builder = Callable[[str, "re.Match[str]"], "list[_Token]"]


def _tok_simple(kind: str) -> _Builder:
    def build(text: str, m: re.Match[str]) -> list[_Token]:
        return [_Token(kind, m.start(), m.end(), word=m.group(0))]

    return build


def _tok_past(text: str, m: re.Match[str]) -> list[_Token]:
    tok = _Token("past", m.start(), m.end(), word=m.group(0))
    if _PAST_LENGTH.fullmatch(m.group(0)):
        tok.role = _Role.PAST  # "지난 2주" is a past length, the rule's time whatever follows
    return [tok]


def _tok_dayset(text: str, m: re.Match[str]) -> list[_Token]:
    word = " ".join(m.group(0).split())
    weekend = _EN_DAYSETS.get(word, word) == "주말"
    days = frozenset(range(6, 8)) if weekend else frozenset(range(1, 6))
    return [_Token("days", m.start(), m.end(), days=days, word=word)]


def _day_token(m: re.Match[str], ref: _DayRef) -> list[_Token]:
    return [_Token("day", m.start(), m.end(), day=ref, word=m.group(0))]


def _tok_weekend(text: str, m: re.Match[str]) -> list[_Token]:
    return _day_token(m, _DayRef(week=0, weekend=True))


def _tok_weekref(text: str, m: re.Match[str]) -> list[_Token]:
    week = 1 if m.group("wk_w") in ("다음", "오는") else 0
    wd = m.group("wk_wd")
    return _day_token(m, _DayRef(week=week, weekday=_WEEKDAY[wd] if wd else None))


def _tok_nextwd(text: str, m: re.Match[str]) -> list[_Token]:
    # 오는 X요일 is the coming one; 다음 X요일 may also mean next week's (asked when it differs).
    ref = _DayRef(
        weekday=_WEEKDAY[m.group("nw_wd")],
        after_today=True,
        next_week_only=m.group("nw_w") == "다음",
    )
    return _day_token(m, ref)


def _tok_ordwd(text: str, m: re.Match[str]) -> list[_Token]:
    nth = _ORDINAL[re.sub(r"\s+", "", m.group("ow_n"))]
    wd = _WEEKDAY[m.group("ow_wd")]
    if m.group("ow_rel"):
        ref = _DayRef(month_rel=0 if m.group("ow_rel") == "이번" else 1, nth=nth, weekday=wd)
        return _day_token(m, ref)
    month = int(m.group("ow_m"))
    if not 1 <= month <= 12:
        return []
    year = int(m.group("ow_y")) if m.group("ow_y") else None
    return _day_token(m, _DayRef(month=month, year=year, nth=nth, weekday=wd))


def _tok_monthref(text: str, m: re.Match[str]) -> list[_Token]:
    rel = 0 if m.group("mr_w") == "이번" or m.group("mr_t") == "이달" else 1
    mday = int(m.group("mr_d")) if m.group("mr_d") else None
    if mday is not None and not 1 <= mday <= 31:
        return []
    return _day_token(m, _DayRef(month_rel=rel, mday=mday))


def _tok_monthname(text: str, m: re.Match[str]) -> list[_Token]:
    month = int(m.group("mn_m"))
    if not 1 <= month <= 12:
        return []
    year = int(m.group("mn_y")) if m.group("mn_y") else None
    return _day_token(m, _DayRef(month=month, year=year, month_after=bool(m.group("mn_nx"))))


def _tok_wdrange(text: str, m: re.Match[str]) -> list[_Token]:
    values = _weekday_chars(re.sub(r"부터|에서|까지|사이", " ", m.group(0)))
    first, last = values[0], values[-1]
    days, d = [first], first
    while d != last:
        d = d % 7 + 1
        days.append(d)
    return [_Token("days", m.start(), m.end(), days=frozenset(days), word=m.group(0))]


def _weekday_chars(word: str) -> list[int]:
    cleaned = re.sub(r"요일|욜|와|과|이랑|랑|하고|및", " ", word)
    return [_WEEKDAY[c] for c in cleaned if c in _WEEKDAY]


def _tok_wdlist(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    if word in ("금일", "수일") or word.startswith(("금일", "수일")):
        return []  # 금일 = today, 수일 = a few days
    values = _weekday_chars(word)
    if len(set(values)) != len(values) or values != sorted(values):
        return []  # "일 수" in "할 수 있어" is no weekday list
    return [_Token("days", m.start(), m.end(), days=frozenset(values), word=word)]


def _tok_wdone(text: str, m: re.Match[str]) -> list[_Token]:
    wd = _WEEKDAY[m.group(0)[0]]
    return [_Token("weekday", m.start(), m.end(), day=_DayRef(weekday=wd), word=m.group(0))]


def _date_token(m: re.Match[str], year: str | None, month: str, mday: str) -> list[_Token]:
    mon, day = int(month), int(mday)
    if not (1 <= mon <= 12 and 1 <= day <= 31):
        return []
    ref = _DayRef(month_day=(mon, day), year=int(year) if year else None)
    return _day_token(m, ref)


def _tok_date(text: str, m: re.Match[str]) -> list[_Token]:
    return _date_token(m, m.group("dt_y"), m.group("mon"), m.group("mday"))


def _tok_ymd(text: str, m: re.Match[str]) -> list[_Token]:
    return _date_token(m, m.group("ymd_y"), m.group("ymd_m"), m.group("ymd_d"))


def _tok_md(text: str, m: re.Match[str]) -> list[_Token]:
    return _date_token(m, None, m.group("md_m"), m.group("md_d"))


_DAYWORD_OFFSET = {
    "오늘": 0,
    "금일": 0,
    "당일": 0,
    "내일": 1,
    "낼": 1,
    "다음날": 1,
    "이튿날": 1,
    "모레": 2,
    "내일모레": 2,
    "글피": 3,
}


def _tok_dayword(text: str, m: re.Match[str]) -> list[_Token]:
    word = re.sub(r"\s+", "", m.group(0))
    word = _EN_DAYS.get(word, word)
    ref = _DayRef(offset=_DAYWORD_OFFSET[word])
    return [_Token("day", m.start(), m.end(), day=ref, word=word)]


def _tok_tonight(text: str, m: re.Match[str]) -> list[_Token]:
    # "tonight" = 오늘 밤: a day word (empty span) and the day part that carries the span.
    day = _Token("day", m.start(), m.start(), day=_DayRef(offset=0), word="오늘")
    part = _Token("daypart", m.start(), m.end(), daypart="밤", word="밤")
    return [day, part]


def _tok_ampm(text: str, m: re.Match[str]) -> list[_Token]:
    hour_text = m.group("ap_h") or m.group("ap_h2")
    minute_text = m.group("ap_m") or m.group("ap_m2")
    word = " ".join((m.group("ap") or m.group("ap2")).split())
    daypart = _EN_MERIDIEM.get(word) or _EN_MERIDIEM_SHORT[word]
    hour = int(hour_text)
    if not 1 <= hour <= 12:
        return []  # "0am", "15pm" are no clock readings
    clock = _Clock(hour, int(minute_text or 0), daypart=daypart)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=m.group(0))]


def _tok_hhmm(text: str, m: re.Match[str]) -> list[_Token]:
    hour, minute = int(m.group("hh")), int(m.group("mm"))
    second = int(m.group("ss") or 0)
    if hour == 24 and (minute or second):
        return []
    clock = _Clock(hour, minute, second=second)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=m.group(0))]


def _hour_value(word: str) -> int | None:
    parsed = _number(word)
    if parsed is None or parsed[1] == "sino" or parsed[0] != int(parsed[0]):
        return None
    value = int(parsed[0])
    return value if 0 <= value <= 24 else None


_CLOCK_GLUE = re.compile(r"\s*(?:까지|부터|에|반|전|쯤|정각|~)")


def _tok_hrange(text: str, m: re.Match[str]) -> list[_Token]:
    a, b = _hour_value(m.group("ra")), _hour_value(m.group("rb"))
    if a is None or b is None or not _left_ok(text, m.start(), m.group("ra")):
        return []
    mid = m.start("rb")
    first = _Token(
        "clock", m.start(), mid, role=_Role.START, clock=_Clock(a, 0), word=text[m.start() : mid]
    )
    second = _Token("clock", mid, m.end(), clock=_Clock(b, 0), word=text[mid : m.end()])
    second.ranged = True
    return [first, second]


def _minute_value(word: str | None) -> int | None:
    if not word:
        return 0
    parsed = _number(word)
    if parsed is None or not 0 <= parsed[0] <= 59 or parsed[0] != int(parsed[0]):
        return None
    return int(parsed[0])


def _tok_clock(text: str, m: re.Match[str]) -> list[_Token]:
    hour = _hour_value(m.group("ch"))
    glued_ok = _CLOCK_GLUE.match(text, m.end()) is not None
    if not _left_ok(text, m.start(), m.group("ch"), glued_ok):
        return []
    minute = 30 if m.group("chalf") else _minute_value(m.group("cm"))
    second = _minute_value(m.group("cs"))
    if hour is None or minute is None or second is None or (hour == 24 and (minute or second)):
        if m.group("ch").isdigit() and all(
            (g or "0").isdigit() for g in (m.group("cm"), m.group("cs"))
        ):
            # "25시까지", "3시 75분": a clock time that does not exist is invalid, not absent.
            return [_Token("bad", m.start(), m.end(), word=m.group(0))]
        return []
    if m.group("cbefore"):
        # "3시 10분 전" is 2:50. Stay on the 12-hour dial when the hour was said that way.
        if not minute or second:
            return []
        total = hour * 60 - minute
        hour, minute = divmod(total % (24 * 60), 60)
        if hour == 0 and m.group("ch") not in ("0", "00"):
            hour = 12
    clock = _Clock(hour, minute, second=second)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=m.group(0))]


def _tok_named(text: str, m: re.Match[str]) -> list[_Token]:
    word = " ".join(m.group(0).split())
    word = _EN_NAMED.get(word, word)
    clock = _Clock(12 if word == "정오" else 0, 0, named=word)
    return [_Token("clock", m.start(), m.end(), clock=clock, word=word)]


def _tok_durspecial(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    tok = _Token(
        "dur", m.start(), m.end(), length=_Length(seconds=_DUR_SPECIAL[word] * _DAY), word=word
    )
    _extend_duration(text, tok, "일")
    return [tok]


def _unit_key(raw: str) -> str:
    return _EN_UNIT.get(" ".join(raw.split()), raw)


def _dur_token(
    text: str, m: re.Match[str], number: str, raw_unit: str, prefixed: bool = False
) -> list[_Token]:
    unit = _unit_key(raw_unit)
    english = unit != raw_unit
    parsed = _number(number)
    if parsed is None or (english and parsed[1] != "digit"):
        return []
    marked = _LEN_FOLLOW.match(text, m.end()) is not None
    if not _unit_accepts(unit, parsed[1], number) and not (
        (prefixed or marked) and _unit_accepts_marked(unit, parsed[1])
    ):
        return []
    if not _left_ok(text, m.start(), number, prefixed or _glue_safe(unit, parsed[1], number)):
        return []
    tok = _Token("dur", m.start(), m.end(), length=_length_of(parsed[0], unit), word=m.group(0))
    if unit == "일" and parsed[1] != "native" and parsed[0] == int(parsed[0]):
        if 1 <= parsed[0] <= 31:
            tok.mday = int(parsed[0])
    _extend_duration(text, tok, unit)
    if tok.end != m.end():
        tok.mday = None  # "2일 3시간" is a length only
    return [tok]


def _tok_dur(text: str, m: re.Match[str]) -> list[_Token]:
    return _dur_token(text, m, m.group("dn"), m.group("du"))


def _tok_nextlen(text: str, m: re.Match[str]) -> list[_Token]:
    # "다음 3시간": a length from now (docs/time.md, decision next-n-units).
    made = _dur_token(text, m, m.group("nl_n"), m.group("nl_u"), prefixed=True)
    for tok in made:
        tok.mday = None
    return made


def _tok_dursmall(text: str, m: re.Match[str]) -> list[_Token]:
    # "일분 안에", "이분 동안": 일/이/구 only count as numbers before a length marker.
    value = _SINO[m.group("ds_n")]
    tok = _Token("dur", m.start(), m.end(), length=_length_of(value, m.group("ds_u")))
    tok.word = m.group(0)
    return [tok]


def _extend_duration(text: str, tok: _Token, unit: str) -> None:
    """Glue "1시간 30분", "2일 3시간", "1시간 반" into one length (larger unit first)."""
    assert tok.length is not None
    while True:
        m = _DUR_NEXT.match(text, tok.end)
        if m is None:
            return
        if m.group("half"):
            tok.length = _plus(tok.length, _half_of(unit))
            tok.end = m.end()
            return
        parsed = _number(m.group("dn"))
        nxt = _unit_key(m.group("du"))
        if (
            parsed is None
            or _UNIT_RANK[nxt] >= _UNIT_RANK[unit]
            or not _unit_accepts(nxt, parsed[1], m.group("dn"))
            or (nxt != m.group("du") and parsed[1] != "digit")
        ):
            return
        tok.length = _plus(tok.length, _length_of(parsed[0], nxt))
        tok.end, unit = m.end(), nxt


def _tok_daypart(text: str, m: re.Match[str]) -> list[_Token]:
    word = m.group(0)
    return [_Token("daypart", m.start(), m.end(), daypart=word, word=word)]


_BUILDERS: dict[str, _Builder] = {
    "past": _tok_past,
    "now": _tok_now,
    "wholeday": _tok_simple("wholeday"),
    "daily": _tok_simple("daily"),
    "weekly": _tok_simple("weekly"),
    "weekend": _tok_weekend,
    "dayset": _tok_dayset,
    "weekref": _tok_weekref,
    "nextwd": _tok_nextwd,
    "ordwd": _tok_ordwd,
    "monthref": _tok_monthref,
    "wdrange": _tok_wdrange,
    "wdlist": _tok_wdlist,
    "wdspaced": _tok_wdlist,
    "wdcompact": _tok_wdlist,
    "wdone": _tok_wdone,
    "ymd": _tok_ymd,
    "date": _tok_date,
    "md": _tok_md,
    "monthname": _tok_monthname,
    "dayword": _tok_dayword,
    "tonight": _tok_tonight,
    "ampm": _tok_ampm,
    "hhmm": _tok_hhmm,
    "hrange": _tok_hrange,
    "clock": _tok_clock,
    "named": _tok_named,
    "nextlen": _tok_nextlen,
    "durspecial": _tok_durspecial,
    "dur": _tok_dur,
    "dursmall": _tok_dursmall,
    "daypart": _tok_daypart,
}


def _attach_marker(text: str, tok: _Token) -> None:
    """Consume the filler and marker after a token; the marker decides the token's role."""
    end = tok.end
    filler = _FILLER.match(text, end)
    if filler:
        end = filler.end()
    m = _MARKER.match(text, end)
    mark = re.sub(r"\s+", "", m.group("mk")) if m else ""
    if m and tok.kind == "past" and mark not in _PAST_WORD_MARKS:
        m, mark = None, ""  # "방금 만든": only a rule marker goes with a past word
    if m and mark == "간" and (tok.kind != "dur" or m.start("mk") != end):
        m, mark = None, ""  # 간 only glues straight onto a length ("3일간")
    if m and mark in ("-", "~", "–", "〜") and tok.kind not in ("clock", "day", "weekday"):
        m, mark = None, ""
    if m:
        end = m.end()
    if not mark and tok.prefix:
        mark = tok.prefix  # "until 6pm" reads as "6pm까지"
    tok.mark = mark
    if (tok.kind == "dur" and mark in _PAST_MARKS) or tok.role is _Role.PAST:
        tok.kind, tok.role, tok.end = "past", _Role.PAST, end
        return
    if tok.kind == "dur" and tok.mday is not None and mark in _MDAY_MARKS:
        tok.kind, tok.day, tok.length = "day", _DayRef(mday=tok.mday), None
    tok.role = _role_for(tok.kind, mark, bool(filler))
    if tok.role is _Role.DELAY:
        after = _AFTER_DELAY.match(text, end)
        if after:
            # "1시간 후까지" is a length; "30분 뒤부터" stays a delay.
            end = after.end()
            if after.group("mk") in ("까지", "동안"):
                tok.role = _Role.LEN
    tok.end = end


def _role_for(kind: str, mark: str, filler: bool) -> _Role:
    if mark == "마다":
        return _Role.EVERY
    if kind == "dur":
        if mark in _DELAY_MARKS:
            return _Role.DELAY
        return _Role.LEN
    if mark in _END_MARKS:
        return _Role.END
    if mark in _START_MARKS:
        return _Role.START
    if kind in ("days", "wholeday") and mark in _LEN_MARKS:
        return _Role.LEN
    return _Role.AT


# --------------------------------------------------------------------------- attach + plan


def _gap_is_blank(text: str, a: int, b: int) -> bool:
    return a <= b and text[a:b].strip(" \t,") in ("", "의")


def _attach(text: str, tokens: list[_Token], recurring: bool) -> list[_Token]:
    """Bind day words and day parts to the clock time right after them."""
    pending_day: _Token | None = None
    pending_dp: _Token | None = None
    for tok in tokens:
        if tok.kind == "clock" and tok.clock is not None:
            head = tok.start
            if pending_dp is not None and _gap_is_blank(text, pending_dp.end, head):
                tok.clock.daypart = pending_dp.daypart
                pending_dp.used = pending_dp.role is _Role.AT
                head = pending_dp.start
            if pending_day is not None and _gap_is_blank(text, pending_day.end, head):
                tok.clock.day = pending_day.day
                pending_day.used = True
            pending_day = pending_dp = None
        elif tok.kind == "daypart" and tok.role in (_Role.AT, _Role.EVERY):
            if pending_day is not None and not _gap_is_blank(text, pending_day.end, tok.start):
                pending_day = None
            pending_dp = tok
        elif (
            tok.kind in ("day", "weekday")
            and tok.role is _Role.AT
            and not (recurring and tok.kind == "weekday")
        ):
            pending_day, pending_dp = tok, None
        else:
            pending_day = pending_dp = None
    return tokens


def _bind_hrange_dayparts(tokens: list[_Token]) -> None:
    """ "오후 3~5시": the day part said once applies to both ends of the range."""
    for a, b in zip(tokens, tokens[1:], strict=False):
        if (
            a.kind == b.kind == "clock"
            and b.ranged
            and a.end == b.start
            and a.clock
            and b.clock
            and a.clock.daypart
            and b.clock.daypart is None
        ):
            b.clock.daypart = a.clock.daypart
            b.clock.day = b.clock.day or a.clock.day


def _is_mday_length(tok: _Token) -> bool:
    """A bare "N일" that may still turn out to be a day of the month."""
    return tok.kind == "dur" and tok.mday is not None and tok.mark == ""


def _loose_month_day(tok: _Token) -> int | None:
    """ "15일" / "15일까지" with no month of its own, or None."""
    if _is_mday_length(tok) or (tok.kind == "dur" and tok.mday and tok.mark in _END_MARKS):
        return tok.mday
    ref = tok.day
    if tok.kind == "day" and ref is not None and ref.mday is not None and ref.month_rel is None:
        return ref.mday
    return None


def _bind_days(text: str, tokens: list[_Token]) -> list[_Token]:
    """Read a day of the month where the context says so, and a date's own weekday.

    "19일 화요일", "2월 18일 월요일": the weekday checks the date (a mismatch is a conflict).
    "7월 13일부터 15일": a bare "N일" after a date that starts a window is the end day.
    """
    out: list[_Token] = []
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            _is_mday_length(tok)
            and nxt is not None
            and nxt.kind in ("clock", "daypart")
            and _gap_is_blank(text, tok.end, nxt.start)
        ):
            # "15일 오후 3시까지": a bare "N일" that dates a clock time is a day of the month.
            assert tok.mday is not None
            tok.kind, tok.length, tok.role = "day", None, _Role.AT
            tok.day, tok.mday = _DayRef(mday=tok.mday), None
        prev = out[-1] if out else None
        if (
            prev is not None
            and tok.kind == "weekday"
            and _gap_is_blank(text, prev.end, tok.start)
            and (_is_mday_length(prev) or (prev.kind == "day" and prev.role is _Role.AT))
            and (prev.mday is not None or (prev.day is not None and prev.day.month_day))
        ):
            assert tok.day is not None and tok.day.weekday is not None
            base = _DayRef(mday=prev.mday) if prev.kind == "dur" else prev.day
            assert base is not None
            prev.kind, prev.length, prev.mday = "day", None, None
            prev.day = replace(base, check_weekday=tok.day.weekday)
            prev.end, prev.role, prev.mark = tok.end, tok.role, tok.mark
            continue
        mday = _loose_month_day(tok)
        if (
            mday is not None
            and prev is not None
            and prev.kind == "day"
            and prev.role is _Role.START
            and prev.day is not None
            and prev.day.month_day is not None
        ):
            start_month, start_day = prev.day.month_day
            month = start_month if mday >= start_day else start_month % 12 + 1
            tok.kind, tok.length, tok.mday = "day", None, None
            tok.day = _DayRef(month_day=(month, mday), year=prev.day.year)
            tok.role = _Role.END if tok.mark in _END_MARKS else _Role.AT
        out.append(tok)
    return out


def _is_recurring(tokens: Sequence[_Token]) -> bool:
    kinds = {t.kind for t in tokens}
    if kinds & {"daily", "weekly", "days"}:
        return True
    return any(t.role is _Role.EVERY for t in tokens)


def _drop_end_weekdays(text: str, tokens: list[_Token]) -> None:
    """ "매주 금요일 오후 6시부터 토요일 오전 10시까지": the window starts on Friday only; the
    weekday before the end time says where the window ends, which the overnight rule gives."""
    for i, tok in enumerate(tokens):
        if tok.kind != "weekday" or tok.used:
            continue
        nxt = i + 1
        while nxt < len(tokens) and tokens[nxt].kind == "daypart":
            nxt += 1
        if (
            nxt < len(tokens)
            and tokens[nxt].kind == "clock"
            and tokens[nxt].role is _Role.END
            and any(t.role is _Role.START for t in tokens[:i])
            and _gap_is_blank(text, tok.end, tokens[i + 1].start)
        ):
            tok.used = True


def _plan(tokens: list[_Token], recurring: bool) -> _Plan:
    plan = _Plan()
    last_start: _Token | None = None
    for tok in tokens:
        if tok.used:
            continue
        kind = tok.kind
        if kind == "now":
            plan.has_now = True
        elif kind == "daily":
            plan.daily = True
        elif kind == "weekly":
            plan.weekly = True
        elif kind == "wholeday":
            plan.whole_day = True
        elif kind == "days":
            plan.days |= tok.days
        elif kind == "daypart":
            if tok.role is _Role.EVERY:
                plan.daily = True
            else:
                plan.loose_dayparts += 1
        elif kind == "weekday" and recurring:
            assert tok.day is not None and tok.day.weekday is not None
            plan.days.add(tok.day.weekday)
        elif kind == "dur":
            _plan_duration(plan, tok)
        else:
            last_start = _plan_point(plan, tok, last_start)
    return plan


def _plan_duration(plan: _Plan, tok: _Token) -> None:
    if tok.role is _Role.DELAY:
        plan.delays.append(tok)
    else:
        plan.lengths.append(tok)


def _plan_point(plan: _Plan, tok: _Token, last_start: _Token | None) -> _Token | None:
    """Clock times and day words: start, end, or said bare (decided later)."""
    if tok.kind in ("day", "weekday") and tok.role is _Role.AT:
        if (
            last_start is not None
            and last_start.kind in ("day", "weekday")
            and not plan.ends
            and not _is_today(tok)
        ):
            # "8월 8일부터 8월 13일" without 까지: the day after a starting day is the end.
            plan.ends.append(tok)
            return None
        plan.lone_days.append(tok)
        return last_start
    if tok.role is _Role.START:
        plan.starts.append(tok)
        return tok
    if tok.role is _Role.END:
        plan.ends.append(tok)
        return None
    if last_start is not None and not plan.ends:
        # "3시부터 5시" without 까지: a bare time after a start is the end.
        plan.ends.append(tok)
        return None
    plan.ats.append(tok)
    return last_start


# --------------------------------------------------------------------------- resolution


def _add_months(moment: datetime, months: int) -> datetime:
    if not months:
        return moment
    idx = moment.month - 1 + months
    year, month = moment.year + idx // 12, idx % 12 + 1
    day = min(moment.day, _days_in_month(year, month))
    return moment.replace(year=year, month=month, day=day)


def _days_in_month(year: int, month: int) -> int:
    nxt = date(year + month // 12, month % 12 + 1, 1)
    return (nxt - timedelta(days=1)).day


def _add_months_date(day: date, months: int) -> date:
    idx = day.month - 1 + months
    year, month = day.year + idx // 12, idx % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, _days_in_month(year, month)))


def _calendar_date(year: int, month: int, mday: int) -> date:
    if not (1 <= month <= 12 and 1 <= mday <= _days_in_month(year, month)):
        raise _Fail(TimeOutcome.INVALID_TIME, "not a calendar date")
    return date(year, month, mday)


def _next_month_day(today: date, mday: int) -> date:
    """ "15일에": the next 15th that is not past (today counts), skipping short months."""
    first = today.replace(day=1)
    for k in range(13):
        month = _add_months_date(first, k)
        if mday <= _days_in_month(month.year, month.month):
            day = month.replace(day=mday)
            if day >= today:
                return day
    raise _Fail(TimeOutcome.INVALID_TIME, "not a day of the month")


def _nth_weekday(first: date, weekday: int, nth: int) -> date | None:
    """The nth (or, for -1, the last) given weekday in the month that starts on ``first``."""
    if nth > 0:
        day = first + timedelta(days=(weekday - first.isoweekday()) % 7 + 7 * (nth - 1))
        return day if day.month == first.month else None
    last = _add_months_date(first, 1) - timedelta(days=1)
    return last - timedelta(days=(last.isoweekday() - weekday) % 7)


def _month_day_dates(today: date, month: int, mday: int) -> list[date]:
    out: list[date] = []
    for year in (today.year, today.year + 1):
        if mday <= _days_in_month(year, month):
            cand = date(year, month, mday)
            if cand >= today - timedelta(days=1):
                out.append(cand)
    if not out:
        raise _Fail(TimeOutcome.INVALID_TIME, "not a calendar date")
    return out[:1]


def _at(day: date, minutes: int, tz: tzinfo, second: int = 0) -> datetime:
    return datetime.combine(day, time(minutes // 60, minutes % 60, second), tz)


def _candidates(clock: _Clock, now: datetime, day: _DayRef | None = None) -> list[datetime]:
    """Every instant the clock time can name around now, sorted."""
    tz = now.tzinfo
    assert tz is not None
    today = now.date()
    ref = day or clock.day
    bases = ref.dates(today) if ref else [today + timedelta(days=k) for k in range(-2, 3)]
    named_day = ref is not None
    out: set[datetime] = set()
    for base in bases:
        for minutes, shift in clock.readings():
            # With no day named, the search band already covers every date.
            for s in clock.shifts(shift) if named_day else (0,):
                out.add(_at(base + timedelta(days=s), minutes, tz, clock.second))
    return sorted(out)


def _point_day_ref(tok: _Token) -> _DayRef:
    assert tok.day is not None
    return tok.day


def _first_after(tok: _Token, moment: datetime, now: datetime) -> datetime:
    """The first instant the end token names strictly after ``moment``."""
    if tok.kind in ("day", "weekday"):
        ref = _point_day_ref(tok)
        for base in ref.dates(now.date()):
            end = _at(ref.end_of(base), 0, _tz(now))
            if end > moment:
                return end
        raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over")
    assert tok.clock is not None
    for cand in _candidates(tok.clock, now):
        if cand > moment:
            return cand
    if tok.clock.day is None:
        # Unnamed day: look further ahead than the default search band.
        later = _candidates(tok.clock, moment)
        for cand in later:
            if cand > moment:
                return cand
    raise _Fail(TimeOutcome.INVALID_TIME, "that time has already passed")


def _tz(now: datetime) -> tzinfo:
    assert now.tzinfo is not None
    return now.tzinfo


def _start_candidates(tok: _Token, now: datetime) -> list[datetime]:
    if tok.kind in ("day", "weekday"):
        ref = _point_day_ref(tok)
        if ref.offset == 0:
            return [now]  # "오늘부터" starts now
        starts = [_at(b, 0, _tz(now)) for b in ref.dates(now.date())]
        if ref.multi_day:
            # A week, weekend or month already under way starts now ("이번 주말", Clarifications).
            starts = [max(s, now) for s in starts]
        return starts
    assert tok.clock is not None
    return _candidates(tok.clock, now)


def _window_end(start_tok: _Token, start: datetime, end_tok: _Token, now: datetime) -> datetime:
    """End of a one-off window, resolved against its start."""
    clock, sclock = end_tok.clock, start_tok.clock
    if (
        clock is None
        or clock.day is not None
        or sclock is None
        or sclock.day is None
        or clock.ambiguous
    ):
        return _first_after(end_tok, start, now)
    # Both on an explicitly named day: the end is on that day unless it crosses midnight the
    # natural way (p.m. -> a.m.); "오늘 오후 5시부터 오후 3시까지" is an error, not 22 hours.
    end = _first_after(end_tok, start, start)
    start_day = _DayRef(offset=(start.date() - now.date()).days)
    same_day = [c for c in _candidates(clock, now, start_day) if c > start]
    if same_day:
        return same_day[0]
    end_minutes = clock.readings()[0][0]
    if start.hour >= 12 and end_minutes < 12 * 60:
        return end
    raise _Fail(
        TimeOutcome.INVALID_TIME, "the end comes before the start on the same day", TimeAxis.WINDOW
    )


# --------------------------------------------------------------------------- interpretation


def _one(items: list[_Token], what: str) -> _Token | None:
    if len(items) > 1:
        raise _Fail(TimeOutcome.CONFLICT, f"more than one {what}")
    return items[0] if items else None


def _length(tok: _Token) -> _Length:
    assert tok.length is not None
    if tok.length.is_zero:
        raise _Fail(TimeOutcome.INVALID_TIME, "a length of zero")
    return tok.length


def _resolve_once(plan: _Plan, now: datetime) -> tuple[TimeAxis, datetime, datetime]:
    """One-off rules: duration, until, relative delay, window, whole day."""
    _promote_ats(plan)
    start_tok = _one(plan.starts, "start")
    end_tok = _one(plan.ends, "end")
    len_tok = _one(plan.lengths, "length")
    delay_tok = _one(plan.delays, "delay")
    if end_tok and len_tok:
        raise _Fail(TimeOutcome.CONFLICT, "both an end time and a length")
    if start_tok and delay_tok:
        raise _Fail(TimeOutcome.CONFLICT, "both a start time and a delay")
    _adopt_lone_day(plan, start_tok, end_tok)
    if start_tok and _is_today(start_tok):
        start_tok, plan.has_now = None, True
    if start_tok and plan.has_now:
        raise _Fail(TimeOutcome.CONFLICT, "starts both now and later")
    if delay_tok:
        return _relative(delay_tok, end_tok, len_tok, now)
    if start_tok:
        return _window(start_tok, end_tok, len_tok, now)
    if len_tok:
        return _duration(plan, len_tok, now)
    if end_tok:
        return TimeAxis.UNTIL_ABSOLUTE, now, _first_after(end_tok, now, now)
    return _whole_day(plan, now)


def _adopt_lone_day(plan: _Plan, start_tok: _Token | None, end_tok: _Token | None) -> None:
    """ "내일 카톡 3시까지": a day said apart from the time still dates it."""
    for tok in (start_tok, end_tok):
        if plan.lone_days and tok is not None and tok.clock is not None and tok.clock.day is None:
            tok.clock.day = _point_day_ref(plan.lone_days.pop(0))
            return


def _is_today(tok: _Token) -> bool:
    return tok.kind == "day" and tok.day is not None and tok.day.offset == 0


def _promote_ats(plan: _Plan) -> None:
    """A bare time ("오후 3시에") is a start when an end or a length goes with it."""
    if not plan.ats:
        return
    if len(plan.ats) > 1:
        raise _Fail(TimeOutcome.CONFLICT, "more than one time without 부터/까지")
    at = plan.ats[0]
    if plan.starts:
        raise _Fail(TimeOutcome.CONFLICT, "more than one start")
    if not (plan.ends or plan.lengths):
        raise _Fail(TimeOutcome.NO_TIME, "a time without 부터/까지 or a length", TimeAxis.WINDOW)
    plan.starts.append(at)
    plan.ats.clear()
    if plan.lone_days and at.clock is not None and at.clock.day is None:
        at.clock.day = _point_day_ref(plan.lone_days.pop(0))


def _relative(
    delay_tok: _Token, end_tok: _Token | None, len_tok: _Token | None, now: datetime
) -> tuple[TimeAxis, datetime, datetime]:
    delivery = _length(delay_tok).add_to(now)
    if len_tok:
        return TimeAxis.RELATIVE_DELAY, delivery, _length(len_tok).add_to(delivery)
    if end_tok:
        return TimeAxis.RELATIVE_DELAY, delivery, _first_after(end_tok, delivery, now)
    raise _Fail(TimeOutcome.NO_TIME, "a delay without a length or an end", TimeAxis.RELATIVE_DELAY)


def _window(
    start_tok: _Token, end_tok: _Token | None, len_tok: _Token | None, now: datetime
) -> tuple[TimeAxis, datetime, datetime]:
    if not end_tok and not len_tok:
        raise _Fail(TimeOutcome.NO_TIME, "a start without an end or a length", TimeAxis.WINDOW)
    last: datetime | None = None
    for start in _start_candidates(start_tok, now):
        if end_tok:
            end = _window_end(start_tok, start, end_tok, now)
        else:
            assert len_tok is not None
            end = _length(len_tok).add_to(start)
        last = end
        if end - start >= timedelta(days=1) and start.date() < now.date():
            continue  # a multi-day window said today starts today, not days ago
        if end > now:
            return TimeAxis.WINDOW, start, end
    if last is not None and last <= now:
        raise _Fail(TimeOutcome.INVALID_TIME, "that window is already over", TimeAxis.WINDOW)
    raise _Fail(TimeOutcome.INVALID_TIME, "no such window", TimeAxis.WINDOW)


def _duration(plan: _Plan, len_tok: _Token, now: datetime) -> tuple[TimeAxis, datetime, datetime]:
    future_days = [t for t in plan.lone_days if not _is_today(t)]
    if future_days:
        raise _Fail(
            TimeOutcome.NO_TIME, "a length on a later day needs a start time", TimeAxis.WINDOW
        )
    return TimeAxis.DURATION, now, _length(len_tok).add_to(now)


def _whole_day(plan: _Plan, now: datetime) -> tuple[TimeAxis, datetime, datetime]:
    """Only a day named: 오늘 = the rest of today, another day = that whole day."""
    if len(plan.lone_days) > 1:
        raise _Fail(TimeOutcome.CONFLICT, "more than one day")
    if not plan.lone_days:
        if plan.whole_day:
            return TimeAxis.UNTIL_ABSOLUTE, now, _at(now.date() + timedelta(days=1), 0, _tz(now))
        raise _Fail(TimeOutcome.NO_TIME, "no length, end or day was named")
    tok = plan.lone_days[0]
    if plan.loose_dayparts:
        # "오늘 밤에": the part of the day has no hours; asking beats guessing them.
        raise _Fail(TimeOutcome.NO_TIME, "a part of the day without hours")
    if _is_today(tok):
        return TimeAxis.UNTIL_ABSOLUTE, now, _at(now.date() + timedelta(days=1), 0, _tz(now))
    ref = _point_day_ref(tok)
    for base in ref.dates(now.date()):
        start = _at(base, 0, _tz(now))
        end = _at(ref.end_of(base), 0, _tz(now))
        if ref.multi_day:
            start = max(start, now)  # "이번 주말" said on Sunday runs from now (Clarifications)
        if end > now:
            return TimeAxis.WINDOW, start, end
    raise _Fail(TimeOutcome.INVALID_TIME, "that day is already over", TimeAxis.WINDOW)


def _resolve_recurring(plan: _Plan, now: datetime) -> TimeCondition:
    weekly = bool(plan.days) or plan.weekly
    axis = TimeAxis.WEEKLY if weekly else TimeAxis.DAILY
    if weekly and not plan.days:
        raise _Fail(TimeOutcome.NO_TIME, "a weekly rule without days", axis)
    if plan.delays:
        raise _Fail(TimeOutcome.CONFLICT, "a delay in a recurring rule", axis)
    not_before = _not_before(plan, now)
    plan.starts = [t for t in plan.starts if t.kind not in ("day", "weekday")]
    _promote_ats(plan)
    start_tok = _one(plan.starts, "start")
    end_tok = _one(plan.ends, "end")
    len_tok = _one(plan.lengths, "length")
    if end_tok and len_tok:
        raise _Fail(TimeOutcome.CONFLICT, "both an end time and a length", axis)
    start_min, length_min = _recurring_window(start_tok, end_tok, len_tok, weekly, axis)
    days = tuple(sorted(plan.days)) if weekly else ()
    delivery, expires = _occurrence(now, start_min, length_min, set(days) or None, not_before)
    end_min = (start_min + length_min) % (24 * 60)
    return TimeCondition(delivery, expires, axis.value, days, _hhmm(start_min), _hhmm(end_min))


def _recurring_window(
    start_tok: _Token | None,
    end_tok: _Token | None,
    len_tok: _Token | None,
    weekly: bool,
    axis: TimeAxis,
) -> tuple[int, int]:
    """(start minute of day, length in minutes) of a daily/weekly window."""
    if start_tok is None and end_tok is None and len_tok is None:
        if weekly:
            return 0, 24 * 60  # weekdays without hours: the whole day
        raise _Fail(TimeOutcome.NO_TIME, "a daily rule without hours", axis)
    if start_tok is None or start_tok.clock is None or (end_tok is None and len_tok is None):
        raise _Fail(TimeOutcome.NO_TIME, "a recurring rule needs a start and an end", axis)
    if start_tok.clock.second or (end_tok is not None and end_tok.clock and end_tok.clock.second):
        raise _Fail(TimeOutcome.UNCLEAR, "seconds in a recurring window", axis)
    start_min = start_tok.clock.fixed_minutes()
    if len_tok is not None:
        length = _length(len_tok)
        minutes = length.seconds // 60
        if length.months or minutes > 24 * 60 or length.seconds % 60:
            raise _Fail(TimeOutcome.INVALID_TIME, "a daily window longer than a day", axis)
        return start_min, minutes
    assert end_tok is not None
    if end_tok.clock is None:
        raise _Fail(TimeOutcome.NO_TIME, "a recurring rule needs an end time", axis)
    return start_min, _recurring_length(start_min, end_tok.clock, axis)


def _recurring_length(start_min: int, end: _Clock, axis: TimeAxis) -> int:
    """The end hour is its first reading after the start (overnight windows end next day)."""
    if end.hour == 24 or (end.named == "자정" and start_min == 0):
        return (24 * 60 - start_min) or 24 * 60
    gaps = [(minutes - start_min) % (24 * 60) for minutes, _ in end.readings()]
    positive = [g for g in gaps if g > 0]
    if not positive:
        raise _Fail(TimeOutcome.INVALID_TIME, "a window of length zero", axis)
    return min(positive)


def _not_before(plan: _Plan, now: datetime) -> datetime | None:
    """ "내일부터 매일 ...": the first occurrence starts on or after that day."""
    for tok in plan.lone_days + plan.starts:
        if tok.kind == "day" and tok.day is not None and not _is_today(tok):
            return _at(tok.day.dates(now.date())[0], 0, _tz(now))
    return None


def _occurrence(
    now: datetime,
    start_min: int,
    length_min: int,
    days: set[int] | None,
    not_before: datetime | None,
) -> tuple[datetime, datetime]:
    """The occurrence in force now, else the next one."""
    today = now.date()
    for k in range(-1, 380):
        day = today + timedelta(days=k)
        if days is not None and day.isoweekday() not in days:
            continue
        start = _at(day, start_min, _tz(now))
        end = start + timedelta(minutes=length_min)
        if end > now and (not_before is None or start >= not_before):
            return start, end
    raise _Fail(TimeOutcome.INVALID_TIME, "no occurrence found")


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# --------------------------------------------------------------------------- entry point


def _spans(text: str, tokens: Iterable[_Token]) -> tuple[TimeSpan, ...]:
    """Token spans, merged where only blanks separate them."""
    merged: list[list[int]] = []
    for tok in sorted(tokens, key=lambda t: t.start):
        start, end = tok.start, tok.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            continue
        if merged and text[merged[-1][1] : start].strip() == "":
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple(TimeSpan(s, e, text[s:e]) for s, e in merged)


def _normalise_now(now: datetime) -> datetime:
    offset = now.utcoffset()
    if offset is None:
        raise ValueError("now must be timezone-aware")
    # A fixed offset: wall-clock arithmetic must not follow a DST zone's rules.
    return now.astimezone(timezone(offset)).replace(microsecond=0)


def _check(delivery: datetime, expires: datetime, axis: TimeAxis) -> None:
    if expires <= delivery:
        raise _Fail(TimeOutcome.INVALID_TIME, "the end is not after the start", axis)
    if expires - delivery > _MAX_SPAN:
        raise _Fail(TimeOutcome.INVALID_TIME, "longer than 366 days", axis)


# "내일 아침까지": an end named by a part of the day alone. Asking "until when?" after the
# user said it is worse than the moment people mean by it, so each part has an anchor.
_DP_END_ANCHOR: dict[str, _Clock] = {
    "오전": _Clock(hour=12, minute=0, named="정오"),
    "점심": _Clock(hour=12, minute=0, named="정오"),
    "낮": _Clock(hour=12, minute=0, named="정오"),
    "새벽": _Clock(hour=6, minute=0, daypart="새벽"),
    "아침": _Clock(hour=8, minute=0, daypart="아침"),
    "오후": _Clock(hour=18, minute=0),
    "저녁": _Clock(hour=18, minute=0),
    "밤": _Clock(hour=22, minute=0),
}


def _anchor_daypart_ends(tokens: list[_Token]) -> None:
    for tok in tokens:
        if tok.kind == "daypart" and tok.role is _Role.END and tok.daypart in _DP_END_ANCHOR:
            anchor = _DP_END_ANCHOR[tok.daypart]
            tok.kind = "clock"
            tok.clock = _Clock(anchor.hour, anchor.minute, anchor.daypart, anchor.named)


def _adjacent(text: str, a: _Token, b: _Token) -> bool:
    first, second = (a, b) if a.start <= b.start else (b, a)
    return _gap_is_blank(text, first.end, second.start)


def _drop_past(text: str, tokens: list[_Token]) -> list[_Token]:
    """A past time as the rule's time is invalid ("어제 밤 10시까지", "지난주부터", "7일 전").

    A past length ("지난 2주", "7일 전") or a past word with 까지/부터/동안, or right before a
    clock time or a time with such a marker, is the rule's time. A past day said in passing
    ("어제 카톡 몇 개 왔어?", "어제처럼 2시간만") is talk about the past, not a rule: dropped.
    """
    past = [t for t in tokens if t.kind == "past"]
    if not past:
        return tokens
    if any(t.role is not _Role.AT for t in past) or any(
        _dates_a_time(text, tokens, i) for i, t in enumerate(tokens) if t.kind == "past"
    ):
        raise _Fail(TimeOutcome.INVALID_TIME, "a time in the past")
    return [t for t in tokens if t.kind != "past"]


def _dates_a_time(text: str, tokens: list[_Token], i: int) -> bool:
    """Whether the past word at ``i`` goes with the time after it ("어제 밤 10시까지")."""
    prev = tokens[i]
    for tok in tokens[i + 1 :]:
        if not _adjacent(text, prev, tok):
            return False
        if tok.kind != "daypart" or tok.role is not _Role.AT:
            return tok.role is not _Role.AT or tok.kind == "clock"
        prev = tok
    return False


def _interpret(text: str, tokens: list[_Token], now: datetime) -> tuple[TimeAxis, TimeCondition]:
    tokens = _bind_days(text, tokens)
    recurring = _is_recurring(tokens)
    if not recurring:
        _anchor_daypart_ends(tokens)
    else:
        _drop_end_weekdays(text, tokens)
    tokens = _attach(text, tokens, recurring)
    _bind_hrange_dayparts(tokens)
    plan = _plan(tokens, recurring)
    if recurring:
        cond = _resolve_recurring(plan, now)
        axis = TimeAxis.WEEKLY if cond.recurrence == "weekly" else TimeAxis.DAILY
        _check(cond.delivery, cond.expires, axis)
        return axis, cond
    _fold_today_whole_day(plan)
    axis, delivery, expires = _resolve_once(plan, now)
    _check(delivery, expires, axis)
    return axis, TimeCondition(delivery, expires)


def _fold_today_whole_day(plan: _Plan) -> None:
    """ "오늘 하루" / "내일 하루" name a day, not a 24-hour length."""
    if (
        plan.lone_days
        and len(plan.lengths) == 1
        and plan.lengths[0].word == "하루"
        and plan.lengths[0].length == _Length(seconds=_DAY)
        and not plan.starts
        and not plan.ends
    ):
        plan.lengths.clear()
        plan.whole_day = True


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


def parse_time(text: str, now: datetime) -> TimeResult:
    """Parse the time part of a Korean notification command (CONTRACT.md, "Time axes")."""
    now = _normalise_now(now)
    scan = _scan_text(text)
    tokens = _lex(scan)
    spans = _spans(text, tokens)
    unread = tuple(TimeSpan(a, b, text[a:b]) for a, b in _unread(scan, tokens))
    if not tokens and not unread:
        return TimeResult(TimeOutcome.NO_TIME, None, None, spans, "no time expression")
    try:
        if any(t.kind == "bad" for t in tokens):
            raise _Fail(TimeOutcome.INVALID_TIME, "not a clock time")
        tokens = _drop_past(scan, tokens)
        if not tokens and not unread:
            return TimeResult(TimeOutcome.NO_TIME, None, None, spans, "only a past day named")
        if unread:
            raise _Fail(TimeOutcome.UNCLEAR, "a word next to the time was not read")
        axis, cond = _interpret(scan, tokens, now)
    except _Fail as fail:
        logger.debug("time parse -> %s: %s", fail.outcome.value, fail.reason)
        return TimeResult(fail.outcome, None, fail.axis, spans, fail.reason, unread)
    return TimeResult(TimeOutcome.OK, cond, axis, spans, None)
