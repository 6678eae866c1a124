"""Reading a command's slots with code: intent, target apps, keywords, activity, location.

Korean marks these with a small closed set of verbs, particles and frames ("X만 받아줘",
"X 빼고 다 꺼줘", "'Y'라는 단어가 들어간"), so code reads them exactly and says which slots it
could not decide; only those go to the model (see extractor.py). Time words are cut out first
by the time parser's spans, so "2분만" never looks like "X만".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import AppMapper, InstalledIndex, Unresolved, normalise

# --- intent cues -------------------------------------------------------------------------
# Negated receiving and silencing verbs. Checked before allow cues: "받지마" contains "받".
_MUTE = re.compile(
    r"받지\s*[마말않]|받기\s*싫|안\s*받|그만\s*받|받고\s*싶지\s*않|필요\s*없"
    r"|꺼(?!져\s*있)|(?<!시)끄|끈|끌|끔|off|오프"
    r"|막[아어았고을게기는줘]|막$|차단|블락|블록"
    r"|무음|조용|음소거|뮤트|mute|묵음|쉿"
    r"|멈춰|멈추|중지|정지|중단|그만"
    r"|울리지\s*[마말않]|안\s*울리|울리면\s*안|알리지\s*[마말않]|알려주지\s*[마말않]|안\s*알려"
    r"|방해\s*금지|방해하지\s*[마말]|방해\s*(?:받기\s*)?싫|방해\s*안"
    r"|오지\s*[마말않]|안\s*오게|안\s*와|뜨지\s*[마말않]|안\s*뜨|보이지\s*[마않]|안\s*보이"
    r"|숨겨|숨기|없애|치워|끊어|끊|닥쳐|꺼져|비활성"
    r"|보기\s*싫|듣기\s*싫|안\s*보고\s*싶|보고\s*싶지\s*않|안\s*볼래|짜증|소리\s*안\s*나|안\s*나게|울리지\s*않|진동\s*없|진동도\s*안",
    re.IGNORECASE,
)
_ALLOW = re.compile(
    r"받[아을겠고는기게도자으]|받$|받음|받는"
    r"|울리[게도고는]|울려|허용|알려\s*줘|알려\s*주|알림\s*줘"
    r"|오게|와도|뜨게|떠도|보이게|들리게|(?<!시)켜(?!져)|살려|열어\s*둬|on$|통과|예외"
    r"|놔둬|남겨|유지",
    re.IGNORECASE,
)
# "X 빼고 / 제외하고 / 말고 / 외에는": the named target is the exception, so the verb flips.
_EXCEPT = re.compile(r"(빼고|빼구|제외하고|제외한|제외|말고는?|외에는?|이외에?는?|빼면|뺀|만\s*빼고)")
_ALL_WORDS = re.compile(r"모든|전부|모두|전체|싹\s*다|다\s|다$|다른\s*알림|나머지|죄다|몽땅|전부다")

# --- keyword frames ---------------------------------------------------------------------
_QUOTED = re.compile(r"['\"‘’“”「」『』`]\s*([^'\"‘’“”「」『』`]{1,40}?)\s*['\"‘’“”「」『』`]")
_NAMED_WORD = re.compile(
    r"(\S{1,20}?)\s*(?:이?라는|이?란|이?라고\s*(?:된|쓰인|적힌|하는))\s*"
    r"(?:단어|말|글자|문구|키워드|내용|표현|메시지|메세지|알림)"
)
_CONTAINS = re.compile(
    r"(\S{1,20}?)\s*(?:이|가|을|를)?\s*"
    r"(?:들어간|들어가는|들어있는|들어 있는|포함된|포함되어?\s*있는|포함한|포함하는|적힌|쓰인|담긴|관련된?|관련한)"
)

# --- token clean-up ---------------------------------------------------------------------
# Longest first: particles and light suffixes that attach to an app word or keyword.
_SUFFIXES = sorted(
    [
        "만", "이랑", "랑", "하고", "과", "와", "이나", "나", "에서", "에서의", "에서는", "에서도",
        "에서만", "의", "은", "는", "이", "가", "을", "를", "도", "에", "으로", "로", "까지",
        "부터", "만은", "만을", "만큼", "이든", "든", "이라도", "라도", "빼고", "말고", "제외하고",
        "쪽", "꺼", "거", "것", "앱", "어플", "알림", "알람", "알림은", "알림이", "알림을", "알림만",
        "알림도", "알림들", "알림들은", "알림좀", "푸시", "에게서", "한테서", "한테", "에게",
        "같은", "들", "님", "이라는", "라는", "이란", "란", "이라고", "라고", "으로부터", "로부터", "관련",
    ],
    key=len,
    reverse=True,
)
# Words that carry no slot: verbs, fillers, generic notification nouns, adverbs, pronouns.
_FILLER = {
    normalise(w)
    for w in (
        "알림 알람 알림창 푸시 푸쉬 노티 노티피케이션 소리 진동 벨 벨소리 메시지 메세지 연락 "
        "모든 모두 전부 전체 다 싹 다른 나머지 죄다 몽땅 그 이 저 내 나 너 우리 제 저희 폰 핸드폰 "
        "휴대폰 스마트폰 휴대전화 기기 좀 제발 그냥 일단 혹시 잠깐 잠시 지금 당장 바로 이제 계속 "
        "오는 온 들어오는 뜨는 울리는 것 거 것들 거는 건 게 앱 어플 어플리케이션 애플리케이션 "
        "해줘 해주세요 해 해라 줘 주세요 주라 줄래 할래 하자 돼 되게 하게 싶어 싶다 원해 부탁 부탁해 "
        "부탁해요 요 용 좀요 정말 진짜 너무 많이 자꾸 계속해서 항상 맨날 늘 또 다시 "
        "설정 설정해 설정해줘 모드 상태 전환 변경 해놔 해둬 놔 둬 되도록 가능 "
        "빼고 말고 제외 제외하고 외에 외에는 이외 만 뿐 하나 둘 개 것만 "
        "새 새로운 모든앱 다른앱 전체앱 알림들 알림은 알림이 알림을 알림도 알림만 "
        "관련 관련된 내용 단어 말 글자 문구 키워드 표현 들어간 포함된 있는 라는 이라는 "
        "중 중에 중엔 중이니까 중일 때 동안 사이 때 때는 땐 ㄴㄴ ㅇㅇ ㄱㄱ 둘 셋 둘다 셋다 "
        "바꿔 바꿔줘 바꿔서 바꿀래 변경 변경해줘 아니다 아니 아냐 아니고 대신 대신에 그거 그건 "
        "이거 이건 저거 방금 아까 같이 함께 각각 그리고 또는 및 랑 하고 부분 쪽 편 정도 쯤 "
        "들어간 들어가는 들어가 들어있는 들어온 포함 포함된 포함되는 포함한 포함하는 적힌 쓰인 담긴 "
        "됐고 됐어 됐다 됐으니 됐으니까 아무튼 암튼 그럼 그러면 그러니까 그니까 음 아 어 오 네 예 응 "
        "그래 그래서 근데 그런데 일단은 혹시나 차라리 대신에 이번엔 이번에는 아까꺼 방금꺼"
    ).split()
}
_ACTIVITY = (
    (re.compile(r"운전|드라이브|차\s*타|주행"), "driving"),
    (re.compile(r"잘\s*때|자는\s*동안|잠들|잠\s*잘|잠자|취침|수면|잘게|잔다|자야|자려"), "sleeping"),
    (re.compile(r"회의|미팅|면담|발표|컨퍼런스|수업|강의"), "meeting"),
    (re.compile(r"운동|헬스|러닝|달리기|조깅|수영|요가|필라테스"), "exercising"),
)
_LOCATION = (
    (re.compile(r"집에|집에서|집에\s*있을|귀가"), "home"),
    (re.compile(r"회사|사무실|직장|출근|근무"), "work"),
    (re.compile(r"학교|교실|도서관|캠퍼스"), "school"),
)
# A keyword frame's own words must not become keywords.
_FRAME_WORDS = {normalise(w) for w in "단어 말 글자 문구 키워드 내용 표현 메시지 메세지 알림".split()}
# Nouns people use as notification topics rather than app names.
_TOPIC_NOUNS = {
    normalise(w)
    for w in (
        "광고 스팸 쿠폰 이벤트 할인 세일 특가 프로모션 마케팅 혜택 적립 포인트 업데이트 결제 "
        "배송 택배 주문 배달 입금 출금 송금 이체 좋아요 댓글 팔로우 팔로워 구독 공지 공지사항 "
        "뉴스 속보 날씨 게임 채팅 단톡 그룹 초대 친구 선물 리뷰 추천 라이브 방송 업로드 "
        "인증 인증번호 보안 로그인 광고성 홍보 대출 보험 주식 코인 청구 명세서 예약 알바 "
        "회의 미팅 일정 리마인더 독촉 투표 설문 이메일 메일 스토리 게시물 멘션 답장 "
        "충전 잔액 카드 청약 당첨 경품 모집 신규 오픈 출시 재입고 품절 가격"
    ).split()
}


_SUFFIX_SET = frozenset(_SUFFIXES)
# Words that only set a condition ("운전 중에", "회사에서"): never a target or keyword.
_CONTEXT_WORD = re.compile(
    r"^(?:운전|드라이브|주행|자는|잘|잠|취침|수면|회의|미팅|수업|강의|운동|헬스|러닝|조깅|수영|"
    r"요가|집|회사|사무실|직장|학교|교실|도서관|출근|퇴근|근무)"
)
# Time-looking words the time parser could not use: the time is malformed, not absent.
_TIME_RESIDUE = re.compile(
    r"^\d+\s*(?:시|분|초|시간|일|주|개월|달|년)|^(?:어제|그제|그저께|엊그제|작년|지난|전부터|전에|전까지)"
    r"|^\d{1,2}:\d{2}"
)


@dataclass
class SlotReading:
    """What code read; `unsure` lists slots it could not decide."""

    mute: bool | None = None
    all: bool = False
    apps: list[AppMatch] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    content: list[str] = field(default_factory=list)
    unknown_words: list[str] = field(default_factory=list)  # neither app, keyword nor filler
    time_residue: list[str] = field(default_factory=list)  # time-like words the parser left
    predicates: list[str] = field(default_factory=list)  # verbs that are not intent cues
    activity: str | None = None
    location: str | None = None
    intent_cues: tuple[bool, bool] = (False, False)  # (mute cue seen, allow cue seen)
    unsure: set[str] = field(default_factory=set)

    def app_refs(self) -> list[AppRef]:
        out: list[AppRef] = []
        for m in self.apps:
            if m.app not in out:
                out.append(m.app)
        return out


def has_intent_cue(text: str) -> bool:
    """Whether any mute or allow verb appears (cheap; used before reading a sentence fully)."""
    return bool(_MUTE.search(text) or _ALLOW.search(text))


def blank_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """Replace the time parser's spans by spaces, keeping offsets and word breaks."""
    chars = list(text)
    for start, end in spans:
        for i in range(max(0, start), min(len(chars), end)):
            chars[i] = " "
    return "".join(chars)


