"""The phrase banks and `Draw`, the random choices over them.

Mute/allow verbs (and their typos), "all" and "except" words, notification nouns, front and tail
fillers, reason/context clauses, topic nouns and framed keyword nouns; `Draw` picks apps, app
phrases, verbs, keywords and time phrases from them over one rng. Time phrases, Korean
(`time_phrase`) and English: the model ignores time, but must see every kind.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from notillm_local.export.adapter_data.devices import App, AppUniverse
from notillm_local.export.adapter_data.surface import _batchim, app_typo, latin_case, latin_typo
from notillm_local.stages.apps import normalise

# --------------------------------------------------------------------------- phrase banks

_MUTE_VERBS = (
    "꺼줘", "꺼", "꺼 줘", "꺼주세요", "꺼줄래", "꺼줄래?", "끄기", "꺼 주라", "좀 꺼줘", "끄고 싶어",
    "받지마", "받지 마", "받지 말아줘", "안 받을래", "안 받고 싶어", "그만 받을래", "받기 싫어",
    "막아줘", "막아", "막아 주세요", "차단해줘", "차단", "차단해", "블락해줘", "꺼놔", "꺼둬",
    "무음으로 해줘", "무음", "무음 처리해줘", "음소거해줘", "음소거", "뮤트해줘", "뮤트",
    "조용히 해줘", "조용히 시켜줘", "조용히", "울리지 않게 해줘", "울리지 마", "안 울리게 해줘",
    "오지 않게 해줘", "안 오게 해줘", "안 뜨게 해줘", "뜨지 않게 해줘", "숨겨줘", "치워줘",
    "멈춰줘", "중지해줘", "알리지 마", "방해하지 말게 해줘", "off 해줘", "off", "mute", "mute 해줘",
    "꺼줘요", "꺼주셈", "꺼조", "꺼줭", "꺼주세여", "꺼줘 ㄱㄱ", "꺼주삼", "꺼쥬", "꺼줄래욤",
    "꺼줘ㅠㅠ", "꺼줘ㅋㅋ", "무음 해조", "조용히 해조", "막아조", "꺼 주실래요", "꺼주라",
    "좀 재워줘", "재워줘", "꺼놓을래", "꺼주라궁", "꺼주세엽", "꺼줘유",
)
_MUTE_TYPOS = (
    "꺼즈어", "꺼죠", "꺼저", "꺼주ㅓ", "꺼줘ㅓ", "받지마ㅏ", "막아쥬", "꺼주새요", "꺼줘여", "꺼쥐",
    "끄ㅓ줘", "꺼줘ㅜ", "받지망", "꺼주쇼", "꺼졍", "차단햐줘",
)
_ALLOW_VERBS = (
    "받을래", "받아줘", "받을게", "받게 해줘", "받고 싶어", "받겠음", "받자", "받게 해 주세요",
    "울리게 해줘", "울리게", "울려줘", "허용해줘", "허용", "오게 해줘", "와도 돼", "뜨게 해줘",
    "알려줘", "살려줘", "남겨줘", "통과시켜줘", "받을래욤", "받을래용", "받을게여", "받을래요",
    "받게 해조", "on", "on 해줘", "켜줘", "켜둬", "받을래ㅋㅋ", "받을게 ㄱㄱ", "받게해주셈",
    "허락해줘", "허락", "허락할게", "소리 나게 해줘", "열어둬",
)
_ALLOW_TYPOS = ("받을랭", "받을래ㅐ", "받게 해즈어", "받을께", "울리게 해쥬", "받겟음")
_ALL_WORDS = (
    "다", "전부", "모두", "싹 다", "모든 알림", "나머지", "나머지 알림", "나머지는 다", "다른 알림은 다",
    "알림 전부", "나머지 전부", "다른 건 다", "딴 건 다",
)
_EXCEPT = ("빼고", "말고", "제외하고", "외에는", "빼구", "말구", "만 빼고", "놔두고", "제외한",
           "하나만 열어두고", "만 열어두고")
_NOTI = ("알림", "알림", "알림", "", "", "", "푸시", "알람", "알림들", "푸시 알림", "소리", "진동",
         "푸쉬", "노티", "알림 소리")
_FRONT = ("", "", "", "", "", "지금부터", "앞으로", "제발", "일단", "혹시", "지금 당장", "아",
          "음", "저기", "그냥", "야", "부탁인데")
_TAIL = ("", "", "", "", "", "", "ㅋㅋ", "ㅠㅠ", "ㅠ", "ㄱㄱ", "!", "!!", "~", ".", "제발", "부탁해",
         "pls", "ㅎㅎ", "좀")
# Messengers after which "메시지/메세지" is a generic noun, not the Messages app.
_MESSENGERS = {"카카오톡", "Slack", "Discord", "Microsoft Teams", "Instagram", "Telegram",
               "WhatsApp", "LINE", "밴드", "Facebook"}

_REASONS = (
    "과제 마감이라 그런데", "시험 기간이라", "시험공부 해야 돼서", "회의 중이라서", "회의 들어가야 돼서",
    "운전 중에", "운전하는 동안", "공부해야 해서 그러는데", "헬스장 가서", "자야 돼서", "잘 때",
    "수업 들어가니까", "면접 보러 가니까", "출근해서", "야근 중이라", "영화 보는 동안",
    "발표 준비하느라", "데이트 중이라", "애기 재우는 중이라", "병원 진료 중이라", "세미나 때문에",
    "결혼식 가는 중이라", "마감 때문에 바빠서", "택배 기다리는 중인데", "이벤트 준비 중이라",
    "주식 공부하느라", "배달 기다리는 동안", "업데이트 중이라", "회식 자리라", "공지 정리하느라",
    "게임 중이니까", "강의 듣는 중이라", "운동하는 동안", "도서관이라", "출장 중이라",
    "미팅 있어서", "예배 중이라", "콘서트 보는 중이라", "뉴스 보는 동안", "알바 중이라",
    "교대 근무 중이라", "보고서 써야 돼서", "시험 끝날 때까지는", "집중해야 돼서", "피곤해서",
    "너무 시끄러워서", "계속 울려서 짜증나니까", "머리 아파서", "아기가 자니까", "시험 중에",
    "과제하는 동안", "회사에서", "집에서는", "학교에서", "카페에서", "도서관에서",
    # purpose clauses ("…하게": so that I can …)
    "공부 좀 하게", "잠 좀 자게", "집중 좀 하게", "일 좀 하게", "영화 좀 보게", "책 좀 읽게",
    "푹 자게", "운동 좀 하게", "밥 좀 먹게", "쉬게", "게임 한 판 하게", "숙제 좀 하게",
    "운전 중이라", "수업 중이라", "자야 하니까", "일해야 돼서", "시험 공부 해야 해서",
)
# Remarks around a command: feelings, situations, what happens next. Their nouns (단톡, 광고,
# 회의) look like keywords and their words like apps ("카톡" in "단톡"), and are neither.
_REMARKS = (
    "너무 시끄러워", "진짜 짜증나", "계속 울려서 미치겠음", "단톡 폭탄 싫어", "새해 인사 폭탄 싫어",
    "퇴근했음", "퇴근함", "이제 잘 거야", "자러 감", "회의 끝나면 다시 켤게", "나중에 다시 켤게",
    "광고가 너무 많아", "정신없어", "머리 아파", "오늘 피곤하다", "주말엔 쉬고 싶어", "고마워",
    "부탁할게", "ㅠㅠ 살려줘", "알림 폭탄 맞는 중", "아 진짜", "시험 망하면 안 됨", "집중 안 돼",
    "오늘 마감이야", "방금 회의 시작함", "아기 자는 중", "지금 운전해", "밥 먹는 중", "영화 시작함",
    "휴가 중이라", "제발 좀", "감사", "ㄳ", "땡큐", "thx", "please", "수고", "이따 다시 말할게",
)
# Topic nouns code treats as keywords even bare ("광고 알림 꺼줘"); others need a frame.
_TOPICS = (
    "광고", "스팸", "쿠폰", "이벤트", "할인", "세일", "특가", "프로모션", "마케팅", "혜택", "적립",
    "포인트", "업데이트", "결제", "배송", "택배", "주문", "배달", "입금", "출금", "송금", "이체",
    "좋아요", "댓글", "팔로우", "구독", "공지", "뉴스", "속보", "날씨", "초대", "선물", "리뷰",
    "추천", "라이브", "방송", "인증번호", "보안", "로그인", "대출", "보험", "주식", "코인", "청구",
    "명세서", "예약", "알바", "리마인더", "투표", "설문", "스토리", "게시물", "멘션", "답장",
    "충전", "잔액", "청약", "당첨", "경품", "모집", "재입고", "품절", "가격",
)
_FRAMED = (
    "회식", "긴급", "마감", "면접", "출장", "과제", "시험", "월급", "생일", "모임", "약속", "동창회",
    "결혼식", "야근", "세미나", "정산", "환불", "반품", "계약", "견적", "급여", "점검", "장애",
    "오류", "경고", "승인", "합격", "등록금", "중고", "나눔", "할부", "연체", "만기", "이자",
    "배당", "공모", "마일리지", "신상", "타임세일", "번개", "출석", "퀘스트", "레이드", "공연",
    "티켓", "예매", "좌석", "당직", "교대", "휴강", "보강", "성적", "숙제", "학원", "병원", "진료",
    "처방", "백신", "검진", "주차", "택시", "픽업", "배차", "도착", "출발", "지연", "결항", "배포",
    "업무", "팀장", "엄마", "아빠", "가족", "동아리", "스터디", "과외", "hotdeal", "sale", "urgent",
    "OTP", "VIP", "event", "promo", "deploy", "invoice",
)


class Draw:
    """Random choices over one rng, with the phrase banks above."""

    def __init__(self, universe: AppUniverse, rng: random.Random) -> None:
        self.u = universe
        self.r = rng
        bad = universe.known_words
        self.topics = [w for w in _TOPICS if normalise(w) not in bad]
        self.framed = [w for w in _FRAMED if normalise(w) not in bad]

    # -- apps ---------------------------------------------------------------------------
    def app(self, *, foreign: float = 0.25) -> App:
        r = self.r.random()
        if r < foreign:
            if self.r.random() < 0.2 and self.u.unknown:
                return self.r.choice(self.u.unknown)
            return self.r.choice(
                self.u.installable if self.r.random() < 0.6 else self.u.elsewhere
            )
        if r < 0.6:
            return self.r.choice(self.u.popular)
        return self.r.choice(self.u.catalog_apps)

    def apps(self, n: int, *, avoid: Sequence[App] = ()) -> list[App]:
        out: list[App] = []
        tries = 0
        while len(out) < n and tries < 200:
            tries += 1
            a = self.app()
            if all(a.key != o.key for o in [*out, *avoid]):
                out.append(a)
        return out

    def n_apps(self) -> int:
        return self.r.choices([1, 2, 3, 4, 5, 6], weights=[50, 22, 13, 7, 4, 4])[0]

    def word_for(self, app: App, tags: set[str]) -> str:
        w = self.r.choice(app.words)
        w = latin_case(w, self.r)
        if re.search(r"[A-Za-z]", w):
            tags.add("latin_app")
        if app.in_catalog and self.r.random() < 0.09:
            t = app_typo(w, self.r) or latin_typo(w, self.r)
            if t and normalise(t) not in self.u.known_words:
                tags.add("app_typo")
                return t
        return w

    def join(self, words: list[str]) -> str:
        s = words[0]
        style = self.r.random()
        for prev, w in zip(words, words[1:], strict=False):
            if style < 0.35:
                sep = " "
            elif style < 0.7:
                sep = self.r.choice(["이랑 " if _batchim(prev) else "랑 ", "하고 ",
                                     "과 " if _batchim(prev) else "와 ", "이랑 " if _batchim(prev) else "랑 "])
            elif style < 0.85:
                sep = self.r.choice([", ", ",", " , "])
            else:
                sep = self.r.choice(["이나 " if _batchim(prev) else "나 ", " 그리고 ", "/", " & ",
                                     "도 ", " 또 "])
            s += sep + w
        return s

    def app_phrase(self, apps: list[App], tags: set[str]) -> str:
        words = [self.word_for(a, tags) for a in apps]
        if len(apps) == 1 and self.r.random() < 0.12:
            words[0] += self.r.choice([" 앱", " 어플", "앱"])
        return self.join(words)

    # -- words --------------------------------------------------------------------------
    def mute(self, tags: set[str]) -> str:
        if self.r.random() < 0.07:
            tags.add("verb_typo")
            return self.r.choice(_MUTE_TYPOS)
        return self.r.choice(_MUTE_VERBS)

    def allow(self, tags: set[str]) -> str:
        if self.r.random() < 0.06:
            tags.add("verb_typo")
            return self.r.choice(_ALLOW_TYPOS)
        return self.r.choice(_ALLOW_VERBS)

    def noti(self, apps: Sequence[App] = ()) -> str:
        n = self.r.choice(_NOTI)
        if apps and apps[-1].key in _MESSENGERS and self.r.random() < 0.15:
            n = self.r.choice(["메시지 알림", "메세지", "메시지", "메세지 알림", "톡 알림"])
        return n

    def front(self) -> str:
        return self.r.choice(_FRONT)

    def tail(self) -> str:
        return self.r.choice(_TAIL)

    def reason(self) -> str:
        return self.r.choice(_REASONS)

    def remark(self) -> str:
        return self.r.choice(_REMARKS)

    def keyword(self) -> tuple[str, str]:
        """A keyword and the phrase that names it ("'광고' 들어간")."""
        r = self.r
        if r.random() < 0.45:
            w = r.choice(self.topics)
        else:
            w = r.choice(self.framed)
        frame = r.choice([
            "'{w}' 들어간", "'{w}' 들어간", "\"{w}\" 들어간", "‘{w}’ 들어간", "'{w}'", "'{w}' 포함된",
            "{w}라는 단어 들어간", "{w}라는 말이 들어간", "'{w}'라는 단어 포함된", "{w}이라고 쓰인",
            "'{w}' 적힌", "{w} 들어간", "{w}라는 키워드 들어간", "'{w}' 포함한", "'{w}'가 들어간",
            "\"{w}\"", "'{w}' 있는", "제목에 '{w}' 있는", "{w} 관련", "'{w}' 관련",
        ])
        phrase = frame.format(w=w)
        if _batchim(w):
            phrase = phrase.replace(f"{w}라는", f"{w}이라는").replace(f"'{w}'라는", f"'{w}'이라는")
            phrase = phrase.replace(f"'{w}'가", f"'{w}'이")
        else:
            phrase = phrase.replace(f"{w}이라고", f"{w}라고")
        return w, phrase

    def keywords(self) -> tuple[list[str], str]:
        """One to four keywords in a shared frame ("'택배'나 '배송' 들어간")."""
        r = self.r
        k1, p1 = self.keyword()
        n = r.choices([1, 2, 3, 4], weights=[72, 20, 6, 2])[0]
        if n == 1:
            return [k1], p1
        ws = [k1]
        while len(ws) < n:
            w = r.choice(self.topics + self.framed)
            if w not in ws:
                ws.append(w)
        q = r.choice(["'", "\"", "'"])
        parts = [f"{q}{w}{q}" for w in ws]
        s = parts[0]
        for prev, p in zip(ws, parts[1:], strict=False):
            s += r.choice([("이나 " if _batchim(prev) else "나 "), ("이랑 " if _batchim(prev) else "랑 "),
                           ", ", " 아니면 ", " 또는 ", ("과 " if _batchim(prev) else "와 ")]) + p
        return ws, s + " " + r.choice(["들어간", "포함된", "있는", "적힌", "들어있는"])

    # -- time ---------------------------------------------------------------------------
    def time(self, tags: set[str]) -> str:
        k = self.r.random()
        if k < 0.09:
            return ""
        if k < 0.2:
            tags.add("time_en")
            return self._time_en()
        if k < 0.33:
            tags.add("numword")
            return self._time_words()
        return time_phrase(self.r)

    def _time_en(self) -> str:
        r = self.r
        h = r.randint(1, 12)
        return r.choice([
            f"{r.choice([1, 2, 3, 4, 6, 8])}h", f"{r.choice([1, 2, 3])}hour", f"{r.choice([1, 2, 3, 5])} hours",
            f"for {r.choice([1, 2, 3])}h", f"{r.choice([10, 15, 20, 30, 40, 45])} min",
            f"{r.choice([10, 15, 20, 30, 45])}mins", f"{r.choice([30, 90])} minutes",
            f"{h}pm까지", f"{h}am까지", f"till {h}pm", f"until {h}am", f"{h}:{r.choice(['00', '15', '30', '45'])}pm까지",
            "noon까지", "midnight까지", f"tomorrow {h}am까지", "tomorrow morning까지", "tonight",
            f"every day {r.randint(9, 11)}pm부터 {r.randint(6, 8)}am까지",
            f"weekdays {r.randint(8, 10)}am부터 {r.randint(5, 7)}pm까지",
            f"weekend {r.randint(9, 11)}am부터 {r.randint(1, 6)}pm까지", f"{h}pm to {h % 12 + 1}pm",
            f"{h}시까지 ASAP", "1hr", "2hrs", f"{r.choice([1, 2])}h {r.choice([15, 30])}m",
        ])

    def _time_words(self) -> str:
        r = self.r
        hours = ["한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열", "열한", "열두"]
        mins = ["오", "십", "십오", "이십", "삼십", "사십", "사십오", "오십"]
        return r.choice([
            f"{r.choice(hours[:6])}시간", f"{r.choice(hours[:6])} 시간", f"{r.choice(hours[:4])}시간 동안",
            f"{r.choice(hours[:4])}시간만", f"{r.choice(mins)}분", f"{r.choice(mins)}분만",
            f"{r.choice(mins)}분 동안", "한시간반", "한 시간 반", f"{r.choice(hours[:3])}시간 반",
            f"한시간 {r.choice(mins)}분", f"{r.choice(hours)}시까지", f"{r.choice(hours)}시 반까지",
            f"밤 {r.choice(hours[7:])}시까지", f"아침 {r.choice(hours[5:9])}시까지",
            f"{r.choice(hours[5:])}시부터 {r.choice(hours)}시까지", "하루 종일", "반나절", "이틀",
        ])


_KOR_NUM_H = ("한", "두", "세", "네", "다섯")


def _duration(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.35:
        n = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 24])
        return f"{n}" + rng.choice(["시간 동안", "시간만", "시간", "시간 정도", "시간 동안만", "시간동안", "시간만요"])
    if k < 0.65:
        n = rng.choice([5, 10, 15, 20, 25, 30, 40, 45, 50, 90, 120])
        return f"{n}" + rng.choice(["분 동안", "분만", "분", "분간", "분 정도만", "분동안"])
    if k < 0.85:
        return f"{rng.randint(1, 5)}시간 " + rng.choice(["반", "반 동안", "30분", "15분 동안"])
    return rng.choice(["하루 동안", "반나절 동안", "이틀 동안", "일주일 동안", "하루만", "오늘 하루",
                       "3일 동안", "주말 동안", "이번 주말 동안", "오늘 하루 종일", "사흘간"])


def _clock(rng: random.Random) -> str:
    part = rng.choice(["오전", "오후", "아침", "저녁", "밤", "새벽", "낮", "", "", "점심"])
    lo, hi = {"오전": (6, 11), "오후": (1, 11), "아침": (6, 10), "저녁": (5, 9), "밤": (8, 12),
              "새벽": (1, 5), "낮": (12, 4), "": (1, 12), "점심": (12, 1)}[part]
    hour = rng.randint(lo, hi) if lo <= hi else rng.choice([12, 1, 2, 3, 4][: 5 if hi == 4 else 2])
    mm = rng.choice(["", "", "", " 반", " 30분", " 15분", " 45분", "반"])
    return f"{part} {hour}시{mm}".strip()


def _until(rng: random.Random) -> str:
    day = rng.choice(["", "", "", "오늘 ", "내일 ", "모레 ", "이따 ", "금요일 ", "다음주 월요일 "])
    if rng.random() < 0.18:
        return day + rng.choice(["자정까지", "정오까지", "아침까지", "퇴근할 때까지", "저녁까지",
                                 "밤까지", "점심까지", "내일까지", "주말까지"])
    return f"{day}{_clock(rng)}까지" + rng.choice(["", "", "만"])


def _window(rng: random.Random) -> str:
    return f"{_clock(rng)}부터 {_clock(rng)}까지"


def _recurring(rng: random.Random) -> str:
    days = rng.choice([
        "매일", "날마다", "평일", "주말", "주말마다", "평일마다", "매주 월요일", "매주 금요일",
        "매주 토요일", "매주 일요일", "매주 화목", "매주 월수금", "일요일마다", "수요일마다", "평일에는",
        "주말에는",
    ])
    return f"{days} {_window(rng)}"


def _delay(rng: random.Random) -> str:
    n = rng.choice([5, 10, 20, 30, 40])
    unit = rng.choice(["분 뒤부터", "분 후부터", "분 있다가", "분 후에", "분뒤에"])
    return f"{n}{unit} {_duration(rng)}"


def time_phrase(rng: random.Random) -> str:
    """A Korean time phrase (the model ignores time, but must see every kind)."""
    k = rng.random()
    if k < 0.38:
        return _duration(rng)
    if k < 0.62:
        return _until(rng)
    if k < 0.72:
        return _window(rng)
    if k < 0.88:
        return _recurring(rng)
    return _delay(rng)
