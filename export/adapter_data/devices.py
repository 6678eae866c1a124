"""Apps and devices: what a sentence names and the installed list it is answered for.

`App` and `AppUniverse`: every app the generator can name, from the default catalog and the alias
table (plus apps outside it, and names it does not know at all). `Device`: an installed list, the
default catalog or a custom one (English/Korean labels, apps from outside the catalog).
`apps_answer` / `kws_answer`: the apps and keywords answers written against a device.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from notillm_local import resources
from notillm_local.domain import AppRef
from notillm_local.export.adapter_data.records import MAX_ITEMS, NONE_WORD, OTHER_APP_WORD
from notillm_local.stages.alias_table import AliasTable
from notillm_local.stages.apps import (
    AppMapper,
    InstalledIndex,
    letters_spelt,
    load_catalog,
    normalise,
)

# --------------------------------------------------------------------------- apps and devices


@dataclass(frozen=True)
class App:
    """One app a user may name: its words, and the labels devices show it under."""

    key: str  # the default catalog's label, or the alias table's name for it
    words: tuple[str, ...]
    package: str | None  # None: no device in the generator has it
    labels: tuple[str, ...]  # first: the default catalog's label / the usual one
    in_catalog: bool
    in_table: bool = True  # False: a name the alias table does not know


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
# Words too ambiguous to stand for an app in a generated sentence (also ordinary words). Names
# people do use for their apps though they are words too (웹툰, 신한, 국민, 시그널, 스팀, 지니,
# 플로, 밀리, 리디, 블라인드) are generated since this round: the model never saw them as apps.
_AMBIGUOUS_WORDS = {
    normalise(w) for w in (
        "x 엑스 kb sol 쏠 일정 인터넷 nh 롤 카트 버블 카스 다방 타다 "
        "잔디 오집 카페앱 메시지앱 다음앱 "
        "헬스앱 노트앱 사진앱 파일앱 알람앱 시계앱 설정앱 전화앱 문자앱 블로그앱 부재중 전화벨 "
        "트윗 웨어러블 인터넷 구글 google 카카오 ssg mms"
    ).split()
}
# App names the alias table does not know (filtered against it at start-up): always "기타".
_UNKNOWN_APPS = (
    "캐시워크", "숨고", "코인원", "뱅크샐러드", "레진코믹스", "땡겨요", "모니모", "문피아",
    "트리플", "클럽하우스", "메이플스토리", "피파모바일", "서머너즈워", "쿠키런킹덤", "로켓펀치",
    "굿닥", "똑닥", "캐치테이블", "야핏무브", "Strava", "Bumble", "Venmo", "Viber", "Shein",
    "헤이딜러", "엔카", "리멤버커리어", "당근비즈", "위메이드", "밴드게임", "카카오게임즈",
)
# Real apps the alias table does not know that a custom list may hold (label, package, the
# words users type for them): on such a device the answer is its label, the user's own name
# for it; on any other "기타". So the model learns to copy a name it cannot know.
_UNKNOWN_INSTALLABLE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Strava", "com.strava", ("strava", "스트라바")),
    ("Venmo", "com.venmo", ("venmo", "벤모")),
    ("Viber", "com.viber.voip", ("viber", "바이버")),
    ("Shein", "com.zzkko", ("shein", "쉬인")),
    ("Asana", "com.asana.app", ("asana", "아사나")),
    ("Figma", "com.figma.mirror", ("figma", "피그마")),
    ("Canva", "com.canva.editor", ("canva", "캔바")),
    ("Evernote", "com.evernote", ("evernote", "에버노트")),
    ("Todoist", "com.todoist", ("todoist", "투두이스트")),
    ("Udemy", "com.udemy.android", ("udemy", "유데미")),
    ("Medium", "com.medium.reader", ("medium",)),
    ("Tumblr", "com.tumblr", ("tumblr", "텀블러")),
    ("Lemon8", "com.bd.nproject", ("lemon8", "레몬에이트")),
    ("BeReal", "com.bereal.ft", ("bereal", "비리얼")),
    ("Bluesky", "xyz.blueskyweb.app", ("bluesky", "블루스카이")),
    ("Mastodon", "org.joinmastodon.android", ("mastodon", "마스토돈")),
    ("캐시워크", "com.cashwalk.cashwalk", ("캐시워크",)),
    ("숨고", "com.soomgo", ("숨고",)),
    ("뱅크샐러드", "com.rainist.banksalad2", ("뱅크샐러드", "뱅샐")),
    ("레진코믹스", "com.lezhin.comics", ("레진코믹스", "레진")),
    ("땡겨요", "com.shinhan.o2o", ("땡겨요",)),
    ("모니모", "com.samsung.monimo", ("모니모",)),
    ("캐치테이블", "kr.co.catchtable", ("캐치테이블",)),
    ("트리플", "com.titicacacorp.triple", ("트리플",)),
    ("문피아", "com.munpia.android", ("문피아",)),
    ("헤이딜러", "com.prnd.heydealer", ("헤이딜러",)),
    # Names by sound (라이트룸, 비핸스) and labels named without their brand (채널관리자).
    ("Lightroom", "com.adobe.lrmobile", ("lightroom", "라이트룸")),
    ("Behance", "com.behance.behance", ("behance", "비핸스")),
    ("Zalo", "com.zing.zalo", ("zalo", "잘로")),
    ("Shopee", "com.shopee.vn", ("shopee", "쇼피")),
    ("카카오톡 채널 관리자", "com.kakao.yellowid", ("채널관리자", "채널 관리자")),
    ("Google 클래스룸", "com.google.android.apps.classroom", ("클래스룸", "구글 클래스룸")),
    ("유튜브 스튜디오", "com.google.android.apps.youtube.creator", ("유튜브 스튜디오", "스튜디오")),
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
        def spelt(words: Iterable[str]) -> list[str]:
            # "카카오티" for 카카오t: the letters as Korean says them (AliasTable reads these too).
            return [x for w in words if (x := letters_spelt(normalise(w)))]

        for ref in catalog:
            own = [*table.aliases.get(ref.label, ()), ref.label]
            words = usable([*own, *spelt(own)])
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
                # The model never sees a package: a placeholder lets a custom list hold it.
                slug = "".join(c for c in normalise(name) if c.isascii() and c.isalnum())
                pkg = f"example.elsewhere.{slug or zlib.crc32(name.encode())}"
                self.apps[name] = App(name, ws, pkg, (name,), False)
        self.unknown = tuple(
            App(w, (w,), None, (w,), False, in_table=False)
            for w in _UNKNOWN_APPS if normalise(w) not in known
        ) + tuple(
            App(label, words, pkg, (label,), False, in_table=False)
            for label, pkg, words in _UNKNOWN_INSTALLABLE
            if not {normalise(w) for w in (label, *words)} & known
        )
        self.known_words = known
        self.popular = [self.apps[k] for k in _POPULAR if k in self.apps]
        self.catalog_apps = [a for a in self.apps.values() if a.in_catalog]
        self.installable = [a for a in self.apps.values() if not a.in_catalog and a.package]
        self.mapper = AppMapper(table)
        self.elsewhere = [a for a in self.apps.values() if not a.in_catalog]
        self.default_labels = tuple(a.label for a in catalog)


# --------------------------------------------------------------------------- devices, labels


@dataclass
class Device:
    """An installed list: the default catalog (None) or a custom list of (label, package)."""

    apps: tuple[tuple[str, str], ...] | None
    label_of: dict[str, str]  # app key → the label this device shows
    answer_of: dict[str, str] = field(default_factory=dict)  # app key → the answer that names it

    def label(self, app: App) -> str | None:
        return self.label_of.get(app.key)

    def answer(self, app: App) -> str | None:
        """What the model answers for `app` on this device: the alias table's name for it
        (the default catalog's label, "WhatsApp") wherever the serving grammar admits that name
        for this device's app — the model cannot see the list, so one name per app, whatever
        the device shows — else the device's own label; None when the device lacks it."""
        return self.answer_of.get(app.key) or self.label(app)


def default_device(u: AppUniverse) -> Device:
    return Device(None, {ref.label: ref.label for ref in u.catalog})


def custom_device(u: AppUniverse, named: Sequence[App], r: random.Random) -> Device:
    """A device with its own list: the named apps mostly on it, others around them, each under
    the label such a device shows (an English device: KakaoTalk, Messages, Phone, …)."""
    english = r.random() < 0.4
    chosen: list[App] = []
    for a in named:
        keep = 0.93 if a.in_table else 0.75
        if a.package is not None and r.random() < keep:
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
    return device_of(u, tuple(rows), label_of)


def device_of(u: AppUniverse, rows: tuple[tuple[str, str], ...], label_of: dict[str, str]) -> Device:
    """A custom list (label, package) whose apps are the generator's `label_of` keys; each
    answered by the alias table's name for it where the serving grammar admits that name."""
    index = InstalledIndex.of(AppRef(lb, pkg) for lb, pkg in rows)
    names = u.mapper.answer_names(index)
    answer_of = {
        key: key for key, label in label_of.items()
        if key == label or names.get(key) == index.by_norm_label.get(normalise(label))
    }
    return Device(rows, label_of, answer_of)


def apps_answer(apps: Sequence[App], device: Device) -> str:
    items: list[str] = []
    for a in apps:
        label = device.answer(a)
        if label is None:
            items.append(OTHER_APP_WORD)
        elif label not in items:
            items.append(label)
    return ", ".join(items[:MAX_ITEMS]) if items else NONE_WORD


def kws_answer(kws: Sequence[str]) -> str:
    return ", ".join(list(dict.fromkeys(kws))[:MAX_ITEMS]) or NONE_WORD
