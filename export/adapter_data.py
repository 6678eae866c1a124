"""Training data for the LoRA adapter: template commands labelled by the project's own code.

Every example is a Korean command plus the three slot answers the extractor asks the local
model for (intent, apps, keywords), in exactly the text the grammars admit. Sentences come from
templates (apps x aliases x actions x keywords x time phrases x sentence shapes) drawn with a
fixed seed; each is read by the deterministic `RuleSlotReader` after `parse_time` has cut out
its time words, the way the service reads it, and is kept only when code is sure of every slot
and its answer is one the grammars can produce. The labelled cases of eval/data/train.jsonl are
added when code agrees with their expected answer. No prompt of an evaluation set (dev, the
contract's examples, the gate's held-out set) is ever kept: `eval_prompts` lists them and
`build_examples` drops any sentence among them (tests/test_adapter.py checks it).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from functools import cached_property
from pathlib import Path

from notillm_local import resources
from notillm_local.domain import AppRef
from notillm_local.eval import data_path
from notillm_local.stages.apps import AliasTable, AppMapper, InstalledIndex, load_catalog, normalise
from notillm_local.stages.extract import (
    ALLOW_WORD,
    MUTE_WORD,
    NONE_WORD,
    OTHER_APP_WORD,
    _keyword_candidates,
)
from notillm_local.stages.slots import RuleSlotReader, blank_spans
from notillm_local.stages.timeparse import parse_time

SEED = 20260807
# The prompt prefix the adapter is trained with (and served with: resources/adapters/prefix.txt).
# The few-shot cases are learnt into the adapter, so only the header line stays.
ADAPTER_PREFIX = "다음은 휴대폰 알림 명령을 분석한 기록이다.\n"

EVAL_FILES = (
    data_path("dev.jsonl"),
    data_path("gate_heldout.jsonl"),
    data_path("examples.jsonl"),
)
TRAIN_FILE = data_path("train.jsonl")
KST = timezone(timedelta(hours=9))


def one_line(text: str) -> str:
    """The sentence as the extractor puts it in the prompt: whitespace runs become one space."""
    return re.sub(r"\s+", " ", text).strip()


def record_prompt(sentence: str) -> str:
    """What follows the prefix for one command, up to where the model answers the intent."""
    return f"\n문장: {one_line(sentence)}\n의도:"


@dataclass(frozen=True)
class Example:
    sentence: str
    intent: str  # 끄기 | 허용
    apps: str  # "없음" | "기타" | "Label[, Label]{0,2}"
    keywords: str  # "없음" | "word[, word]{0,2}"
    source: str  # "template:<shape>" | "train.jsonl:<id>"

    @property
    def answers(self) -> tuple[str, str, str]:
        """The three generated answers, each exactly as its grammar admits it."""
        return f" {self.intent}\n", f" {self.apps}\n", f" {self.keywords}\n"

    @property
    def separators(self) -> tuple[str, str]:
        """The slot headers the extractor appends after the intent and apps answers."""
        return "앱:", "키워드:"

    def text(self, prefix: str = ADAPTER_PREFIX) -> str:
        return (
            prefix + record_prompt(self.sentence)
            + f" {self.intent}\n앱: {self.apps}\n키워드: {self.keywords}\n"
        )


# --------------------------------------------------------------------------- evaluation sets


def eval_prompts(files: Iterable[Path] = EVAL_FILES) -> set[str]:
    """Every sentence of every evaluation set (prompts and pending originals), one-lined."""
    out: set[str] = set()
    for path in files:
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            inp = row.get("input") if isinstance(row.get("input"), dict) else row
            for key in ("prompt", "pendingOriginal", "text"):
                v = inp.get(key) if isinstance(inp, dict) else None
                if isinstance(v, str) and v.strip():
                    out.add(one_line(v))
    return out


# --------------------------------------------------------------------------- labelling


class Labeller:
    """Code's reading of a sentence turned into the model's three answers, or None if unsure."""

    def __init__(self) -> None:
        catalog = load_catalog()
        self.table = AliasTable.load(resources.path("app_aliases.json"), catalog)
        self.reader = RuleSlotReader(AppMapper(self.table))
        # The default catalog plus every app the table knows from elsewhere, so a named app is
        # always installed: the prompt does not show the installed list, so the answer must not
        # depend on it (the grammar removes what a device lacks at serve time).
        extra = [
            AppRef(label, f"elsewhere.{i}") for i, label in enumerate(self.table.known_elsewhere)
        ]
        self.catalog = tuple(catalog)
        self.installed = InstalledIndex.of([*catalog, *extra])
        self.now = datetime(2026, 3, 10, 9, 0, tzinfo=KST)

    def app_label(self, word: str) -> str:
        """The label an alias word names (the table's own mapping)."""
        key = normalise(word)
        return self.table.word_to_label.get(key) or self.table.word_to_elsewhere.get(key) or word

    def label(self, sentence: str, source: str) -> Example | None:
        text = one_line(sentence)
        tr = parse_time(text, self.now)
        rest = blank_spans(text, [(s.start, s.end) for s in tr.spans])
        r = self.reader.read(rest, self.installed)
        if r.unsure or r.mute is None or r.unknown_words:
            return None
        apps: list[str] = []
        for ref in r.app_refs():
            if ref.label not in apps:
                apps.append(ref.label)
        if r.unresolved:
            if apps:
                return None  # the grammar cannot say "this app and one not installed"
            apps_ans = OTHER_APP_WORD
        elif not apps:
            apps_ans = NONE_WORD
        elif len(apps) <= 3:
            apps_ans = ", ".join(apps)
        else:
            return None
        cands = _keyword_candidates(rest)
        if len(r.content) > 3 or any(k not in cands for k in r.content):
            return None  # a keyword the keyword grammar could not produce
        kws = ", ".join(r.content) if r.content else NONE_WORD
        return Example(text, MUTE_WORD if r.mute else ALLOW_WORD, apps_ans, kws, source)


# --------------------------------------------------------------------------- templates

_MUTE_VERBS = (
    "꺼줘", "꺼", "꺼 줘", "꺼주세요", "꺼줄래", "꺼줄래?", "끄기", "꺼 주라", "좀 꺼줘", "끄고 싶어",
    "받지마", "받지 마", "받지 말아줘", "안 받을래", "안 받고 싶어", "그만 받을래",
    "막아줘", "막아", "막아 주세요", "차단해줘", "차단", "차단해", "블락해줘",
    "무음으로 해줘", "무음", "무음 처리해줘", "음소거해줘", "음소거", "뮤트해줘", "뮤트",
    "조용히 해줘", "조용히 시켜줘", "조용히", "울리지 않게 해줘", "울리지 마", "안 울리게 해줘",
    "오지 않게 해줘", "안 오게 해줘", "안 뜨게 해줘", "뜨지 않게 해줘", "숨겨줘", "치워줘",
    "끊어줘", "멈춰줘", "중지해줘", "알리지 마", "방해하지 말게 해줘", "off 해줘",
)
_ALLOW_ONLY_VERBS = (
    "받을래", "받아줘", "받을게", "받게 해줘", "받고 싶어", "받겠음", "받자", "받게 해 주세요",
    "울리게 해줘", "울리게", "울려줘", "허용해줘", "허용", "오게 해줘", "와도 돼", "뜨게 해줘",
    "알려줘", "살려줘", "남겨줘", "통과시켜줘",
)
_EXCEPT_FRAMES = ("빼고", "말고", "제외하고", "외에는", "만 빼고", "빼고 나머지", "말고 나머지")
_ALL_WORDS = ("다", "전부", "모두", "싹 다", "모든 알림", "나머지 알림", "다른 알림은 다", "알림 전부")
_FILLERS_FRONT = ("", "", "", "", "지금부터 ", "앞으로 ", "제발 ", "일단 ", "혹시 ", "지금 당장 ")
_NOTI = ("알림", "알림", "알림", "", "", "푸시", "알람", "알림들", "메시지 알림", "푸시 알림")

# Time phrases: numbers are drawn per sentence.
_KOR_NUM_H = ("한", "두", "세", "네", "다섯")


def _duration(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.35:
        n = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 24])
        unit = rng.choice(["시간 동안", "시간만", "시간", "시간 정도", "시간 동안만"])
        return f"{n}{unit}"
    if k < 0.65:
        n = rng.choice([5, 10, 15, 20, 25, 30, 40, 45, 50, 90, 120])
        unit = rng.choice(["분 동안", "분만", "분", "분간", "분 정도만"])
        return f"{n}{unit}"
    if k < 0.75:
        return rng.choice(_KOR_NUM_H) + rng.choice([" 시간 동안", " 시간만", "시간"])
    if k < 0.85:
        return f"{rng.randint(1, 5)}시간 반" + rng.choice([" 동안", "만", ""])
    return rng.choice(["하루 동안", "반나절 동안", "30분간", "이틀 동안", "일주일 동안", "하루만", "오늘 하루"])


