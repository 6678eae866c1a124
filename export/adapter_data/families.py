"""The template families: sentence frames that write a command and its truth.

`Draft` is a family's sentence with the apps, keywords and intent it put in (before a device's
labels are applied). The `fam_*` functions are the frames; `TRAIN_FAMILIES` (with their weights)
are trained on, `HELDOUT_FAMILIES` only measured, and `HELDOUT_MARKERS` tell their frames apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from notillm_local.export.adapter_data.devices import App
from notillm_local.export.adapter_data.phrases import _ALL_WORDS, _EXCEPT, Draw, time_phrase
from notillm_local.export.adapter_data.surface import _p, latin_case

# --------------------------------------------------------------------------- families


@dataclass
class Draft:
    """A family's sentence and its truth, before the device's labels are applied."""

    text: str
    mute: bool
    apps: list[App] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)


def _place(d: Draw, core: list[str], t: str) -> list[str]:
    """The time phrase at the front, before the verb or at the end."""
    if not t:
        return core
    k = d.r.random()
    if k < 0.45:
        return [t, *core]
    if k < 0.75 and len(core) > 1:
        return [*core[:-1], t, core[-1]]
    if k < 0.88 and len(core) > 1:
        return [core[0], t, *core[1:]]
    return [*core, t]


def _s(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def fam_mute_apps(d: Draw) -> Draft:
    """"카톡이랑 인스타 알림 2시간 꺼줘" → 끄기, the apps."""
    tags: set[str] = set()
    apps = d.apps(d.n_apps())
    a = d.app_phrase(apps, tags)
    if len(apps) == 1 and d.r.random() < 0.15:
        a = _p(a, "은", "는") if d.r.random() < 0.6 else a + "도"
    core = [d.front(), a, d.noti(apps), d.mute(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), True, apps, [], tags)


def fam_mute_only(d: Draw) -> Draft:
    """"카톡만 꺼줘" → 끄기 (만 with a mute verb: only these are muted)."""
    tags: set[str] = set()
    apps = d.apps(d.r.choice([1, 1, 2, 3]))
    a = d.app_phrase(apps, tags)
    core = [d.front(), a + d.r.choice(["만", " 알림만", "만 좀"]), d.mute(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), True, apps, [], tags)


def fam_allow_only(d: Draw) -> Draft:
    """"슬랙만 받을래" → 허용, the apps."""
    tags: set[str] = set()
    apps = d.apps(d.r.choices([1, 2, 3, 4], weights=[60, 25, 10, 5])[0])
    a = d.app_phrase(apps, tags)
    k = d.r.random()
    if k < 0.7:
        core = [d.front(), a + d.r.choice(["만", " 알림만", "만은", " 것만", "만"]), d.allow(tags)]
    elif k < 0.85:
        core = [a, d.r.choice(["only", "only on", "만 on", "만 허용"])]
        tags.add("english")
    else:
        core = ["오직", a + d.r.choice(["만", " 알림만"]), d.allow(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), False, apps, [], tags)


def fam_allow_except(d: Draw) -> Draft:
    """"카톡 빼고 다 꺼줘" → 허용, the excepted apps."""
    tags: set[str] = set()
    apps = d.apps(d.r.choices([1, 2, 3, 4], weights=[60, 25, 10, 5])[0])
    a = d.app_phrase(apps, tags)
    ex = d.r.choice(_EXCEPT)
    if ex == "놔두고":
        a = _p(a, "은", "는") if d.r.random() < 0.5 else a
    all_w = d.r.choice(_ALL_WORDS)
    if ex == "제외한":
        all_w = d.r.choice(["나머지", "나머지 알림", "모든 알림", "알림 전부", "나머지 전부"])
    if ex.startswith("만"):
        a, ex = a + "만", ex[1:].strip()
    k = d.r.random()
    if k < 0.7:
        core = [d.front(), a + (" 알림" if d.r.random() < 0.25 else ""), ex, all_w, d.mute(tags)]
    elif k < 0.85:
        core = [d.front(), all_w, d.mute(tags) + d.r.choice([",", ""]), a + d.r.choice(["만 빼고", " 빼고", " 말고"])]
    else:
        core = ["everything except", a, d.r.choice(["off", "mute", "꺼줘"])]
        tags.add("english")
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), False, apps, [], tags)


def fam_exclude_mute(d: Draw) -> Draft:
    """"카톡은 놔두고 인스타랑 유튜브만 꺼줘" → 끄기, only the second group (the first excluded)."""
    tags: set[str] = set()
    kept = d.apps(d.r.choice([1, 1, 2]))
    muted = d.apps(d.r.choice([1, 1, 2, 3]), avoid=kept)
    a = d.app_phrase(kept, tags)
    b = d.app_phrase(muted, tags)
    k = d.r.random()
    if k < 0.4:
        core = [d.front(), _p(a, "은", "는") + " 놔두고", b + "만", d.mute(tags)]
    elif k < 0.6:
        core = [d.front(), a, d.r.choice(["빼고", "말고", "제외하고"]), b + d.r.choice(["만", " 알림만"]), d.mute(tags)]
    elif k < 0.8:
        core = [d.front(), _p(a, "은", "는"), d.r.choice(["그대로 두고", "냅두고", "놔두고"]), b, d.noti(), d.mute(tags)]
    else:
        core = [d.front(), a, "말고", b, d.noti(), d.mute(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), True, muted, [], tags)


def fam_mute_all(d: Draw) -> Draft:
    """"모든 알림 꺼줘" → 끄기, no app, no keyword."""
    tags: set[str] = set()
    k = d.r.random()
    what = d.r.choice(["모든 알림", "알림 전부", "알림 다", "전체 알림", "알림 모두", "폰 알림", "알림 싹 다",
                       "모든 앱 알림", "핸드폰 알림 전부", "다", "전부", "알림", "all notifications",
                       "모든 푸시", "죄다"])
    if k < 0.7:
        core = [d.front(), what, d.mute(tags)]
    else:
        core = [d.front(), d.r.choice(["방해 금지", "방해금지 모드", "무음 모드", "다 무음으로", "폰 조용히 해줘",
                                       "조용히 해줘", "silent", "전부 mute", "싹 다 꺼줘", "do not disturb"])]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), True, [], [], tags)


def fam_kw_mute(d: Draw) -> Draft:
    """"'광고' 들어간 알림 꺼줘" → 끄기, the keywords."""
    tags: set[str] = set()
    kws, p = d.keywords()
    core = [d.front(), p, d.r.choice(["알림", "알림은", "거", "메시지", "알림들", "푸시"]), d.mute(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), True, [], kws, tags)


def fam_kw_allow(d: Draw) -> Draft:
    """"'택배' 들어간 알림만 받을래" → 허용, the keywords."""
    tags: set[str] = set()
    kws, p = d.keywords()
    core = [d.front(), p, d.r.choice(["알림만", "것만", "거만", "메시지만"]), d.allow(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), False, [], kws, tags)


def fam_app_kw(d: Draw) -> Draft:
    """"카톡에서 '회식' 들어간 알림 꺼줘" → the app and the keywords, mute or allow."""
    tags: set[str] = set()
    apps = d.apps(d.r.choice([1, 1, 1, 2]))
    a = d.app_phrase(apps, tags)
    kws, p = d.keywords()
    mute = d.r.random() < 0.65
    where = d.r.choice(["에서", "에서 오는", " 중에", " 알림 중에", "", "에서 온"])
    if mute:
        core = [d.front(), a + where, p, d.r.choice(["알림", "거", "것", "알림은", "메시지"]), d.mute(tags)]
    else:
        core = [d.front(), a + where, p, d.r.choice(["알림만", "것만", "거만"]), d.allow(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), mute, apps, kws, tags)


def fam_topic(d: Draw) -> Draft:
    """"쿠폰 알림 막아줘" → a bare topic noun is the keyword (with an app, sometimes)."""
    tags: set[str] = set()
    w = d.r.choice(d.topics)
    apps: list[App] = d.apps(1) if d.r.random() < 0.35 else []
    a = d.app_phrase(apps, tags) if apps else ""
    mute = d.r.random() < 0.8
    if mute:
        core = [d.front(), a, w, d.r.choice(["알림", "알림은", "푸시", "관련 알림", "알림 전부"]), d.mute(tags)]
    else:
        core = [d.front(), a, w, d.r.choice(["알림만", "관련 알림만"]), d.allow(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), mute, apps, [w], tags)


def fam_reason(d: Draw) -> Draft:
    """A reason or context clause before a command: its nouns are never keywords."""
    inner = d.r.choice([fam_mute_apps, fam_mute_apps, fam_mute_all, fam_allow_only, fam_allow_except,
                        fam_kw_mute])(d)
    reason = d.reason()
    text = _s(reason, inner.text) if d.r.random() < 0.85 else _s(inner.text, reason)
    inner.tags.add("reason")
    return Draft(text, inner.mute, inner.apps, inner.keywords, inner.tags)


def fam_english(d: Draw) -> Draft:
    """English-heavy commands ("mute slack for 2h", "kakaotalk 1hour off 해줘")."""
    tags: set[str] = {"english"}
    apps = d.apps(d.r.choice([1, 1, 2, 3]))
    words = [latin_case(d.r.choice([w for w in a.words if re.search(r"[A-Za-z]", w)] or list(a.words)), d.r)
             for a in apps]
    a = d.join(words) if d.r.random() < 0.5 else " ".join(words)
    t = d._time_en() if d.r.random() < 0.7 else time_phrase(d.r)
    k = d.r.random()
    if k < 0.25:
        return Draft(_s("mute", a, t), True, apps, [], tags)
    if k < 0.45:
        return Draft(_s(a, t, d.r.choice(["off", "off 해줘", "mute", "block", "mute 해줘", "알림 off", "silent"])), True, apps, [], tags)
    if k < 0.6:
        return Draft(_s(d.r.choice(["turn off", "block", "silence"]), a, "notifications", t), True, apps, [], tags)
    if k < 0.8:
        return Draft(_s(a, d.r.choice(["only", "only on", "만 on", "만 on 해줘", "만 allow"]), t), False, apps, [], tags)
    return Draft(_s("only", a, t, d.r.choice(["", "pls", "해줘"])), False, apps, [], tags)


# Held out: generated only into the held-out set, never trained on.
def fam_kept_rest(d: Draw) -> Draft:
    """"카톡은 받고 나머지는 꺼줘" → 허용 (keep these, mute the rest)."""
    tags: set[str] = set()
    apps = d.apps(d.r.choice([1, 1, 2]))
    a = d.app_phrase(apps, tags)
    keep = d.r.choice(["받고", "살리고", "남기고"])
    rest = d.r.choice(["나머지는", "나머지", "다른 건", "다른 알림은"])
    core = [d.front(), _p(a, "은", "는") if d.r.random() < 0.6 else a + "만", keep, rest, d.mute(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), False, apps, [], tags)


def fam_kw_except(d: Draw) -> Draft:
    """"(카톡에서) '시험' 들어간 거 빼고 다 꺼줘" → 허용, the keyword (and the app)."""
    tags: set[str] = set()
    kws, p = d.keywords()
    if "들어간" not in p:
        p = re.sub(r"\s*(포함된|포함한|있는|적힌|들어있는|쓰인|관련)$", "", p) + " 들어간"
    apps: list[App] = d.apps(1) if d.r.random() < 0.4 else []
    a = (d.app_phrase(apps, tags) + d.r.choice(["에서", " 중에"])) if apps else ""
    core = [d.front(), a, p, d.r.choice(["거", "것", "건"]), d.r.choice(["빼고", "말고", "제외하고"]),
            d.r.choice(["다", "전부", "나머지"]), d.mute(tags)]
    return Draft(_s(*_place(d, core, d.time(tags)), d.tail()), False, apps, kws, tags)


def fam_question(d: Draw) -> Draft:
    """Requests asked as questions or wishes ("유튜브 알림 좀 꺼줄 수 있어?") → as the command."""
    tags: set[str] = set()
    apps = d.apps(d.r.choice([1, 1, 2, 3]))
    a = d.app_phrase(apps, tags)
    mute = d.r.random() < 0.7
    if mute:
        ask = d.r.choice(["꺼줄 수 있어?", "좀 꺼줄 수 있을까?", "꺼주면 좋겠어", "막아주는 거 가능해?",
                          "안 오게 해줄 수 있어?", "꺼주실 수 있나요?", "꺼주면 안 될까?", "꺼줄 수 있니"])
        core = [d.front(), a, d.noti(apps), ask]
    else:
        ask = d.r.choice(["받을 수 있을까?", "받게 해줄 수 있어?", "울리게 해주면 좋겠어", "받는 거 가능해?",
                          "받게 해주실 수 있나요?"])
        core = [d.front(), a + d.r.choice(["만", " 알림만"]), ask]
    return Draft(_s(*_place(d, core, d.time(tags))), mute, apps, [], tags)


TRAIN_FAMILIES: dict[str, tuple[Callable[[Draw], Draft], float]] = {
    "mute_apps": (fam_mute_apps, 22),
    "mute_only": (fam_mute_only, 5),
    "allow_only": (fam_allow_only, 12),
    "allow_except": (fam_allow_except, 12),
    "exclude_mute": (fam_exclude_mute, 7),
    "mute_all": (fam_mute_all, 8),
    "kw_mute": (fam_kw_mute, 5),
    "kw_allow": (fam_kw_allow, 3),
    "app_kw": (fam_app_kw, 6),
    "topic": (fam_topic, 4),
    "reason": (fam_reason, 10),
    "english": (fam_english, 6),
}
HELDOUT_FAMILIES: dict[str, Callable[[Draw], Draft]] = {
    "kept_rest": fam_kept_rest,
    "kw_except": fam_kw_except,
    "question": fam_question,
}
# What marks each held-out family's frame, on the squashed sentence: no training sentence may
# match (tests/test_adapter.py), so the held-out figure measures phrasings never seen.
HELDOUT_MARKERS: dict[str, re.Pattern[str]] = {
    "kept_rest": re.compile(r"(받고|살리고|남기고)(나머지|다른|다)"),
    "kw_except": re.compile(r"(들어간)(거|것|건)(빼고|말고|제외하고)"),
    "question": re.compile(r"수있|가능해|좋겠어|안될까"),
}
