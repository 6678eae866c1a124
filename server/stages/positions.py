"""Where a word stands in a command: in a list of apps, before 알림, with a target's particle,
or apart from every target. The slot reader asks these of words it could not place (slots.py),
so that a word standing where an app would is asked about and one with an ending of its own
may be left to the model (docs/decisions.md, "Words that stand where no target does").
"""

from __future__ import annotations

import re

from notillm_local import lexicon
from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import AppMapper, InstalledIndex
from notillm_local.stages.clauses import allow_cue_in, mute_cue
from notillm_local.stages.words import TIME_GAP, Word, is_filler, peel, suffix_set, words

CONJUNCTIONS = ("이랑", "랑", "하고", "과", "와", "이나", "및", "또는")
# Endings of a verb said as a sentence of its own in chat ("시작함", "도착함", "끝남", "졸림").
PREDICATE_END = re.compile(r"(?<=[가-힣])(?:함|음|임|됨|남|림|셈|자)$")
# Particles a target takes ("뿌잉만 받을래", "뿌잉은 꺼줘", "뿌잉에서 오는").
TARGET_PARTICLES = frozenset({
    *CONJUNCTIONS, "만", "도", "은", "는", "이", "가", "을", "를", "에서", "의", "나", "만은",
    "까지", "부터", "조차", "마저", "들", "들은", "들도", "들만",
})


def coordinated(ws: list[Word], idx: int) -> bool:
    """Whether the word is joined to the one before by "랑/하고/과" ("Chrome랑 뿌까톡"): then it
    is another item of a list of apps, not a noun narrowing the app before it."""
    prev = next((w.text for w in reversed(ws[:idx]) if w.text), "")
    return prev.endswith(CONJUNCTIONS) or prev in CONJUNCTIONS


def after_app(ws: list[Word], idx: int, app_at: set[int]) -> bool:
    """Whether the word follows an app name bare ("인스타 뿌까톡 알림"): then it may be one more
    app as well as a topic. After "카톡에서 …" or "카톡의 …" it is a topic within that app.
    `app_at`: the indices in `ws` of the words read as apps."""
    prev = next((k for k in range(idx - 1, -1, -1) if ws[k].text), None)
    if prev is None:
        return False
    # An n-gram app ("Galaxy Store") leaves empty words after its first one.
    head = next((k for k in range(prev, -1, -1) if k in app_at), None)
    if head is None or any(ws[k].text for k in range(head + 1, prev + 1)) and prev not in app_at:
        return False
    return not ws[prev].text.endswith(("에서", "의", "에서온", "에서오는", "에서의"))


def only_notification_nouns(text: str) -> bool:
    """Whether `text` holds nothing but words like 앱, 알림, 어플 (with their particles), or only
    a time the parser read ("나머지는 2시간 다": the time stands between two words for the rest)."""
    parts = [w.text for w in words(text) if w.text]
    apps = lexicon.words("markers", "app_nouns.words")
    return (bool(parts) or TIME_GAP in text) and all(
        is_notification_noun(p) or is_filler(p) or p in suffix_set() or any(f in apps for f in peel(p))
        for p in parts
    )


def is_notification_noun(raw: str) -> bool:
    return any(
        lexicon.pattern("markers", "notification_nouns", anchored="^").fullmatch(f)
        for f in peel(raw)
    )


def before_notification_word(ws: list[Word], idx: int) -> bool:
    nxt = next((w.text for w in ws[idx + 1 :] if w.text), "")
    return bool(lexicon.pattern("markers", "notification_nouns", anchored="^").search(nxt))


def kept_before_marker(ws: list[Word], idx: int) -> bool:
    """Whether the word stands before its notification word and a keep or except marker ("쿠쿠
    알림은 놔두고", "BGG 알림 빼고"): the thing the user keeps out, never a keyword of the rule."""
    rest = [w.text for w in ws[idx + 1 :] if w.text]
    if len(rest) < 2 or not before_notification_word(ws, idx):
        return False
    markers = (lexicon.pattern("markers", "except"), lexicon.pattern("markers", "keep"))
    pair = "".join(rest[1:3])
    return any(rx.match(rest[1]) or rx.fullmatch(pair) for rx in markers)


def misspelt_app_before_notification(
    mapper: AppMapper, ws: list[Word], i: int, installed: InstalledIndex
) -> bool:
    """"에브리티임 알림": a word just before 알림 that the table reads as an app by its spelling
    names that app; its last syllable only looks like an ending (-임, "it is")."""
    if not before_notification_word(ws, i):
        return False
    return isinstance(mapper.resolve(ws[i].text, installed, embeddings=False), AppMatch)


def stands_as_target(
    ws: list[Word], i: int, word: str, app_at: set[int], *, next_is_app: bool
) -> bool:
    """Whether an unread word stands where an app or topic would: before 알림, in a list
    ("X랑 뿌잉", "뿌잉이랑"), with a target's particle ("뿌잉만", "뿌잉은"), or bare beside an
    app or just before the verb ("카톡 뿌잉 꺼줘"). A word with an ending of its own
    ("반대로", "이스탄불이야") or standing apart ("당근 알림 왜케 많이 와") does not."""
    suffix = ws[i].text[len(word) :]
    raw = ws[i].text
    if lexicon.pattern("context", "remark_end.endings", anchored="$").search(raw):
        return False  # a sentence of its own ("이스탄불이야", "휴가임")
    if raw.rstrip("~!?.…") != raw or len(word) >= 2 and PREDICATE_END.search(word):
        return False  # it ends a sentence ("쉬자~~") or is a verb's ("방금 시작함")
    if before_notification_word(ws, i) or coordinated(ws, i):
        return True
    if suffix:
        # "…틱톸알림": a notification noun glued on is a target's place too.
        return suffix in TARGET_PARTICLES or is_notification_noun(suffix)
    nxt = next((w.text for w in ws[i + 1 :] if w.text), "")
    return (
        after_app(ws, i, app_at) or next_is_app
        or bool(nxt) and bool(mute_cue().search(nxt) or allow_cue_in(nxt))
    )


def named_by_another(
    mapper: AppMapper, ws: list[Word], idx: int, app: AppRef, installed: InstalledIndex
) -> bool:
    """Whether a word of the turn other than `ws[idx]` names `app` by the table: then a guess
    (an embedding match) that `ws[idx]` is `app` too is another app, not the same one twice."""
    for j, other in enumerate(ws):
        if j == idx:
            continue
        for form in peel(other.text):
            found = mapper.lookup(form, installed)
            if isinstance(found, AppMatch) and found.app == app:
                return True
    return False


def except_before(ws: list[Word], i: int) -> bool:
    """An English exception word, which stands before the kept apps ("all off except 카톡",
    "mute all but 카톡": "but" only after "all", which English has read as 모든)."""
    text = ws[i].text.lower()
    if lexicon.pattern("markers", "except_before").fullmatch(text):
        return True
    prev = next((w.text for w in reversed(ws[:i]) if w.text), "")
    return bool(
        lexicon.pattern("markers", "except_after_all").fullmatch(text)
        and lexicon.pattern("markers", "all").fullmatch(prev)
    )


def except_before_all(word: str, nxt: str) -> bool:
    """"카톡 아니면 다 꺼": 아니면 ("if not") keeps the app before it out of a rule for every
    notification; before anything else ("카톡 아니면 인스타") it is a choice of two."""
    return bool(
        lexicon.pattern("markers", "except_before_all").fullmatch(word)
        and lexicon.pattern("markers", "all_opening", anchored="^").search(nxt)
    )
