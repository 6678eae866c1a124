"""Runs of app names typed glued together ("유튭멜론스포티파리알림", "회의라카톡팀즈"): splitting them
where every letter is a name, and telling what is left once the names a reading took are out.
A run the respacer could not split reaches the reader whole; these keep any part of it from
being dropped unread."""

from __future__ import annotations

from notillm_local import lexicon
from notillm_local.domain import AppMatch, AppRef
from notillm_local.lexicon import normalise
from notillm_local.stages.apps import AppMapper, InstalledIndex, Unresolved
from notillm_local.stages.positions import CONJUNCTIONS
from notillm_local.stages.sound import is_hangul, says_nearly
from notillm_local.stages.words import suffix_set


def split_glued(mapper: AppMapper, word: str, installed: InstalledIndex) -> list[AppMatch | Unresolved]:
    """A run of glued names, one or more misspelt ("유튭멜론스포티파리알림", "페붘스레드"): the
    table's names inside it, and each stretch between them a misspelling of a name (two letters
    or more, one jamo off), then 알림 at most. Empty unless every letter is accounted for —
    "온라인" holds 라인, but 온 is no app — and at least one stretch is misspelt (runs of exact
    names are split before reading)."""
    key = normalise(word)
    nouns = lexicon.pattern("markers", "notification_nouns", anchored="^")
    if any(mapper.misspelling_of(key[:cut], installed) is not None for cut in range(len(key), 1, -1)
           if not key[cut:] or nouns.fullmatch(key[cut:])):
        return []  # "네이버웹퉁": one name misspelt (네이버 웹툰), not 네이버 and a misspelt 웹툰
    out: list[AppMatch | Unresolved] = []
    at, last, misspelt = 0, 0, False
    for start, end, found in sorted(mapper.names_inside(key, installed), key=lambda h: h[0]):
        if start > at:
            gap = mapper.misspelling_of(key[at:start], installed)
            # "넷플릭쓰": the name found ("넷플") opens the misspelt one, the gap is its rest.
            whole = mapper.misspelling_of(key[last:start], installed) if gap is None and out else None
            if gap is not None:
                out.append(gap)
            elif whole is not None:
                out[-1] = whole
            else:
                return []
            misspelt = True
        out.append(found)
        at, last = end, start
    tail = key[at:]
    if tail and not nouns.fullmatch(tail):
        # The last name may be the misspelt one, 알림 glued after it ("…스포티파리알림").
        gap = next((g for cut in range(len(tail), 1, -1)
                    if not tail[cut:] or nouns.fullmatch(tail[cut:])
                    if (g := mapper.misspelling_of(tail[:cut], installed)) is not None), None)
        if gap is None:
            return []
        out.append(gap)
        misspelt = True
    return out if misspelt and len(out) > 1 else []


def split_heard(mapper: AppMapper, word: str, installed: InstalledIndex) -> list[AppMatch]:
    """A Hangul run of the device's Latin-labelled apps said in Korean ("체스닷컴리체스알림" for
    Chess.com and Lichess, "칸아카데미랑에덱스" for Khan Academy and edX): names of two
    syllables or more, each one app by sound or by the table, "랑"/"하고" between them at most,
    알림 after the last. Empty unless every letter is accounted for, by two apps or more."""
    key = normalise(word)
    if not is_hangul(key) or len(key) < 4:
        return []
    nouns = lexicon.pattern("markers", "notification_nouns", anchored="$")
    key = nouns.sub("", key)
    joiners = sorted(CONJUNCTIONS, key=len, reverse=True)
    best: dict[int, list[AppMatch]] = {0: []}  # letters read so far -> the apps read in them
    for at in range(len(key)):
        if at not in best:
            continue
        for end in range(at + 2, len(key) + 1):
            piece = key[at:end]
            found = mapper.lookup(piece, installed) or mapper.heard(piece, installed)
            if not isinstance(found, AppMatch):
                continue
            apps = [*best[at], found]
            nxt = next((end + len(j) for j in joiners if key.startswith(j, end)), end)
            for stop in {end, nxt}:
                if stop not in best or len(apps) < len(best[stop]):
                    best[stop] = apps
    out = best.get(len(key), [])
    return out if len(out) >= 2 and len({m.app for m in out}) == len(out) else []


def left_over(
    mapper: AppMapper, word: str, apps: list[AppRef], installed: InstalledIndex
) -> list[str]:
    """What is left of a glued run once the names of `apps` inside it are taken out ("라쿠텐" of
    "유튭멜론라쿠텐알림"), 알림 and particles aside. Nothing when no name of `apps` stands
    inside it: a word that misspells a name is that app's whole."""
    key, found = normalise(word), False
    for app in apps:
        name = next((n for n in sorted(mapper.names_of(app, installed), key=len, reverse=True)
                     if len(n) >= 2 and n in key), None)
        if name is not None:
            key, found = key.replace(name, " ", 1), True
    if not found:
        return []
    nouns = lexicon.pattern("markers", "notification_nouns", anchored="$")
    pieces = (nouns.sub("", p) for p in key.split())
    return [p for p in pieces if len(p) >= 2 and p not in suffix_set()]


def glued_names_taken(
    word: str, inside: list[AppMatch | Unresolved], taken: list[AppRef]
) -> bool:
    """A glued run code could not split whose app names the model took, with a syllable at most
    left over ("회의라카톡팀즈": 카톡 and 팀즈 taken, "라" the end of the clause before them)."""
    found = [m for m in inside if isinstance(m, AppMatch)]
    if not found or len(found) != len(inside) or any(m.app not in taken for m in found):
        return False
    rest = normalise(word)
    for m in found:
        rest = rest.replace(normalise(m.word), "", 1)
    return len(rest) <= 1


def rest_of_label(
    before: tuple[str, AppMatch | Unresolved], word: str, installed: InstalledIndex
) -> AppMatch | None:
    """"DJI 플라이", "UAV포캐스트", "구글 문서": the word before (`before`: its text and how it was
    read) is the first word of a device label, typed or as the table knows it (구글: Google), and
    this one says the rest of it: one app named in two words."""
    text, read = before
    known = read.app.label if isinstance(read, AppMatch) else read.known_as
    firsts = {normalise(text), *([normalise(known)] if known else [])}
    found = {
        a for a in installed.apps
        if len(parts := a.label.split()) >= 2 and normalise(parts[0]) in firsts and (
            normalise(" ".join(parts[1:])) == normalise(word) or says_nearly(word, " ".join(parts[1:]))
        )
    }
    if len(found) != 1:
        return None
    return AppMatch(word=f"{text} {word}", app=found.pop(), score=1.0, method="part")
