"""App mapper: the user's word for an app → an installed app's own label and package.

Order (cheapest and surest first): exact label, alias table, normalised spelling, then the
embedding matcher when one is given. Only installed apps are ever answered; a word that names
a known app which is not installed is reported as unresolved rather than guessed.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from notillm_local import lexicon, resources
from notillm_local.domain import AppMatch, AppRef, AppWordMatcher
from notillm_local.lexicon import normalise
from notillm_local.stages.alias_table import AliasTable
from notillm_local.stages.sound import (
    MIN_SOUNDS,
    hangul_skeleton,
    latin_skeleton,
    letters_spelt,
    says_label_by_parts,
    says_short_label,
    sound_distance,
)
from notillm_local.stages.typos import (
    _jamo,
    _near_in_jamo,
    jamo_distance,
    syllables_abbreviate,
)

logger = logging.getLogger(__name__)

# A word that says an app the table knows, in as many consonant sounds as this, names it even
# where the table spells it another way.
_SURE_SOUNDS = 5

# Made-up words score about 0.85 against every label, within ~0.005 of each other; a real
# transliteration ("시그널" → Signal) leads its runner-up by more.
_PLAUSIBLE_MARGIN = 0.01
# The Latin or symbol tail of a Korean device label ("영웅문S#"): an edition mark, not the name.
_EDITION_TAIL = re.compile(r"(?<=[가-힣])[^가-힣]+$")


@dataclass(frozen=True)
class InstalledIndex:
    """One request's installed apps, indexed for lookup."""

    apps: tuple[AppRef, ...]

    @cached_property
    def by_norm_label(self) -> dict[str, AppRef]:
        return {normalise(a.label): a for a in self.apps}

    @cached_property
    def by_package(self) -> dict[str, AppRef]:
        return {a.package: a for a in self.apps}

    @cached_property
    def labels(self) -> tuple[str, ...]:
        return tuple(a.label for a in self.apps)

    @cached_property
    def max_label_words(self) -> int:
        return max((len(a.label.split()) for a in self.apps), default=1)

    @cached_property
    def by_label_part(self) -> dict[str, AppRef]:
        """The trailing words of a label of two words or more, as people name an app without
        its brand ("채널관리자" for 카카오톡 채널 관리자, "클래스룸" for Google 클래스룸), and the
        leading words of a Latin one ("Merlin" for Merlin Bird ID): only
        parts of three syllables (four letters) or more that one label alone has, and
        none that is an ordinary word ("인터넷" of 삼성 인터넷)."""
        found: dict[str, AppRef | None] = {}
        stop = lexicon.words("markers", "label_part_stop")
        for a in self.apps:
            ws = a.label.split()
            # A Latin label is named by its first words too, as typed ("Merlin" for Merlin Bird
            # ID), as `_sound_grade` hears them said in Hangul ("가민" for Garmin Connect).
            latin = bool(re.fullmatch(r"[A-Za-z0-9 .&'+-]+", a.label))
            parts = [" ".join(ws[k:]) for k in range(1, len(ws))]
            parts += [" ".join(ws[:k]) for k in range(1, len(ws))] if latin else []
            for whole in parts:
                part = normalise(whole)
                if part in stop or part in self.by_norm_label or (
                    len(part) < 3 if re.search(r"[가-힣]", part) else len(part) < 4
                ):
                    continue
                found[part] = a if found.get(part, a) == a else None
        return {k: v for k, v in found.items() if v is not None}

    @classmethod
    def of(cls, apps: Iterable[AppRef]) -> InstalledIndex:
        seen: dict[str, AppRef] = {}
        for a in apps:
            seen.setdefault(a.package, a)
        return cls(tuple(seen.values()))


@dataclass(frozen=True)
class Unresolved:
    """A word that names an app, but no installed one."""

    word: str
    known_as: str | None  # the app's name when the alias table knows it