def peel(token: str) -> list[str]:
    """The token and each shorter form left by peeling one more particle or suffix.

    "카톡만" → ["카톡만", "카톡"]; "알림도" → ["알림도", "알림"]. Callers take the first form they
    know, so a word that merely ends like a particle ("모든", "카톡") is not cut short.
    """
    forms = [token]
    word = token
    for _ in range(3):
        for suf in _SUFFIXES:
            if len(word) > len(suf) and word.endswith(suf):
                word = word[: -len(suf)]
                forms.append(word)
                break
        else:
            break
    return forms


def strip_suffixes(token: str) -> str:
    """The surest bare form of a token: a form some word list knows, else one peel at most."""
    forms = peel(token)
    for f in forms:
        if normalise(f) in _FILLER or normalise(f) in _TOPIC_NOUNS:
            return f
    return forms[1] if len(forms) > 1 else forms[0]


_TOKEN_SPLIT = re.compile(r"[\s,，、.!?~…;:()\[\]{}]+|(?<=[가-힣])(?=[A-Za-z])|(?<=[A-Za-z])(?=[가-힣])")


def _words(text: str) -> list[str]:
    return [t for t in _TOKEN_SPLIT.split(text) if t]


class RuleSlotReader:
    """Deterministic slot reading over the text left after time spans are removed."""

    def __init__(self, mapper: AppMapper) -> None:
        self._mapper = mapper

    def read(
        self, text: str, installed: InstalledIndex, *, original: str | None = None
    ) -> SlotReading:
        """Read `text` (time spans blanked); `original` is the same text before blanking."""
        r = SlotReading()
        rest = text
        rest = self._read_keywords(rest, r, original if original is not None else text)
        self._read_context(text, r)
        self._read_intent(rest, r)
        self._read_targets(rest, installed, r)
        r.all = not r.apps and not r.unresolved and not r.content
        if r.all and r.unknown_words:
            # Words code cannot place might be an app or a topic: let the model decide.
            r.unsure.add("target")
        return r

    # -- keywords -------------------------------------------------------------------------
    def _read_keywords(self, text: str, r: SlotReading, original: str) -> str:
        def take(m: re.Match[str]) -> str:
            # Quoted words are kept as the user wrote them, time words inside them included
            # (blanking keeps offsets, so the original holds the same span).
            word = original[m.start(1) : m.end(1)].strip()
            if word and normalise(word) not in _FRAME_WORDS and word not in r.content:
                r.content.append(word)
            return " " * (m.end() - m.start())

        text = _QUOTED.sub(take, text)
        for frame in (_NAMED_WORD, _CONTAINS):
            for m in list(frame.finditer(text)):
                raw = m.group(1)
                word = strip_suffixes(raw)
                key = normalise(word)
                if not key or key in _FILLER or key in _FRAME_WORDS or raw.strip() in _SUFFIX_SET:
                    continue
                if self._mapper.is_app_word(word):
                    continue  # "카톡 관련 알림" names the app, not a keyword
                if word not in r.content:
                    r.content.append(word)
                # Blank the whole frame, so "이라고 적힌" leaves nothing for the next frame.
                text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
        return text

    # -- activity / location ----------------------------------------------------------------
    @staticmethod
    def _read_context(text: str, r: SlotReading) -> None:
        for pat, name in _ACTIVITY:
            if pat.search(text):
                r.activity = name
                break
        for pat, name in _LOCATION:
            if pat.search(text):
                r.location = name
                break

    # -- intent -----------------------------------------------------------------------------
    @staticmethod
    def _read_intent(text: str, r: SlotReading) -> None:
        mute_cue = bool(_MUTE.search(text))
        # Drop the words holding mute cues before looking for allow cues: "받지마" must not
        # read as "받", nor "꺼줘" leave "줘" behind.
        unmuted = " ".join(w for w in text.split() if not _MUTE.search(w))
        allow_cue = bool(_ALLOW.search(unmuted))
        exception = bool(_EXCEPT.search(text))
        r.intent_cues = (mute_cue, allow_cue)
        if mute_cue and not allow_cue:
            r.mute = not exception  # "X 빼고 다 꺼줘": only X gets through
        elif allow_cue and not mute_cue:
            r.mute = exception  # "X 빼고 다 받을래": X is silenced
        elif mute_cue and allow_cue:
            # "카톡은 받고 나머지는 꺼줘": the kept part is what gets through.
            if re.search(r"받고|울리게\s*하고|허용하고|살리고|남기고", text) and _ALL_WORDS.search(
                text
            ):
                r.mute = False
            else:
                r.unsure.add("intent")
        else:
            r.unsure.add("intent")

    # -- targets ----------------------------------------------------------------------------
    def _read_targets(self, text: str, installed: InstalledIndex, r: SlotReading) -> None:
        words = _words(text)
        n = len(words)
        i = 0
        max_n = max(self._mapper.max_words, installed.max_label_words)
        found_app_at: list[int] = []
        leftovers: list[tuple[int, str]] = []
        while i < n:
            hit = None
            # Longest n-gram first so "네이버 지도" wins over "네이버".
            for size in range(min(max_n, n - i), 0, -1):
                chunk = words[i : i + size]
                cands = [" ".join(chunk[:-1] + [f]) for f in peel(chunk[-1])]
                for cand in cands:
                    res = self._mapper.lookup(cand, installed)
                    if res is not None:
                        hit = (size, res)
                        break
                if hit:
                    break
            if hit is None:
                leftovers.append((i, words[i]))
                i += 1
                continue
            size, res = hit
            if isinstance(res, AppMatch):
                r.apps.append(res)
            else:
                r.unresolved.append(res)
            found_app_at.append(i)
            i += size

        self._drop_generic_app_words(r)
        # Korean puts the predicate last: words from the first intent verb on are predicate
        # ("받지 마", "울리지 않게 해줘"), never keywords.
        predicate_at = _predicate_start(text, n)
        for idx, raw in leftovers:
            word = strip_suffixes(raw)
            key = normalise(word)
            if _TIME_RESIDUE.search(raw):
                r.time_residue.append(raw)
                continue
            if any(normalise(f) in _FILLER for f in peel(raw)) or raw in _SUFFIX_SET:
                continue
            if _CONTEXT_WORD.search(raw) or idx >= predicate_at:
                continue
            if not key or key in _FILLER or _MUTE.fullmatch(raw):
                continue
            if _is_verb(raw):
                r.predicates.append(raw)
                continue
            if key in _TOPIC_NOUNS:
                if word not in r.content:
                    r.content.append(word)
                continue
            if re.fullmatch(r"[0-9]+", key):
                continue
            res = self._mapper.resolve(word, installed)  # embeddings for words the table lacks
            if isinstance(res, AppMatch):
                r.apps.append(res)
            elif isinstance(res, Unresolved):
                r.unresolved.append(res)
            elif (r.apps or r.unresolved) and _before_notification_word(words, idx):
                # Between an app and 알림 ("문자 스팸 알림"), a noun narrows that app's alerts.
                if word not in r.content:
                    r.content.append(word)
            else:
                r.unknown_words.append(word)

    @staticmethod
    def _drop_generic_app_words(r: SlotReading) -> None:
        """'메시지' beside another app is a generic noun ("카톡 메세지 알림"), not the Messages app."""
        if len(r.apps) < 2:
            return
        generic = {normalise(w) for w in ("메시지", "메세지", "알림")}
        keep = [m for m in r.apps if normalise(m.word) not in generic]
        if keep and len(keep) < len(r.apps):
            r.apps = keep


