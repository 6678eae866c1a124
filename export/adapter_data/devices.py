"""Apps and devices: what a sentence names and the installed list it is answered for.

`App` and `AppUniverse`: every app the generator can name, from the default catalog and the alias
table (plus apps outside it, and names it does not know at all). `Device`: an installed list, the
default catalog or a custom one (English/Korean labels, apps from outside the catalog).
`apps_answer` / `kws_answer`: the apps and keywords answers written against a device.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from notillm_local import resources
from notillm_local.export.adapter_data.records import MAX_ITEMS, NONE_WORD, OTHER_APP_WORD
from notillm_local.stages.apps import AliasTable, load_catalog, normalise

# --------------------------------------------------------------------------- apps and devices


@dataclass(frozen=True)
class App:
    """One app a user may name: its words, and the labels devices show it under."""

    key: str  # the default catalog's label, or the alias table's name for it
    words: tuple[str, ...]
    package: str | None  # None: no device in the generator has it
    labels: tuple[str, ...]  # first: the default catalog's label / the usual one
    in_catalog: bool


# The labels a device in English shows catalog apps under (the others keep theirs).
_CATALOG_ALT_LABELS = {
    "카카오톡": "KakaoTalk", "메시지": "Messages", "전화": "Phone", "연락처": "Contacts",
    "설정": "Settings", "캘린더": "Calendar", "시계": "Clock", "갤러리": "Gallery",
    "이메일": "Email", "카메라": "Camera", "내 파일": "My Files", "삼성 인터넷": "Samsung Internet",
    "네이버": "NAVER", "네이버 지도": "NAVER Map", "네이버 웹툰": "WEBTOON", "밴드": "BAND",
    "카카오맵": "KakaoMap", "카카오 T": "Kakao T", "카카오페이지": "KakaoPage",
    "카카오뱅크": "KakaoBank", "토스": "Toss", "쿠팡": "Coupang", "배달의민족": "Baemin",
    "쿠팡이츠": "Coupang Eats", "당근": "Karrot", "무신사": "MUSINSA", "G마켓": "Gmarket",
    "멜론": "Melon", "에브리타임": "Everytime", "삼성 월렛": "Samsung Wallet",
    "Google 지도": "Google Maps", "Play 스토어": "Play Store",
}
# Apps outside the default catalog that custom installed lists hold: real package names, and
# the labels their devices show (first: the usual one).
_ELSEWHERE_INSTALLABLE: dict[str, tuple[str, tuple[str, ...]]] = {
    "WhatsApp": ("com.whatsapp", ("WhatsApp", "왓츠앱")),
    "Telegram": ("org.telegram.messenger", ("Telegram", "텔레그램")),
    "LINE": ("jp.naver.line.android", ("LINE", "라인")),
    "WeChat": ("com.tencent.mm", ("WeChat", "위챗")),
    "Twitch": ("tv.twitch.android.app", ("Twitch", "트위치")),
    "Snapchat": ("com.snapchat.android", ("Snapchat", "스냅챗")),
    "Pinterest": ("com.pinterest", ("Pinterest", "핀터레스트")),
    "Reddit": ("com.reddit.frontpage", ("Reddit", "레딧")),
    "Outlook": ("com.microsoft.office.outlook", ("Outlook", "아웃룩")),
    "Skype": ("com.skype.raider", ("Skype", "스카이프")),
    "Signal": ("org.thoughtcrime.securesms", ("Signal", "시그널")),
    "Webex": ("com.cisco.webex.meetings", ("Webex", "웹엑스")),
    "Tving": ("net.cj.cjhv.gs.tving", ("TVING", "티빙")),
    "Watcha": ("com.frograms.wplay", ("왓챠", "WATCHA")),
    "Wavve": ("kr.co.captv.pooqV2", ("wavve", "웨이브")),
    "Disney+": ("com.disney.disneyplus", ("Disney+", "디즈니+")),
    "요기요": ("com.fineapp.yogiyo", ("요기요", "Yogiyo")),
    "11번가": ("com.elevenst", ("11번가", "11st")),
    "마켓컬리": ("com.dbs.kurly.m2", ("컬리", "Kurly")),
    "번개장터": ("kr.co.quicket", ("번개장터", "Bunjang")),
    "업비트": ("com.dunamu.exchange", ("업비트", "Upbit")),
    "Zigzag": ("com.croquis.zigzag", ("지그재그", "Zigzag")),
    "테무": ("com.einnovation.temu", ("Temu", "테무")),
    "알리익스프레스": ("com.alibaba.aliexpresshd", ("AliExpress", "알리익스프레스")),
    "Coupang Play": ("com.coupang.mobile.play", ("쿠팡플레이", "Coupang Play")),
    "듀오링고": ("com.duolingo", ("Duolingo", "듀오링고")),
}
# Words too ambiguous to stand for an app in a generated sentence (also ordinary words).
_AMBIGUOUS_WORDS = {
    normalise(w) for w in (
        "x 엑스 국민 kb sol 쏠 일정 인터넷 nh 롤 카트 버블 카스 다방 타다 밀리 리디 알리 스팀 옥션 "
        "잔디 지니 플로 블라인드 리멤버 쓱 오집 포고 브롤 영웅문 웹툰 월렛 카페앱 메시지앱 다음앱 "
        "헬스앱 노트앱 사진앱 파일앱 알람앱 시계앱 설정앱 전화앱 문자앱 블로그앱 부재중 전화벨 "
        "트윗 웨어러블 인터넷 구글 google 카카오 국민 신한 ssg 시그널 mms"
    ).split()
}
# App names the alias table does not know (filtered against it at start-up): always "기타".
_UNKNOWN_APPS = (
    "캐시워크", "숨고", "코인원", "뱅크샐러드", "레진코믹스", "땡겨요", "모니모", "문피아",
    "트리플", "클럽하우스", "메이플스토리", "피파모바일", "서머너즈워", "쿠키런킹덤", "로켓펀치",
    "굿닥", "똑닥", "캐치테이블", "야핏무브", "Strava", "Bumble", "Venmo", "Viber", "Shein",
    "헤이딜러", "엔카", "리멤버커리어", "당근비즈", "위메이드", "밴드게임", "카카오게임즈",
)
# Apps people actually silence: named more often.
_POPULAR = (
    "카카오톡", "메시지", "전화", "YouTube", "Instagram", "Slack", "Discord", "Microsoft Teams",
    "Zoom", "Netflix", "쿠팡", "배달의민족", "토스", "당근", "밴드", "Facebook", "X", "TikTok",
    "Threads", "Gmail", "에브리타임", "네이버", "카카오뱅크", "쿠팡이츠", "이메일", "Notion",
    "멜론", "Spotify", "무신사", "G마켓", "카카오페이지", "네이버 웹툰", "KB스타뱅킹",
)


def _hangul(s: str) -> bool:
    return any("가" <= c <= "힣" for c in s)


class AppUniverse:
    """Every app the generator can name, from the default catalog and the alias table."""

    def __init__(self) -> None:
        catalog = load_catalog()
        self.catalog = tuple(catalog)
        table = AliasTable.load(resources.path("app_aliases.json"), catalog)
        self.table = table
        known = set(table.word_to_label) | set(table.word_to_elsewhere)
        known |= {normalise(a.label) for a in catalog}

        def usable(words: Iterable[str]) -> tuple[str, ...]:
            out = []
            for w in words:
                if normalise(w) in _AMBIGUOUS_WORDS or len(normalise(w)) < 2:
                    continue
                if "/" in w or len(w) > 14:
                    continue
                out.append(w)
            return tuple(dict.fromkeys(out))

        self.apps: dict[str, App] = {}
        for ref in catalog:
            words = usable([*table.aliases.get(ref.label, ()), ref.label])
            alt = _CATALOG_ALT_LABELS.get(ref.label)
            labels = (ref.label, alt) if alt else (ref.label,)
            if words:
                self.apps[ref.label] = App(ref.label, words, ref.package, labels, True)
        for name, words in table.known_elsewhere.items():
            pkg_labels = _ELSEWHERE_INSTALLABLE.get(name)
            ws = usable([*words, name])
            if not ws:
                continue
            if pkg_labels:
                self.apps[name] = App(name, ws, pkg_labels[0], pkg_labels[1], False)
            else:
                self.apps[name] = App(name, ws, None, (name,), False)
        self.unknown = tuple(
            App(w, (w,), None, (w,), False) for w in _UNKNOWN_APPS if normalise(w) not in known
        )
        self.known_words = known
        self.popular = [self.apps[k] for k in _POPULAR if k in self.apps]
        self.catalog_apps = [a for a in self.apps.values() if a.in_catalog]
        self.installable = [a for a in self.apps.values() if not a.in_catalog and a.package]
        self.elsewhere = [a for a in self.apps.values() if not a.in_catalog]
        self.default_labels = tuple(a.label for a in catalog)


# --------------------------------------------------------------------------- devices, labels


@dataclass
class Device:
    """An installed list: the default catalog (None) or a custom list of (label, package)."""

    apps: tuple[tuple[str, str], ...] | None
    label_of: dict[str, str]  # app key → the label this device shows

    def label(self, app: App) -> str | None:
        return self.label_of.get(app.key)


def default_device(u: AppUniverse) -> Device:
    return Device(None, {ref.label: ref.label for ref in u.catalog})


def custom_device(u: AppUniverse, named: Sequence[App], r: random.Random) -> Device:
    """A device with its own list: the named apps mostly on it, others around them, each under
    the label such a device shows (an English device: KakaoTalk, Messages, Phone, …)."""
    english = r.random() < 0.4
    chosen: list[App] = []
    for a in named:
        if a.package is not None and r.random() < 0.93:
            chosen.append(a)  # the rest: an app this device does not have ("기타")
    pool = u.catalog_apps + u.installable
    for a in r.sample(pool, r.randint(3, 9)):
        if all(a.key != c.key for c in chosen):
            chosen.append(a)
    r.shuffle(chosen)
    label_of: dict[str, str] = {}
    rows: list[tuple[str, str]] = []
    for a in chosen:
        if a.in_catalog:
            label = a.labels[-1] if english else a.labels[0]
        else:
            label = a.labels[0] if r.random() < 0.8 else r.choice(a.labels[1:] or a.labels)
        if a.package is None or label in label_of.values():
            continue
        label_of[a.key] = label
        rows.append((label, a.package))
    return Device(tuple(rows), label_of)


def apps_answer(apps: Sequence[App], device: Device) -> str:
    items: list[str] = []
    for a in apps:
        label = device.label(a)
        if label is None:
            items.append(OTHER_APP_WORD)
        elif label not in items:
            items.append(label)
    return ", ".join(items[:MAX_ITEMS]) if items else NONE_WORD


def kws_answer(kws: Sequence[str]) -> str:
    return ", ".join(list(dict.fromkeys(kws))[:MAX_ITEMS]) or NONE_WORD