class AppMapper:
    def __init__(self, table: AliasTable, embedder: AppWordMatcher | None = None) -> None:
        self._table = table
        self._embedder = embedder
        self._answer_names: dict[tuple[AppRef, ...], dict[str, AppRef]] = {}

    @property
    def max_words(self) -> int:
        return self._table.max_words

    @property
    def known_names(self) -> list[str]:
        """Every app name and alias as written, spaces kept ("내 파일", "유튜브 뮤직")."""
        t = self._table
        return [w for table in (t.aliases, t.known_elsewhere) for k, v in table.items()
                for w in (k, *v)]

    @property
    def known_words(self) -> list[str]:
        """Every word the alias table knows as an app (for segmenting unspaced text)."""
        return list(self._table.word_to_label) + list(self._table.word_to_elsewhere)

    def lookup(self, word: str, installed: InstalledIndex) -> AppMatch | Unresolved | None:
        """Table-only resolution: exact label, alias, known-elsewhere. No embeddings."""
        key = normalise(word)
        if not key:
            return None
        hit = installed.by_norm_label.get(key)
        if hit is not None:
            return AppMatch(word=word, app=hit, score=1.0, method="exact")
        label = self._table.word_to_label.get(key) or self._table.word_to_elsewhere.get(key)
        if label is None:
            return self.label_part(word, installed)
        app = self.installed_as(label, installed)
        if app is not None:
            return AppMatch(word=word, app=app, score=1.0, method="alias")
        return Unresolved(word=word, known_as=label)

    def label_part(self, word: str, installed: InstalledIndex) -> AppMatch | None:
        """The installed app whose label ends with `word`, its brand left off (`by_label_part`)."""
        app = installed.by_label_part.get(normalise(word))
        return None if app is None else AppMatch(word=word, app=app, score=1.0, method="part")

    def installed_as(self, label: str, installed: InstalledIndex) -> AppRef | None:
        """The installed app the table's `label` stands for, under whatever name the device shows.

        By the label itself, by the default catalog's package (an English UI shows "KakaoTalk"
        for com.kakao.talk) or the table's known package of an app the catalog lacks ("微信" for
        com.tencent.mm), or by any of the app's own words used as the device's label (a
        device that shows WhatsApp as "왓츠앱", Jira as "Jira" for the table's "지라").
        """
        app = installed.by_norm_label.get(normalise(label))
        if app is not None:
            return app
        pkg = self._table.default_packages.get(label)
        if pkg and pkg in installed.by_package:
            return installed.by_package[pkg]
        for pkg in self._table.known_packages.get(label, ()):
            if pkg in installed.by_package:
                return installed.by_package[pkg]
        words = self._table.words_of(label)
        for word in words:
            app = installed.by_norm_label.get(word)
            if app is not None:
                return app
        # A Korean name with a Latin edition mark on the device ("영웅문S#" for 영웅문).
        for key, app in installed.by_norm_label.items():
            stem = _EDITION_TAIL.sub("", key)
            if stem != key and len(stem) >= 2 and stem in words:
                return app
        return None

    def apps_inside(self, word: str, installed: InstalledIndex) -> list[AppMatch | Unresolved]:
        """Every app the table names somewhere inside `word` (two letters or more), as `lookup`
        resolves it: for a run of glued words code could not split ("쿠팡잇츠배민알림")."""
        return [m for _, _, m in self.names_inside(normalise(word), installed)]

    def misspelling_of(self, piece: str, installed: InstalledIndex) -> AppMatch | Unresolved | None:
        """The app `piece` misspells by one jamo (two letters or more), as `resolve` reads it."""
        near = self._table.near(piece, installed.labels) if len(piece) >= 2 else None
        found = self.lookup(near, installed) if near is not None else None
        if isinstance(found, AppMatch):
            return AppMatch(word=piece, app=found.app, score=found.score, method="fuzzy")
        return found

    def names_inside(
        self, key: str, installed: InstalledIndex
    ) -> list[tuple[int, int, AppMatch | Unresolved]]:
        """(start, end, app) of each name the table finds inside the normalised `key`."""
        hits = sorted(((key.find(w), w) for w in self._table_words_in(key)), key=lambda h: -len(h[1]))
        out: list[tuple[int, int, AppMatch | Unresolved]] = []
        for at, w in hits:  # longest first; a name inside a longer one is that one ("웹툰")
            if any(at < end and start < at + len(w) for start, end, _ in out):
                continue
            found = self.lookup(w, installed)
            if found is not None:
                out.append((at, at + len(w), found))
        return out

    def _table_words_in(self, key: str) -> list[str]:
        """The table's words of two letters or more, installed or not, inside the normalised `key`."""
        return [
            w for w in (*self._table.word_to_label, *self._table.word_to_elsewhere)
            if len(w) >= 2 and w in key
        ]

    def misspells_app(self, word: str, installed: InstalledIndex) -> bool:
        """Whether `word` is one letter off one app's name, as long as it ("지매일" for 지메일),
        and holds no app's name itself ("쿠팡이츠내" is 쿠팡이츠 and the start of 내일)."""
        key = normalise(word)
        if self.is_app_word(key) or self.apps_inside(key, installed):
            return False
        near = self._table.near(key, installed.labels)
        return near is not None and len(near) == len(key) and jamo_distance(near, key) == 1

    def words_of(self, name: str) -> frozenset[str]:
        """The table's words (normalised) for the app it calls `name`."""
        return self._table.words_of(name)

    def resembles_app(self, word: str, installed: InstalledIndex) -> bool:
        """Whether `word` is one letter (jamo) off some app's name without being it ("노숀" for
        노션): too close to call it a keyword, too far to call it the app."""
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        key = normalise(word)
        if len(key) < 2 or self.is_app_word(key) or key in lexicon.words("topics"):
            return False  # a topic word ("세일", "카드") is a keyword whatever it resembles
        keys, _ = self._table._fuzzy_keys
        labels = [_jamo(normalise(label)) for label in installed.labels]
        hit = process.extractOne(
            _jamo(key), [*keys, *labels], scorer=Levenshtein.distance, score_cutoff=1
        )
        return hit is not None

    def resembles_name_of(self, word: str, app: AppRef, installed: InstalledIndex) -> bool:
        """Whether `word` is one of `app`'s names or one jamo off one ("스랙" for Slack)."""
        key = normalise(word)
        return any(jamo_distance(key, name) <= 1 for name in self.names_of(app, installed))

    def sibling_of(self, word: str, app: AppRef, installed: InstalledIndex) -> bool:
        """Whether `word` is another app of the same family as `app` rather than `app` itself:
        it opens like one of `app`'s names ("네이트온" and 네이버) but is more than a typo of it
        and neither holds the other."""
        key = normalise(word)
        names = [n for n in self.names_of(app, installed) if len(n) >= 2]
        for found in self.apps_inside(word, installed):
            # Other apps glued on ("쿠팡잇츠배민": 배민) are not part of the comparison.
            inner = normalise(found.word)
            if not any(inner in n for n in names):
                key = key.replace(inner, "")
        if any(n in key or key in n or _near_in_jamo(key, n) for n in names):
            return False
        # "원스토어" and Play 스토어's "플레이스토어" share a tail, and 원 is no part of the name
        # ("쿠킹덤" cuts 쿠키런: 킹덤 short instead).
        return any(
            len(os.path.commonprefix([key, n])) >= 2
            or (len(os.path.commonprefix([key[::-1], n[::-1]])) >= 2 and key[0] not in n)
            for n in names
        )

    def names_of(self, app: AppRef, installed: InstalledIndex) -> frozenset[str]:
        """Every word (normalised) that names the installed `app`: its label, the table's words
        for that label, and those for any name the table gives it on this device."""
        words = {normalise(app.label), *self.words_of(app.label)}
        for name, ref in self.answer_names(installed).items():
            if ref == app:
                words |= self.words_of(name)
        return frozenset(words)

    def answer_names(self, installed: InstalledIndex) -> dict[str, AppRef]:
        """The table's names for installed apps that the device shows under another label.

        The local model may answer an app by the name it learnt ("카카오톡", "WhatsApp") where the
        device says "KakaoTalk" or "왓츠앱": the apps grammar admits these names beside the
        device's labels, and they map to the device's app here, as a user's word would.
        """
        key = installed.apps
        cached = self._answer_names.get(key)
        if cached is not None:
            return cached
        out: dict[str, AppRef] = {}
        labels = set(installed.labels)
        for name in (*self._table.aliases, *self._table.known_elsewhere):
            if name in labels:
                continue
            app = self.installed_as(name, installed)
            if app is not None:
                out.setdefault(name, app)
        if len(self._answer_names) >= 64:
            self._answer_names.clear()  # custom lists vary per request: a small bound, no LRU
        self._answer_names[key] = out
        return out

    def resolve(
        self, word: str, installed: InstalledIndex, *, embeddings: bool = True
    ) -> AppMatch | Unresolved | None:
        """Table first, then a misspelling of a known name, then (unless `embeddings` is off:
        a question about the word's spelling alone) the embedding matcher."""
        found = self.lookup(word, installed)
        if found is not None:
            return found
        near = self._table.near(word, installed.labels)
        if near is not None:
            found = self.lookup(near, installed)
            if isinstance(found, AppMatch):
                return AppMatch(word=word, app=found.app, score=found.score, method="fuzzy")
            if found is not None:
                # "범블" is one letter from 버블, which the device lacks, and says its Bumble.
                return self.heard(word, installed) or Unresolved(word=word, known_as=found.known_as)
        heard = self.heard(word, installed)
        if heard is not None:
            return heard
        clipped = self.clipped(word, installed)
        if clipped is not None:
            return AppMatch(word=word, app=clipped, score=1.0, method="clipped")
        if embeddings and self._embedder is not None and len(normalise(word)) >= 2:
            match = self._embedder.match(word, installed.apps)
            if match is not None and not self.sibling_of(word, match.app, installed):
                logger.debug("embedding match -> %s (%.3f)", match.app.label, match.score)
                return match
        return None

    def heard(self, word: str, installed: InstalledIndex) -> AppMatch | None:
        """`sounds_like` as a match of `word`."""
        app = self.sounds_like(word, installed)
        return None if app is None else AppMatch(word=word, app=app, score=1.0, method="sound")

    def sounds_like(self, word: str, installed: InstalledIndex) -> AppRef | None:
        """The one installed app whose label, in the other script, sounds like `word` ("부킹닷컴"
        for Booking.com, "핏빗" for Fitbit), or whose label's first words do ("가민" for Garmin
        Connect, "나이키런" for Nike Run Club): for device apps the table has no words for. Apps
        the table knows are left to the table and its misspellings, but for a label said piece
        by piece, and two apps that both sound like the word are neither."""
        known = set(self.answer_names(installed).values())
        key = normalise(word)
        # A word long enough to say a known app exactly ("링크딘"), and one name: "인스타디코알림"
        # says Instagram's sounds, but holds two names and a notification noun.
        sure = (
            len(hangul_skeleton(key)) >= _SURE_SOUNDS
            and not self._table_words_in(key)
            and not lexicon.pattern("markers", "notification_nouns", anchored="$").search(key)
        )
        graded = {
            a: grade for a in installed.apps
            if (grade := self._heard_grade(word, a, known, sure)) is not None
        }
        if not graded:
            return None
        best = min(graded.values())
        found = [a for a, g in graded.items() if g == best]
        return found[0] if len(found) == 1 else None

    def _heard_grade(self, word: str, app: AppRef, known: set[AppRef], sure: bool) -> int | None:
        """`_sound_grade` for a device app the table has no words for; a label the table knows
        by another spelling is still said piece by piece ("이구씨엠" for 29CM, known as "29cm"),
        or exactly by a `sure` word (five sounds or more, one name: no other name the table
        knows, no notification noun)."""
        if app in known or self._table.words_of(app.label) or (
            normalise(app.label) in self._table.word_to_label
        ):
            if says_label_by_parts(normalise(word), app.label):
                return 0
            # Said exactly, in five sounds or more ("링크딘": LinkedIn, which the table spells
            # 링크드인): too long to be an accident.
            return 0 if sure and sound_distance(word, app.label) == 0 else None
        return _sound_grade(word, app.label)

    def heard_short(self, word: str, installed: InstalledIndex) -> AppMatch | None:
        """The one installed app whose short Latin label a one-syllable word says whole ("캄 알림":
        Calm). Only for a word that stands as a target; the caller checks where it stands."""
        key = normalise(word)
        if key in lexicon.words("markers", "ordinary_words"):
            return None
        found = [a for a in installed.apps if says_short_label(key, a.label)]
        if len(found) != 1:
            return None
        return AppMatch(word=word, app=found[0], score=1.0, method="sound")

    def clipped(self, word: str, installed: InstalledIndex) -> AppRef | None:
        """The one installed app whose Korean name the word opens, cut short as chat cuts names
        ("잡코" for 잡코리아, "핀터" for 핀터레스트) or cuts down to syllables of its parts ("뱅샐" for
        뱅크샐러드): two syllables or more of a name at least two syllables longer, and no other
        installed app's name is cut the same way."""
        key = normalise(word)
        if len(key) < 2 or not re.fullmatch(r"[가-힣]+", key) or self.is_app_word(key) or (
            key in lexicon.words("markers", "ordinary_words")
        ):
            return None
        found = {
            a for a in installed.apps
            for name in self.names_of(a, installed)
            if re.fullmatch(r"[가-힣]+", name) and len(name) >= len(key) + 2
            and (name.startswith(key) or syllables_abbreviate(key, name))
        }
        return next(iter(found)) if len(found) == 1 else None

    def plausible(self, word: str, installed: InstalledIndex) -> list[AppRef]:
        """The installed app a word could name, by embedding likeness: a check on the model.

        The model may name an installed app for a word no table knows ("시그널" → Signal); it is
        taken only when the embeddings also put that app first, clearly ahead of the next, so
        a model that maps a made-up word onto an arbitrary app is overruled and the answer asks.
        """
        if self._embedder is None:
            return []
        lead = self._embedder.leader(word, installed.apps, _PLAUSIBLE_MARGIN)
        if lead is None or not self._shares_letters(word, lead, installed):
            return []
        return [lead]

    def _shares_letters(self, word: str, app: AppRef, installed: InstalledIndex) -> bool:
        """A Hangul word names an app with Hangul names only if it shares two syllables with one
        ("페메": 페이스북 메신저): "삼쩜삼" shares one with 삼성 인터넷, close in meaning to the
        embeddings, and is another app. Words in the other script are left to the embeddings."""
        key = normalise(word)
        names = [n for n in self.names_of(app, installed) if re.fullmatch(r"[가-힣]+", n)]
        if not names or not re.fullmatch(r"[가-힣]+", key):
            return True
        return any(len(set(key) & set(n)) >= min(2, len(key)) for n in names)

    def is_app_word(self, word: str) -> bool:
        """Whether the table knows this word as some app, installed or not."""
        key = normalise(word)
        return key in self._table.word_to_label or key in self._table.word_to_elsewhere