_NOTIFICATION_NOUN = re.compile(r"^(?:알림|알람|푸시|노티|메시지|메세지)")


def _before_notification_word(words: list[str], idx: int) -> bool:
    return idx + 1 < len(words) and bool(_NOTIFICATION_NOUN.match(words[idx + 1]))


def _predicate_start(text: str, n_words: int) -> int:
    """Index (in `_words(text)`) of the word where the first intent verb begins."""
    cues = [m.start() for pat in (_MUTE, _ALLOW) if (m := pat.search(text))]
    if not cues:
        return n_words
    at = min(cues)
    k = len(_words(text[:at]))
    if at > 0 and not text[at - 1].isspace() and k > 0:
        k -= 1  # the cue starts inside a word ("알림꺼줘"): that word is predicate too
    return k


_VERB_ENDINGS = re.compile(
    r"(해|해줘|해주세요|줘|주세요|줄래|할래|하자|해라|하기|하게|하고|해놔|해둬|놔|둬|싶어|싶다|"
    r"싶음|마|말아|마라|마세요|줘요|래|게|고|요|음|기|자|다|라|네|야|어|아|지|죠|세요|십시오)$"
)


# Sentence-final endings of statements and questions ("시끄럽네", "있어?", "좋다").
_FINAL_ENDING = re.compile(
    r"(?:네|니|냐|나요|까|까요|죠|지요|요|다|어|아|야|래|군|구나|데|잖아|거든|네요|어요|아요)[?!.~]*$"
)


def _is_verb(raw: str) -> bool:
    """Predicates end in verbal endings; app names and topics do not."""
    if _MUTE.search(raw) or _ALLOW.search(raw):
        return True
    if re.search(r"[하되]", raw) and _VERB_ENDINGS.search(raw):
        return True
    return len(raw) >= 2 and bool(_FINAL_ENDING.search(raw)) and bool(
        re.search(r"[었았였했봤갔왔겠있없같럽롭싶좋많]|[?]$", raw)
    )