def _clock(rng: random.Random) -> str:
    part = rng.choice(["오전", "오후", "아침", "저녁", "밤", "새벽", "낮", ""])
    h = {"오전": (6, 11), "오후": (1, 11), "아침": (6, 10), "저녁": (5, 9), "밤": (8, 12),
         "새벽": (1, 5), "낮": (12, 4), "": (1, 12)}[part]
    lo, hi = h
    hour = rng.randint(lo, hi) if lo <= hi else rng.choice([12, 1, 2, 3, 4])
    mm = rng.choice(["", "", "", " 반", " 30분", " 15분", " 45분"])
    return f"{part} {hour}시{mm}".strip()


def _until(rng: random.Random) -> str:
    day = rng.choice(["", "", "", "오늘 ", "내일 ", "모레 "])
    if rng.random() < 0.15:
        return day + rng.choice(["자정까지", "정오까지", "아침까지", "퇴근할 때까지", "저녁까지"])
    return f"{day}{_clock(rng)}까지"


def _window(rng: random.Random) -> str:
    return f"{_clock(rng)}부터 {_clock(rng)}까지"


def _recurring(rng: random.Random) -> str:
    days = rng.choice([
        "매일", "날마다", "평일", "주말", "주말마다", "평일마다", "매주 월요일", "매주 금요일",
        "매주 토요일", "매주 일요일", "매주 화목", "매주 월수금", "일요일마다", "수요일마다",
    ])
    return f"{days} {_window(rng)}"