def load_catalog(path: Path | None = None) -> tuple[AppRef, ...]:
    """An installed-app list as JSON ([{name, packageName}]); default: the shipped catalog."""
    path = path or resources.path("apps_galaxy_ko.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    return tuple(AppRef(label=a["name"], package=a["packageName"]) for a in raw)


@lru_cache(maxsize=4096)
def _sound_grade(word: str, label: str) -> int | None:
    """How closely `word` says `label` across scripts, best first: the whole label spelt letter
    by letter ("씨엔엔" for CNN) or sounding the same (0), one sound off (1); the label's first
    words likewise ("비비씨" for BBC News, "가민" for Garmin Connect: 2, 3). None: not alike."""
    key = normalise(word)
    ws = label.split()
    firsts = [" ".join(ws[:k]) for k in range(1, len(ws))]
    if letters_spelt(normalise(label)) == key:
        return 0
    whole = sound_distance(word, label)
    if whole is not None:
        return whole
    if says_label_by_parts(key, label):
        return 0
    initials = label_initials(label)
    if initials and (word.isupper() and key == initials or letters_spelt(initials) == key):
        return 0  # "BGA" for Board Game Arena, "비지지" for BoardGameGeek
    if any(letters_spelt(normalise(p)) == key for p in firsts):
        return 2
    parts = [d for p in _label_parts(label) if (d := sound_distance(word, p)) is not None]
    return 2 + min(parts) if parts else None


def label_initials(label: str) -> str:
    """The first letters of a Latin label of three words or more, CamelCase words counted
    ("BoardGameGeek": bgg); "" for shorter labels, whose two letters are too often a word."""
    ws = re.findall(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]{2,}", label)
    if len(ws) < 3 or not re.fullmatch(r"[A-Za-z .&'+-]+", label):
        return ""
    return "".join(w[0] for w in ws).lower()


@lru_cache(maxsize=4096)
def _label_parts(label: str) -> tuple[str, ...]:
    """A Latin label's first or last words, as people name an app without the rest ("Garmin" of
    Garmin Connect) or without its brand ("Acrobat" of Adobe Acrobat): four letters or more, none
    an ordinary word of labels (label_part_stop). Cached: asked for every installed app for each
    word no table knows."""
    # A hyphen joins words as a space does ("Subsurface-mobile": "Subsurface"), and so does the
    # dot before a web address's ending ("Windy.com": "Windy").
    ws = re.split(r"\s+|-(?=[A-Za-z])|\.(?=(?:com|net|org|io|co|app)$)", label.strip())
    if len(ws) < 2 or not re.fullmatch(r"[A-Za-z0-9 .&'+-]+", label):
        return ()
    stop = lexicon.words("markers", "label_part_stop")
    # A last word needs three sounds: "Guitar" of Ultimate Guitar says only K-T, as "꺼 둬" does.
    parts = [" ".join(ws[:k]) for k in range(1, len(ws))] + [
        p for k in range(1, len(ws)) if len(latin_skeleton(p := " ".join(ws[k:]))) >= MIN_SOUNDS]
    return tuple(p for p in parts if len(normalise(p)) >= 4 and normalise(p) not in stop)
