"""Pass 1, lex: one left-to-right regex scan finds the time tokens and their markers.

The scan pattern joins every kind of time expression into one alternation of named groups
(numbers with units, clock times, day words, weekdays, recurrence words); the builder for the
group that matched makes the tokens (tokens.py). Then the English marker before a token
("until 6pm") and the marker after it (까지, 부터, 동안, 뒤 ...) are consumed: the marker
decides the token's role.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from notillm_local.stages.timeparse.model import _DayRef, _Role, _Token
from notillm_local.stages.timeparse.tokens import _BUILDERS
from notillm_local.stages.timeparse.vocabulary import (
    _AFTER_DELAY,
    _ASCII_LOWER,
    _CLOCK_FOLLOW,
    _DELAY_MARKS,
    _DP_FOLLOW,
    _EN,
    _EN_DAYS,
    _EN_DAYSETS,
    _EN_MERIDIEM,
    _EN_MERIDIEM_SHORT,
    _EN_NAMED,
    _EN_PREFIX,
    _EN_PREFIX_RE,
    _END_MARKS,
    _FILLER,
    _HOUR_RE,
    _LEN_MARKS,
    _MARKER,
    _MDAY_MARKS,
    _MIN_RE,
    _NUM_RE,
    _ORD_RE,
    _PAST_MARKS,
    _PAST_RE,
    _PAST_WORD_MARKS,
    _PERIOD_FOLLOW,
    _PREFIX_FILLER_RE,
    _QUOTED,
    _START_MARKS,
    _UNIT_KO_RE,
    _UNIT_RE,
    _WD,
    _WD_FOLLOW,
    _WD_LEFT,
    _WDN,
    _YEAR_RE,
    _en_alt,
    english_numbers_as_digits,
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
                rf"(?P<daily>매일\s*매일|매일같이|매일|날마다|(?:맨날|매날)(?=\s*(?:밤|아침|저녁|새벽|오전|오후|낮|점심|\d|[한두세네다여열]\s*시))|하루도\s*(?:빠짐\s*없이|빼놓지\s*않고|안\s*빼고|빠지지\s*않고)|{en(_EN['daily'])})",
                rf"(?P<weekly>매주|주마다|{en(_EN['weekly'])})",
                r"(?P<weekend>(?<!다)(?:이번|금)\s*주\s*(?:주\s*)?말)",
                rf"(?P<dayset>평일|(?<![폭연음질완경])주중|주말|{en(_EN_DAYSETS)})",
                rf"(?P<weekref>(?<!다)(?:(?P<wk_w>이번|다음|오는)\s*주|(?P<wk_g>금주))"
                rf"(?:\s*(?P<wk_wd>{_WD})(?:요일|욜)|{_PERIOD_FOLLOW}))",
                rf"(?P<nextwd>(?<!다)(?P<nw_w>다음|오는)\s*(?P<nw_wd>{_WD})(?:요일|욜))",
                rf"(?P<ordwd>(?<!\d)(?:(?:(?P<ow_y>{_YEAR_RE})\s*년\s*)?(?P<ow_m>\d{{1,2}})\s*월"
                rf"|(?<!다)(?P<ow_rel>이번|다음)\s*달)\s*(?P<ow_n>{_ORD_RE})\s*(?P<ow_wd>{_WD})(?:요일|욜))",
                # A year said by its place ("내년까지", "내후년까지"): only before a marker, so that
                # "올해 마지막 날이라" stays a remark.
                r"(?P<yearref>(?<![가-힣])(?:(?P<yr_0>올해|금년|이번\s*해)|(?P<yr_1>내년|명년|다음\s*해)"
                r"|(?P<yr_2>내후년|후년|다다음\s*해))(?=\s*(?:까지|부터|내내|동안)))",
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
                # "4월 끝이라", "4월 말이라서": a month that gives the reason is a remark, not the rule's date.
                rf"(?P<mn_m>\d{{1,2}})\s*월(?!\s*\d{{1,2}}\s*일)(?!\s*(?:끝|말|초|중순)?\s*이?라서?(?![가-힣]))"
                rf"{_PERIOD_FOLLOW})",
                r"(?P<dayword>내일\s*모레|모레|오늘|금일|당일|내일|글피|다음\s*날|이튿날"
                r"|낼(?=\s*(?:아침|오전|오후|저녁|밤|새벽|점심|낮|정오|자정|\d|까지|부터|하루))"
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
                # The rarer counts hide inside names ("마이레이더": 이레), so a word must follow them.
                r"(?P<durspecial>일주일|이주일|삼주일|하루|이틀|(?<!대)보름|(?:사흘|나흘|닷새|엿새|이레|여드레"
                r"|아흐레|열흘)(?:(?![가-힣])|(?=\s*(?:동안|간|만|뒤|후|전|째|까지|안에|내|정도|쯤|이나|씩"
                r"|꺼|끄|막|차단|무음|조용))))",
                # "반 시간만" (half an hour): 반 in front, where "1시간 반" puts it after.
                # Glued text puts a word before it ("알림반시간"); "절반", "일반", "과반" are others.
                r"(?P<halfhour>(?<![\d절일과후전초중위상하월])반\s*시간(?!표))",
                # "4년에 한 번 오는 생일": how often something comes, not how long the rule lasts;
                # "한 주 끝났다": a stretch that is over, said about now.
                rf"(?P<dur>(?<![\d.:])(?P<dn>{_NUM_RE})\s*(?P<du>{unit})"
                r"(?!\s*에\s*(?:한|두|세|[1-3])\s*번|\s*(?:이|가)?\s*(?:다\s*)?끝(?:났|남|이야|임)))",
                # Years and months are counted in Sino-Korean numbers: "일년", "이개월" always.
                r"(?P<dursmall>(?<![가-힣\d])(?P<ds_n>[일이구])\s*(?P<ds_u>분|초|년|개월)"
                r"(?=\s*(?:안|내|동안|간|뒤|후|만에)|(?<=[년월])))",
                rf"(?P<daypart>(?:오전|오후|아침|점심|저녁|새벽|낮|밤){_DP_FOLLOW})",
            ]
        )
    )


_MASTER_KO = _build_master(english=False)
_MASTER_EN = _build_master(english=True)
_LATIN = re.compile(r"[a-z]")


def _mask_quotes(text: str) -> str:
    # Quoted words are notification keywords ("'3시' 들어간 알림"), never times.
    return _QUOTED.sub(lambda m: "\x00" * len(m.group(0)), text)


def _scan_text(text: str) -> str:
    scan = _mask_quotes(text).translate(_ASCII_LOWER)
    return english_numbers_as_digits(scan) if _LATIN.search(scan) else scan


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
        if tokens:
            _carry_prefix(scan, tokens[-1], made[0])
        for tok in made:
            tokens.append(tok)
        pos = made[-1].end
    return tokens


def _carry_prefix(text: str, prev: _Token, tok: _Token) -> None:
    """"until tomorrow 9am" is "내일 오전 9시까지": an English marker before a day marks the whole
    time, so it moves to the clock time right after the day (read alone, the day took it and
    the rule ran to the end of that day, from 9 on)."""
    if not (
        prev.prefix and prev.mark == prev.prefix and prev.kind in ("day", "weekday")
        and tok.kind == "clock" and not tok.mark and not text[prev.end : tok.start].strip()
    ):
        return
    tok.prefix, tok.mark = prev.prefix, prev.prefix
    tok.role = _role_for(tok.kind, tok.mark, False)
    prev.prefix, prev.mark = "", ""
    prev.role = _role_for(prev.kind, "", False)


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
