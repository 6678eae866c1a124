"""One rule cannot both silence and let through the same thing: the reader's checks for a
command that does ("카톡 꺼주고 카톡만 받게", "유튜브 켜놓고 동시에 꺼줘"), answered as a conflict."""

from __future__ import annotations

import re

from notillm_local import lexicon
from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.clauses import allow_cue_in, mute_cue
from notillm_local.stages.positions import only_notification_nouns
from notillm_local.stages.words import Word


def named_twice(text: str, apps: list[AppRef], cue_spans: list[tuple[int, int]]) -> bool:
    """Whether the command names one app, or every notification, in two places."""
    if len(apps) != len(set(apps)):
        return True
    # "나머지는 다" is one phrase; "전부 켜놓고 전부 꺼줘" names everything twice.
    # "나머지 앱 알림 다" too: only notification nouns stand between the two.
    found = list(lexicon.pattern("markers", "all").finditer(text))
    if any(
        b.start() - a.start() > 6 and not only_notification_nouns(text[a.end() : b.start()])
        for a, b in zip(found, found[1:], strict=False)
    ):
        return True
    starts = [m.start() for m in found]
    # "모든 알림 다 끄고 모든 알림 다 켜줘": everything on both sides of the first verb.
    if not cue_spans:
        return False
    first_start, first_end = min(cue_spans)
    return any(s < first_start for s in starts) and any(s >= first_end for s in starts)


def one_app_both_ways(
    text: str, apps: list[AppRef], cue_spans: list[tuple[int, int]], *, anything_else: bool
) -> bool:
    """"유튜브 켜놓고 동시에 꺼줘": one verb, then "-고" and the opposite verb, about one app with
    nothing else named and "all" not said. Whichever verb a rule took, it would drop the other.
    ("유튜브 좀 그만 울리게 해" is one verb phrase: no "-고" joins two.)"""
    if len(set(apps)) != 1 or anything_else or not cue_spans:
        return False
    # "둘 다" about one app is both verbs ("on이랑 off 둘 다"), not every notification.
    said = lexicon.pattern("markers", "both_states.both").sub(" ", text)
    if lexicon.pattern("markers", "all").search(said) or lexicon.pattern("markers", "rest").search(
        said
    ):
        return False
    first = min(cue_spans)[0]
    # "-고" joins two verbs, "이랑/하고" two named states ("on이랑 off"); "-면서" only when the
    # other verb comes next ("허용하면서 차단도"): "차단하면서 넷플만 허용" names what gets through.
    at_once = re.match(r"\S*면서\s+(\S+)", text[first:])
    return bool(lexicon.pattern("markers", "both_states.at_once").search(text)) or bool(
        re.match(r"\S*(?:고|\s*(?:이랑|랑|하고))(?:\s|$)", text[first:])
    ) or bool(at_once and any(
        lexicon.pattern("intent", side).search(at_once.group(1)) for side in ("mute", "allow")
    ))


def contrasts_with(clause: str, mute: bool | None) -> bool:
    """Whether a clause of contrast before the command ("슬랙 무음인데", "인스타 꺼주는데") says only
    the verb opposite to the command's. The caller checks that it names an app the command
    names; a clause that says why ("카톡 안 와서 그런데 …") is no contrast."""
    if mute is None or not lexicon.pattern("context", "contrast_end.endings", anchored="$").search(
        clause.rstrip()
    ):
        return False
    said = (bool(mute_cue().search(clause)), allow_cue_in(clause))
    return said[mute] and not said[not mute]


def verbs_split_apps(
    ws: list[Word], apps: list[tuple[int, AppMatch]], cue_spans: list[tuple[int, int]], text: str
) -> tuple[bool, set[int]] | None:
    """"인스타는 끄고 유튜브는 켜 둬", "인스타 꺼놓고 유튜브만 켜": two verbs of opposite sense, each
    after apps of its own (Korean puts the verb last). One rule says it when the apps left on
    need nothing: the mute verb's apps are muted — unless the allow verb's apps take 만 ("only"),
    and then only they get through, the others with everything else. Returns (mute, the word
    indices of the rule's apps), or None when the verbs do not split the apps so."""
    groups: dict[tuple[int, int], list[tuple[int, AppMatch]]] = {}
    for i, m in apps:
        cue = min((c for c in cue_spans if c[0] >= ws[i].end), default=None)
        if cue is None:
            return None  # an app after the last verb: not two clauses of app then verb
        groups.setdefault(cue, []).append((i, m))
    if len(groups) != 2:
        return None
    (first, one), (second, other) = sorted(groups.items())
    senses = [bool(mute_cue().search(text[a:b])) for a, b in (first, second)]
    if senses[0] == senses[1] or {m.app for _, m in one} & {m.app for _, m in other}:
        return None  # one verb's sense, or one app both ways (a conflict, checked elsewhere)
    muted, let_through = (one, other) if senses[0] else (other, one)
    only = any(ws[i].text.endswith("만") for i, _ in let_through)
    return (False, {i for i, _ in let_through}) if only else (True, {i for i, _ in muted})