def _delay(rng: random.Random) -> str:
    n = rng.choice([5, 10, 20, 30, 40])
    unit = rng.choice(["분 뒤부터", "분 후부터", "분 있다가", "분 후에"])
    return f"{n}{unit} {_duration(rng)}"


def time_phrase(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.38:
        return _duration(rng)
    if k < 0.62:
        return _until(rng)
    if k < 0.72:
        return _window(rng)
    if k < 0.86:
        return _recurring(rng)
    if k < 0.93:
        return _delay(rng)
    return ""  # no time at all: the model is still asked (the answer is 'incomplete')


_CONTEXT = (
    "운전 중에", "운전할 때", "회의 중이니까", "회의하는 동안", "자는 동안", "잘 때", "수업 중에",
    "운동하는 동안", "회사에서", "집에서는", "학교에서", "도서관에서", "출근해서", "헬스하는 동안",
)

# Topic nouns code knows bare, and other nouns that only a frame ("…라는 단어", quotes) marks.
_TOPICS = (
    "광고", "스팸", "쿠폰", "이벤트", "할인", "세일", "특가", "프로모션", "마케팅", "혜택", "적립",
    "포인트", "업데이트", "결제", "배송", "택배", "주문", "배달", "입금", "출금", "송금", "이체",
    "좋아요", "댓글", "팔로우", "구독", "공지", "뉴스", "속보", "날씨", "게임", "채팅", "초대",
    "선물", "리뷰", "추천", "라이브", "방송", "업로드", "인증번호", "보안", "로그인", "대출", "보험",
    "주식", "코인", "청구", "명세서", "예약", "알바", "미팅", "일정", "리마인더", "투표", "설문",
    "스토리", "게시물", "멘션", "답장", "충전", "잔액", "청약", "당첨", "경품", "모집", "재입고",
    "품절", "가격",
)
_FRAMED = (
    "회식", "긴급", "마감", "면접", "출장", "과제", "시험", "월급", "생일", "모임", "약속", "동창회",
    "결혼식", "야근", "세미나", "정산", "환불", "반품", "계약", "견적", "급여", "점검", "장애",
    "오류", "경고", "승인", "합격", "등록금", "중고", "나눔", "할부", "연체", "만기", "이자",
    "배당", "공모", "마일리지", "쿠폰북", "신상", "타임세일", "번개", "출석", "퀘스트", "레이드",
    "공연", "티켓", "예매", "좌석", "당직", "교대", "휴강", "보강", "성적", "숙제", "학원", "병원",
    "진료", "처방", "백신", "검진", "주차", "택시", "픽업", "배차", "도착", "출발", "지연", "결항",
    "hotdeal", "sale", "urgent", "OTP", "VIP",
)


def _has_batchim(word: str) -> bool:
    c = word[-1]
    if "가" <= c <= "힣":
        return (ord(c) - 0xAC00) % 28 != 0
    return c.lower() in "lmnr" or c.isdigit() and c in "013678"


def _and(word: str, rng: random.Random) -> str:
    b = _has_batchim(word)
    return rng.choice([
        ("이랑 " if b else "랑 "), ("과 " if b else "와 "), "하고 ", ", ", " 그리고 ", ("이나 " if b else "나 "),
    ])


def _topic_particle(word: str) -> str:
    return "은" if _has_batchim(word) else "는"


class Templates:
    """Random commands of many shapes over the catalog's apps and the table's aliases."""

    def __init__(self, labeller: Labeller, rng: random.Random) -> None:
        self.rng = rng
        self.labeller = labeller
        t = labeller.table
        labels = [a.label for a in labeller.catalog]
        self.app_words: list[str] = []
        for label in labels:
            words = [label, *t.aliases.get(label, ())]
            self.app_words.extend(dict.fromkeys(words))
        self.elsewhere_words = [w for ws in t.known_elsewhere.values() for w in ws] + list(
            t.known_elsewhere
        )
        # Apps people actually silence: drawn more often than settings/system apps.
        self.popular = [
            w for label in (
                "카카오톡", "메시지", "전화", "YouTube", "Instagram", "Slack", "Discord", "Microsoft Teams",
                "Zoom", "Netflix", "쿠팡", "배달의민족", "토스", "당근", "밴드", "Facebook", "X", "TikTok",
                "Threads", "Gmail", "에브리타임", "네이버", "카카오뱅크", "쿠팡이츠", "이메일", "Notion",
            ) for w in [label, *t.aliases.get(label, ())]
        ]

    def label_of(self, word: str) -> str:
        return self.labeller.app_label(word)

    def app(self) -> str:
        r = self.rng.random()
        if r < 0.55:
            return self.rng.choice(self.popular)
        if r < 0.92:
            return self.rng.choice(self.app_words)
        return self.rng.choice(self.elsewhere_words)

    def apps(self, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            w = self.app()
            if all(self.label_of(w) != self.label_of(o) for o in out):
                out.append(w)
        return out

    def join_apps(self, words: list[str]) -> str:
        s = words[0]
        for w_prev, w in zip(words, words[1:], strict=False):
            s += _and(w_prev, self.rng) + w
        return s

    def time(self) -> str:
        return time_phrase(self.rng)

    def kw(self) -> tuple[str, str]:
        """A keyword and the phrase that names it."""
        r = self.rng
        if r.random() < 0.5:
            w = r.choice(_TOPICS)
            frame = r.choice([
                "{w}", "{w}", "'{w}'", "'{w}' 들어간", "{w} 관련", "{w}라는 단어 들어간", "\"{w}\"",
                "{w}이라고 적힌", "'{w}' 포함된", "{w} 관련된",
            ])
        else:
            w = r.choice(_FRAMED)
            frame = r.choice([
                "'{w}'", "'{w}' 들어간", "\"{w}\" 들어간", "{w}라는 단어가 들어간", "{w}라는 말이 들어간",
                "'{w}'라는 단어 포함된", "{w}이라고 쓰인", "‘{w}’ 들어간", "'{w}' 적힌", "{w} 들어간",
                "{w}라는 키워드 들어간", "'{w}' 포함한",
            ])
        phrase = frame.format(w=w)
        # "이라고/라는" follow the batchim of the word.
        if not _has_batchim(w):
            phrase = phrase.replace(f"{w}이라고", f"{w}라고")
        else:
            phrase = phrase.replace(f"{w}라는", f"{w}이라는")
        return w, phrase

    def kws(self) -> tuple[list[str], str]:
        """One keyword in a random frame, or two in a shared one ("'a'나 'b' 들어간")."""
        r = self.rng
        k1, p1 = self.kw()
        if r.random() < 0.15:
            k2 = r.choice(_TOPICS + _FRAMED)
            if k2 != k1:
                q = r.choice(["'", "\""])
                return [k1, k2], f"{q}{k1}{q}{_and(k1, r)}{q}{k2}{q} " + r.choice(["들어간", "포함된"])
        return [k1], p1

    def sentence(self) -> tuple[str, str, tuple[bool, list[str], list[str]]]:
        """(sentence, shape, intended reading: mute, app words, keywords)."""
        r = self.rng
        shape = r.choices(
            ["mute_app", "mute_apps", "mute_all", "allow_only", "allow_except", "kw", "app_kw",
             "allow_kw", "kept_rest", "context", "mute_except"],
            weights=[22, 12, 8, 12, 12, 8, 10, 3, 3, 5, 1],
        )[0]
        t = self.time()
        front = r.choice(_FILLERS_FRONT)
        noti = r.choice(_NOTI)
        mute = r.choice(_MUTE_VERBS)
        allow = r.choice(_ALLOW_ONLY_VERBS)
        words: list[str] = []
        kws: list[str] = []
        is_mute = True

        def order(*parts: str) -> str:
            return " ".join(p for p in parts if p)

        if shape in ("mute_app", "mute_apps", "context"):
            n = 1 if shape != "mute_apps" else r.choice([2, 2, 2, 3])
            words = self.apps(n)
            a = self.join_apps(words)
            if n == 1 and r.random() < 0.2:
                a += r.choice(["은" if _has_batchim(a) else "는", "도", " 앱", " 어플"])
            forms = [
                order(front + t, a, noti, mute), order(a, noti, t, mute), order(a, t, mute),
                order(t, a, mute), order(front + a, noti, "좀", t, mute), order(a, noti, mute, t),
            ]
            s = r.choice(forms)
            if shape == "context":
                s = order(r.choice(_CONTEXT), s)
        elif shape == "mute_all":
            forms = [
                order(front + t, r.choice(["모든 알림", "알림 전부", "알림 다", "전체 알림", "알림 모두"]), mute),
                order(t, "조용히 해줘"), order(t, r.choice(["방해 금지", "무음 모드", "다 무음으로"])),
                order(r.choice(_CONTEXT), t, "알림 다", mute), order(front + t, "폰 알림", mute),
                order("모든 앱 알림", t, mute),
            ]
            s = r.choice(forms)
        elif shape == "allow_only":
            is_mute = False
            words = self.apps(r.choice([1, 1, 1, 2, 2, 3]))
            a = self.join_apps(words)
            forms = [
                order(front + t, a + "만", allow), order(t, a, "알림만", allow), order(a + "만", t, allow),
                order(a + " 알림만", t, allow), order(r.choice(_CONTEXT), t, a + "만", allow),
            ]
            s = r.choice(forms)
        elif shape == "allow_except":
            is_mute = False
            words = self.apps(r.choice([1, 1, 1, 2]))
            a = self.join_apps(words)
            ex = r.choice(_EXCEPT_FRAMES)
            forms = [
                order(front + t, a, ex, r.choice(_ALL_WORDS), mute),
                order(a, ex, r.choice(_ALL_WORDS), t, mute),
                order(t, a + " 알림", ex, r.choice(_ALL_WORDS), mute),
            ]
            s = r.choice(forms)
        elif shape == "mute_except":
            words = self.apps(1)
            s = order(t, words[0], r.choice(["빼고", "말고"]), "다", r.choice(["받을래", "받아줘", "받을게"]))
        elif shape == "kw":
            kws, p = self.kws()
            s = r.choice([order(front + t, p, "알림", mute), order(p, "알림", t, mute), order(p, "알림은", t, mute)])
        elif shape == "app_kw":
            words = self.apps(1)
            kws, p = self.kws()
            a = words[0]
            k = r.random()
            if k < 0.25:
                is_mute = False
                s = order(a, p, "알림만", t, allow)
            elif k < 0.5:
                s = order(t, a + r.choice(["에서", " 중에", "에서 오는"]), p, "알림", mute)
            elif k < 0.75:
                s = order(t, a + "에서", p, "거", mute)
            else:
                s = order(a, p, "알림", t, mute)
        elif shape == "allow_kw":
            is_mute = False
            kws, p = self.kws()
            s = order(t, p, "알림만", allow)
        else:  # kept_rest
            is_mute = False
            words = self.apps(1)
            a = words[0]
            s = order(front + t, a + _topic_particle(a), "받고 나머지는", r.choice(["꺼줘", "다 꺼줘", "막아줘"]))
        return one_line(s), shape, (is_mute, words, kws)


# --------------------------------------------------------------------------- the set


@dataclass
class BuildStats:
    drawn: int = 0
    unsure_dropped: int = 0
    eval_dropped: int = 0
    duplicate_dropped: int = 0
    template_disagree: int = 0
    train_cases: int = 0
    train_disagree: int = 0


@dataclass
class TrainingSet:
    examples: list[Example]
    stats: BuildStats
    seed: int

    @cached_property
    def sentences(self) -> set[str]:
        return {e.sentence for e in self.examples}

    def write_jsonl(self, path: Path) -> None:
        path.write_text(
            "".join(json.dumps(asdict(e), ensure_ascii=False) + "\n" for e in self.examples),
            encoding="utf-8",
        )


def _train_cases(labeller: Labeller, banned: set[str], stats: BuildStats) -> list[Example]:
    """eval/data/train.jsonl: each sentence code reads confidently and, where the case expects
    a rule, the same way the case does."""
    out: list[Example] = []
    for line in TRAIN_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        inp, exp = row["input"], row["expected"]
        if inp.get("installedApps"):
            continue  # labels would depend on a device list the prompt does not show
        texts = [inp["prompt"]]
        if inp.get("pending") and inp.get("pendingOriginal"):
            texts = [inp["pendingOriginal"]]  # the model reads the original command
        for text in texts:
            if one_line(text) in banned:
                stats.eval_dropped += 1
                continue
            ex = labeller.label(text, f"train.jsonl:{row['id']}")
            if ex is None:
                stats.unsure_dropped += 1
                continue
            tf = exp.get("targetFixed")
            if tf and not inp.get("pending"):
                want_apps = ", ".join(tf.get("name") or []) or NONE_WORD
                want_kws = ", ".join(tf.get("content") or []) or NONE_WORD
                want_intent = MUTE_WORD if tf.get("mute") else ALLOW_WORD
                if (ex.intent, ex.apps, ex.keywords) != (want_intent, want_apps, want_kws):
                    stats.train_disagree += 1
                    continue
            stats.train_cases += 1
            out.append(ex)
    return out


def build_examples(n_synthetic: int, seed: int = SEED) -> TrainingSet:
    """`n_synthetic` template examples (after filtering) plus the train.jsonl cases, shuffled."""
    rng = random.Random(seed)
    labeller = Labeller()
    banned = eval_prompts()
    stats = BuildStats()
    examples = _train_cases(labeller, banned, stats)
    seen = {e.sentence for e in examples}
    tpl = Templates(labeller, rng)
    synthetic: list[Example] = []
    attempts = 0
    while len(synthetic) < n_synthetic and attempts < n_synthetic * 20:
        attempts += 1
        sentence, shape, (want_mute, want_words, want_kws) = tpl.sentence()
        stats.drawn += 1
        if sentence in banned:
            stats.eval_dropped += 1
            continue
        if sentence in seen:
            stats.duplicate_dropped += 1
            continue
        ex = labeller.label(sentence, f"template:{shape}")
        if ex is None:
            stats.unsure_dropped += 1
            continue
        want = (
            MUTE_WORD if want_mute else ALLOW_WORD,
            ", ".join(dict.fromkeys(labeller.app_label(w) for w in want_words)) or NONE_WORD,
            ", ".join(want_kws) or NONE_WORD,
        )
        if (ex.intent, ex.apps, ex.keywords) != want:
            stats.template_disagree += 1  # code read it otherwise than it was written: drop
            continue
        seen.add(sentence)
        synthetic.append(ex)
    examples.extend(synthetic)
    rng.shuffle(examples)
    return TrainingSet(examples, stats, seed)
