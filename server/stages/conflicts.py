"""One rule cannot both silence and let through the same thing: the reader's checks for a
command that does ("카톡 꺼주고 카톡만 받게", "유튜브 켜놓고 동시에 꺼줘"), answered as a conflict."""

from __future__ import annotations

import re

from notillm_local import lexicon
from notillm_local.domain import AppRef
from notillm_local.stages.clauses import allow_cue_in, mute_cue
from notillm_local.stages.positions import only_notification_nouns


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
