"""Which apps a command keeps out of its rule: the apps just before an exception or keep word
("X랑 Y 빼고", "X는 놔두고"), after an English one ("all off except X"), or before a verb that
leaves them on when other apps follow ("X는 켜 두고 Y만 꺼": X is kept, Y muted)."""

from __future__ import annotations

from dataclasses import replace

from notillm_local import lexicon
from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import Unresolved
from notillm_local.stages.clauses import mute_cue
from notillm_local.stages.positions import (
    CONJUNCTIONS,
    except_before,
    except_before_all,
    is_notification_noun,
)
from notillm_local.stages.reading import SlotReading
from notillm_local.stages.words import Word, peel, suffix_set


def kept_by_verb(ws: list[Word], i: int, app_at: set[int]) -> bool:
    """Whether word `i` (with the next, "켜 두고") leaves the apps before it on while the command
    goes on to other apps: "X는 켜 두고 Y만 꺼" keeps X out. With no app after it ("멜론 켜놓고
    동시에 꺼줘") it is a verb of the rule, and the two verbs about one app are a conflict."""
    if i in app_at or not any(k < i for k in app_at) or not any(k > i for k in app_at):
        return False
    phrase = lexicon.pattern("markers", "kept_by_verb.phrase")
    nxt = ws[i + 1].text if i + 1 < len(ws) else ""
    return bool(phrase.fullmatch(ws[i].text) or (nxt and phrase.fullmatch(f"{ws[i].text} {nxt}")))


def kept_out_at(ws: list[Word], found: list[tuple[int, AppMatch | Unresolved]]) -> set[int]:
    """Indices of app words kept out: the apps just before 빼고/말고/놔두고 ("X랑 Y 빼고")."""
    marker = lexicon.pattern("markers", "except")
    keep = lexicon.pattern("markers", "keep")
    app_at = {i for i, _ in found}
    tail = lexicon.pattern("markers", "except_before_tail")
    between = lexicon.pattern("markers", "kept_between", anchored="^")
    out: set[int] = set()
    last = max((k for k, w in enumerate(ws) if w.text.strip(_END_MARKS)), default=-1)
    for i, w in enumerate(ws):
        if i not in app_at and except_before(ws, i):
            # "all off except 카톡, 슬랙": English names the kept apps after the marker.
            k = i + 1
            if k < len(ws) and tail.fullmatch(ws[k].text.lower()):
                k += 1  # except for, other than
            while k < len(ws) and (k in app_at or not ws[k].text or (
                ws[k].text.lower() in (*CONJUNCTIONS, "and", "or") and k + 1 in app_at
            )):
                if ws[k].text and k in app_at:
                    out.add(k)
                k += 1
            continue
        forms = peel(w.text)
        glued = i in app_at and any(
            marker.fullmatch(w.text[len(f) :]) or keep.fullmatch(w.text[len(f) :])
            for f in forms[1:]
        )
        nxt = ws[i + 1].text if i + 1 < len(ws) else ""
        own = i not in app_at and bool(
            marker.match(w.text) or keep.match(w.text) or except_before_all(w.text, nxt)
            or (i == last and _kept_as_it_is_at_the_end(ws, i))
            # a keep marker of two words ("그대로 두고")
            or (nxt and keep.fullmatch(w.text + nxt))
        ) or kept_by_verb(ws, i, app_at)
        if not (glued or own) or (own and i > 0 and mute_cue().fullmatch(ws[i - 1].text)):
            continue  # "꺼 두고 싶어": 두고 helps the verb (leave it off), it keeps nothing
        k = i if glued else i - 1
        if k >= 0 and lexicon.pattern("markers", "kept_by_verb.verb").fullmatch(ws[k].text):
            k -= 1  # "카톡은 켜 두고": the verb's first word stands between
        # "신한이랑 국민은행 알림 빼고": notification nouns may stand between app and marker.
        while k >= 0 and not glued and ws[k].text and k not in app_at and (
            is_notification_noun(ws[k].text) or ws[k].text in suffix_set()
            # "쿠팡앱 하나만 열어두고": a count of the kept apps stands between too.
            or bool(between.fullmatch(ws[k].text))
        ):
            k -= 1
        # "Grab이랑 Uber 빼고": a particle split off a Latin name joins the list too.
        while k >= 0 and (k in app_at or not ws[k].text or (
            ws[k].text in CONJUNCTIONS and _filled_before(ws, k) in app_at
        )):
            if ws[k].text and k in app_at:
                out.add(k)
            k -= 1
    return out


_END_MARKS = " .!~"


def _kept_as_it_is_at_the_end(ws: list[Word], i: int) -> bool:
    """"…꺼둬 X는 그대로": the message's last word (`i`) leaves the app named just before it alone."""
    before = _filled_before(ws, i)
    return (
        before >= 0
        and ws[before].text.endswith(("은", "는"))
        and bool(lexicon.pattern("markers", "keep_last", anchored="^").fullmatch(
            ws[i].text.strip(_END_MARKS)))
    )


def _filled_before(ws: list[Word], k: int) -> int:
    """The index of the last word before `k` that has text: a label of two words ("Mountain
    Project") leaves a blank word where its second word was."""
    k -= 1
    while k >= 0 and not ws[k].text:
        k -= 1
    return k


def settle_exclusions(
    out: SlotReading, r: SlotReading, said_kept: list[AppRef] | None = None
) -> SlotReading:
    """"X 빼고 다 꺼줘" once every word is placed: code leaves the turn of the verb until no
    word it could not read is left ("지메일 빼고 다 꺼주세엽"). If, with the model's answer in,
    nothing but the kept apps is named, only they get through (the verb turns round); the rule
    never silences the apps the user asked to keep."""
    if not r.kept or out.has_target:
        return out
    kept_apps = tuple(k for k in r.kept if isinstance(k, AppMatch))
    kept_unresolved = tuple(k for k in r.kept if isinstance(k, Unresolved))
    if r.mute is not None:
        mute: bool | None = not r.mute
    elif said_kept:
        # No verb code could read: the model, which named the kept apps, read the turn whole
        # (it is trained on "X 빼고" → 허용 X).
        mute = out.mute
    else:
        return out
    return replace(
        out, mute=mute, apps=kept_apps, unresolved=out.unresolved + kept_unresolved,
        excluded=(), kept=(), kept_out=(), all_but=True,
    )
