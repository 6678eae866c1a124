"""Slot extraction: code reads what it can; the local model decides only what code could not.

The model sees a fixed few-shot prefix (kept in the KV cache between requests) and answers one
slot at a time, each under its own small GBNF grammar rendered for this request: intent from
two words, apps from the request's installed labels, keywords from the prompt's own words. So
the model can never name an app that is not installed or a word the user did not write, and
the fixed separators between slots are evaluated as prompt, not generated.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from notillm_local.domain import AppMatch, AppRef
from notillm_local.engines.grammars import GrammarSet
from notillm_local.engines.local import GenerationStats, LocalModel
from notillm_local.errors import NotillmError
from notillm_local.settings import ExtractorMode
from notillm_local.stages.apps import AppMapper, InstalledIndex, Unresolved, normalise
from notillm_local.stages.exclusions import settle_exclusions
from notillm_local.stages.glued import glued_names_taken, left_over
from notillm_local.stages.reading import SlotReading
from notillm_local.stages.slots import RuleSlotReader
from notillm_local.stages.words import TIME_GAP, blank_spans, is_topic, keyword_candidates

logger = logging.getLogger(__name__)

MUTE_WORD, ALLOW_WORD = "끄기", "허용"
NONE_WORD, OTHER_APP_WORD = "없음", "기타"
# How code found an app when it is sure of it, so a model's omission does not overrule it: the
# label, the alias table, a misspelling one jamo off a single app's name, the one device app
# whose label in the other script sounds like the word, the one label that ends with the word
# (its brand left off) or whose name it opens (cut short); no embedding guess.
_READ_METHODS = frozenset({"exact", "alias", "fuzzy", "sound", "part", "clipped"})

# Worked cases for the base model. Kept short: every token here is paid once per process.
FEW_SHOT = """다음은 휴대폰 알림 명령을 분석한 기록이다. 의도는 끄기(알림을 막음) 또는 허용(그 알림만 받음)이다.

문장: 지금부터 2시간 카톡 알림 받지마
의도: 끄기
앱: 카카오톡
키워드: 없음

문장: 1시간 동안 문자만 받을래
의도: 허용
앱: 메시지
키워드: 없음

문장: 슬랙 빼고 다 꺼줘
의도: 허용
앱: Slack
키워드: 없음

문장: 3시간 동안 광고 알림 막아줘
의도: 끄기
앱: 없음
키워드: 광고

문장: 라인 알림 1시간 꺼줘
의도: 끄기
앱: 기타
키워드: 없음

문장: 오후 5시까지 인스타랑 유튜브 조용히
의도: 끄기
앱: Instagram, YouTube
키워드: 없음

문장: 30분 동안 전화만 울리게 해줘
의도: 허용
앱: 전화
키워드: 없음
"""


@dataclass(frozen=True)
class ModelAnswer:
    """What the model said for one turn, slot by slot (None: not asked)."""

    intent: str | None = None
    apps: tuple[str, ...] | None = None  # labels, "기타" per app the device lacks
    keywords: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Extraction:
    reading: SlotReading
    llm_calls: int = 0
    stats: GenerationStats | None = None
    model: ModelAnswer | None = None
    decided_by_model: frozenset[str] = frozenset()
    # How code and model related (docs/decisions.md, "Code and model"): "model" (model mode),
    # "filled" (the model decided only what code could not), "agree", "code-kept" (they
    # disagreed on a slot code had read; code's reading stands), "asked" (a word nobody placed),
    # "ignored" (the model left out a word that stands where no target does).
    agreement: str = "code"


class SlotExtractor:
    """Stage: prompt text (with time spans) → slots."""

    def __init__(
        self,
        reader: RuleSlotReader,
        model: LocalModel | None,
        grammars: GrammarSet,
        mode: ExtractorMode,
        max_new_tokens: int = 48,
        prefix: str = FEW_SHOT,
    ) -> None:
        if model is None and mode is not ExtractorMode.RULES:
            raise ValueError(f"extractor mode {mode.value} needs a local model")
        self._reader = reader
        self._model = model
        self._grammars = grammars
        self._mode = mode
        self._max_new = max_new_tokens
        self._prefix_text = prefix
        self._prefix_tokens: list[int] | None = None

    @property
    def app_words(self) -> list[str]:
        """Every word the alias table knows as an app, as a lookup key."""
        return self._reader.app_words

    @property
    def mapper(self) -> AppMapper:
        return self._reader.mapper

    @property
    def app_names(self) -> list[str]:
        """Every app name and alias as written (spaces kept)."""
        return self._reader.app_names

    def read(
        self, prompt: str, time_spans: list[tuple[int, int]], installed: InstalledIndex
    ) -> SlotReading:
        """Code's reading of everything outside the time spans; never calls the model."""
        text = blank_spans(prompt, time_spans, fill=TIME_GAP)
        return self._reader.read(text, installed, original=prompt)

    @property
    def decides_every_slot(self) -> bool:
        return self._mode is ExtractorMode.MODEL

    def mentions(
        self, prompt: str, app: AppRef, r: SlotReading, installed: InstalledIndex
    ) -> bool:
        """Whether some word of the prompt accounts for `app`: code read it there, one of its
        names (label or the table's words for it) is in the prompt, or a word code could not
        place is, by the embeddings, clearly that app. An app the model names with none of
        these is no reading of the prompt (it names 카카오페이지 for "카카오톸")."""
        if any(m.app == app for m in r.apps):
            return True
        # A name inside words code read as context or filler is no mention: code had read
        # apps first ("운동 가기 전에 설정해두려고!": the purpose clause names no 설정 app).
        key = normalise(blank_spans(prompt, [(s.start, s.end) for s in r.spans
                                             if s.kind in ("context", "filler")]))
        if any(len(w) >= 2 and w in key for w in self._reader.mapper.names_of(app, installed)):
            return True
        mapper = self._reader.mapper
        return any(
            app in self._reader.plausible_apps(w, installed)
            and not mapper.sibling_of(w, app, installed)
            for w in r.unknown_words
        )

    def other_apps_inside(
        self, word: str, app: AppRef, installed: InstalledIndex
    ) -> list[AppMatch | Unresolved]:
        """Apps other than `app` the table names inside `word`; a name that is part of one of
        `app`'s own names ("쿠팡" of "쿠팡이츠", misspelt as "쿠팡잇츠") is `app` itself."""
        mapper = self._reader.mapper
        own = mapper.names_of(app, installed)
        out: list[AppMatch | Unresolved] = []
        for found in mapper.apps_inside(word, installed):
            w = normalise(found.word)
            if any(w in o for o in own):
                continue
            if isinstance(found, AppMatch) and found.app == app:
                continue
            out.append(found)
        return out

    def wants_model(self, reading: SlotReading) -> bool:
        if self._mode is ExtractorMode.RULES:
            return False
        return self._mode is ExtractorMode.MODEL or bool(reading.unsure)

    def decide(
        self,
        prompt: str,
        time_spans: list[tuple[int, int]],
        reading: SlotReading,
        installed: InstalledIndex,
        *,
        timeout_s: float = 20.0,
        max_waiting: int = 16,
    ) -> Extraction:
        """The reading with the slots code left unsure decided by the model (all in model mode)."""
        if not self.wants_model(reading):
            return Extraction(reading=reading)
        assert self._model is not None
        full = self._mode is ExtractorMode.MODEL
        slots = {"intent", "target"} if full else set(reading.unsure)
        rest = blank_spans(prompt, time_spans)
        stats = GenerationStats()
        with self._model.turn(timeout_s=timeout_s, max_waiting=max_waiting):
            said = self._ask_model(prompt, rest, reading, installed, slots, stats)
        logger.debug("model extraction: %s", stats)
        decided, agreement = combine(
            reading, said, installed, full=full, plausible=self._reader.plausible_apps,
            names=self._reader.mapper.answer_names(installed),
            mentioned=lambda app: self.mentions(prompt, app, reading, installed),
            inside=lambda word, app: self.other_apps_inside(word, app, installed),
            resembles_app=lambda word: self._reader.mapper.resembles_app(word, installed),
            context_words=reading.context_words(prompt),
            accounts_for=lambda word, app: self._reader.mapper.resembles_name_of(
                word, app, installed
            ) or app in self._reader.plausible_apps(word, installed),
            sibling=lambda word, app: self._reader.mapper.sibling_of(word, app, installed),
            apps_in=lambda word: self._reader.mapper.apps_inside(word, installed),
            left=lambda word, apps: left_over(self._reader.mapper, word, apps, installed),
        )
        return Extraction(
            reading=decided, llm_calls=1, stats=stats, model=said,
            decided_by_model=frozenset(slots), agreement=agreement,
        )

    def warm(self) -> None:
        """Evaluate the fixed prefix once at start-up so no request pays for it."""
        if self._model is None:
            return
        try:
            # Runs in a background thread: a failure only means the first model request pays
            # for the prefix itself, so it is logged, never raised.
            if self._mode is not ExtractorMode.RULES:
                with self._model.turn(timeout_s=60, max_waiting=1 << 16):
                    self._model.feed(self._prefix())
            # The grammar engine's vocabulary is built beside this; waiting for it too lets
            # `Service.wait_warm` cover all the start-up work.
            self._model.guidance_vocab()
        except NotillmError as exc:
            logger.warning("prefix warm-up skipped: %s", type(exc).__name__)

    def keyword_candidates(self, rest: str, installed: InstalledIndex) -> list[str]:
        """The words the model may name as keywords when it decides every slot: the prompt's
        words (time blanked) as typed and as re-spaced, so that in "광고알림꺼줘" "광고" is one."""
        return keyword_candidates(f"{rest} {self._reader.spaced(rest, installed)}")

    # -- model ----------------------------------------------------------------------------
    def _prefix(self) -> list[int]:
        assert self._model is not None
        if self._prefix_tokens is None:
            self._prefix_tokens = self._model.bos() + self._model.tokenize(self._prefix_text)
        return self._prefix_tokens

    def _ask_model(
        self,
        prompt: str,
        rest: str,
        r: SlotReading,
        installed: InstalledIndex,
        slots: set[str],
        stats: GenerationStats,
    ) -> ModelAnswer:
        m = self._model
        assert m is not None
        # The prompt goes in on one line: a newline would break the record format.
        line = re.sub(r"\s+", " ", prompt)
        tokens = self._prefix() + m.tokenize(f"\n문장: {line}\n의도:")
        intent: str | None = None
        if "intent" in slots or r.mute is None:
            intent = m.generate(
                tokens, m.grammar(self._grammars.intent), max_tokens=6, stats=stats
            ).strip()
            said = intent
        else:
            said = MUTE_WORD if r.mute else ALLOW_WORD
        if "target" not in slots:
            return ModelAnswer(intent=intent)
        tokens = tokens + m.tokenize(f" {said}\n앱:")
        apps_said = m.generate(
            tokens,
            m.grammar(self._grammars.apps_for(
                [*installed.labels, *self._reader.mapper.answer_names(installed)]
            )),
            max_tokens=self._max_new,
            stats=stats,
        ).strip()
        tokens = tokens + m.tokenize(f" {apps_said}\n키워드:")
        full = self._mode is ExtractorMode.MODEL
        candidates = self.keyword_candidates(rest, installed) if full else list(r.unknown_words)
        kws_said = NONE_WORD
        if candidates:
            kws_said = m.generate(
                tokens,
                m.grammar(self._grammars.keywords_for(candidates)),
                max_tokens=self._max_new,
                stats=stats,
            ).strip()
        return ModelAnswer(intent=intent, apps=_items(apps_said), keywords=_items(kws_said))


def _items(said: str) -> tuple[str, ...]:
    return () if said == NONE_WORD else tuple(x.strip() for x in said.split(",") if x.strip())


def combine(
    r: SlotReading,
    said: ModelAnswer,
    installed: InstalledIndex,
    *,
    full: bool,
    plausible: Callable[[str, InstalledIndex], list[AppRef]] = lambda w, i: [],
    names: Mapping[str, AppRef] | None = None,
    mentioned: Callable[[AppRef], bool] = lambda a: True,
    inside: Callable[[str, AppRef], list[AppMatch | Unresolved]] = lambda w, a: [],
    resembles_app: Callable[[str], bool] = lambda w: False,
    context_words: frozenset[str] = frozenset(),
    accounts_for: Callable[[str, AppRef], bool] = lambda w, a: False,
    sibling: Callable[[str, AppRef], bool] = lambda w, a: False,
    apps_in: Callable[[str], list[AppMatch | Unresolved]] = lambda w: [],
    left: Callable[[str, list[AppRef]], list[str]] = lambda w, a: [],
) -> tuple[SlotReading, str]:
    """Code's reading with the model's answers put in, every user word still accounted for.

    The model's app items are the device's labels or the alias table's names for the device's
    apps (`names`: "카카오톡" where the device shows "KakaoTalk"), mapped to the device's app.
    Model mode takes the model's slots whole, but an app no word of the prompt accounts for
    (`mentioned`) is not taken: the answer asks instead. In the default mode the model only
    places what code could not, and where both read a slot the reading that accounts for the
    prompt's words wins: apps code found by the table stand (a model that leaves one out, or
    names one no unknown word accounts for, is overruled); the words code left unknown must
    each become a keyword, an installed app the model named that code had not found and the
    embeddings also find likely for that word (`plausible`), or — failing that — an app we ask
    about (app_unresolved). Returns the reading and how the two related.
    """
    mute = r.mute
    if said.intent is not None:
        mute = said.intent == MUTE_WORD
    if r.mute is None and r.kept_out and any(m.app not in r.kept_out for m in r.apps):
        mute = True  # "X 빼고 Y Z 2시간", no verb: letting Y, Z alone through would mute X
    if said.apps is None:
        return replace(r, mute=mute, unsure=r.unsure - {"intent"}), "filled"
    by_name = {normalise(k): v for k, v in (names or {}).items()}
    named = [
        installed.by_norm_label.get(normalise(x)) or by_name.get(normalise(x))
        for x in said.apps if x != OTHER_APP_WORD
    ]
    others = sum(1 for x in said.apps if x == OTHER_APP_WORD)
    kws = tuple(said.keywords or ())
    if full:
        # A word code read as an app by its name (the table, one jamo off, its sound) is that
        # app, not a topic the model made of it ("쇼피 알림" on a device with Shopee): a keyword
        # of an app's name would silence the wrong notifications.
        # A part of such a word is no topic either ("PBA 볼링": the device's "PBA Bowling").
        read_as_app = [
            normalise(m.word) for m in r.apps if m.method in _READ_METHODS and not is_topic(m.word)
        ]
        kws = tuple(
            k for k in kws if k in r.content or not any(normalise(k) in w for w in read_as_app)
        )
    # A keyword the model made of a word one letter off an app's name ("노숀알림": 노션) is
    # more likely the app misspelt than a topic: asked about, never a keyword of the rule.
    doubtful = tuple(k for k in kws if k not in r.content and resembles_app(k))
    if full:
        # …as is one made of a word code could not read that stands where a target does
        # ("모두의주차장 알림": an app the device lacks), as the default mode asks about it.
        standing = [normalise(w) for w in r.unknown_words if w not in r.loose_words]
        doubtful += tuple(
            k for k in kws if k not in r.content and k not in doubtful
            and any(normalise(k) in w for w in standing)
        )
    kws = tuple(k for k in kws if k not in doubtful)
    if full:
        # Keywords code read cannot be cut ("'뉴스레터'" is not "뉴스"), and a word code read as
        # context (a reason or remark clause) is no keyword ("거래 기다리는 중이라"), nor is a
        # stretch that holds one ("카드명세서보기무서움ㅋㅋ토스랑…": a remark and the apps after it).
        remarks = [w for w in context_words if len(w) >= 2]
        kws = tuple(dict.fromkeys([*r.quoted, *(  # a quoted word is a keyword whatever the model says
            next((c for c in r.content if k in c), k) for k in kws
            if k in r.content or (
                normalise(k) not in context_words and not any(w in normalise(k) for w in remarks)
            )
        )]))
    overruled = False
    if full and r.mute is not None and "intent" not in r.unsure and mute != r.mute:
        # Code read the verb and was sure of it ("팀즈만 알림 오게 해줘", "슬랙 말고 팀즈만 꺼줘"),
        # or read the exception words that turn it around ("X 말고 다 꺼": only X gets
        # through): a model that says the opposite read the sentence without them. Over the
        # project's sets code was right in every such disagreement (docs/decisions.md).
        mute, overruled = r.mute, True
    if full:
        # An app the user kept out ("스포티파이는 냅둬") is never in the rule, whatever the model
        # says: the exception word is a fact of the prompt.
        distinct = [a for a in dict.fromkeys(named) if a is not None and a not in r.kept_out]
        taken = [a for a in distinct if mentioned(a)]
        others += len(distinct) - len(taken)
        apps = tuple(AppMatch(word=a.label, app=a, score=1.0, method="model") for a in taken)
        # Apps the table knows but the device lacks are a fact, not a reading: they stay, and
        # the answer asks about them whatever the model says.
        unresolved = r.unresolved + tuple(Unresolved(word=k, known_as=None) for k in doubtful)
        # A word code could not place that looks like an app's name ("스랙") or that stands
        # where a target does ("사람인 잡코 원티드": one of a list), which no app of the model's
        # answer accounts for: the model dropped a word the user wrote ("mute everything" for
        # "스랙 꺼줘", three of four job apps for "…잡코…"), so the answer asks about it, as the
        # default mode does. A word standing where no target does ("멕시코시티 출장중") may be
        # left out.
        unresolved += tuple(
            Unresolved(word=w, known_as=None) for w in r.unknown_words
            if w not in kws and w not in doubtful
            and (resembles_app(w) or w not in r.loose_words)
            and not any(accounts_for(w, a) for a in taken)
            and not glued_names_taken(w, apps_in(w), taken)
        )
        # A glued run the model took names from, with more left than those names and their
        # misspellings ("유튭멜론라쿠텐": 라쿠텐): the rest is a word nobody read, asked about.
        unresolved += tuple(
            Unresolved(word=x, known_as=None) for w in r.unknown_words
            if all(u.word != w for u in unresolved)
            for x in left(w, taken) if not any(accounts_for(x, a) for a in taken)
        )
        # A run code could not split that holds an exception word ("…전화빼고다"): code cannot
        # tell which way the verb goes, and a model that reads past 빼고 mutes the kept app.
        unresolved += tuple(
            Unresolved(word=w, known_as=None) for w in r.marked_words
            if all(u.word != w for u in unresolved)
        )
        # An app code read by the table that the model left out, its word not made a keyword
        # either: the model's reading drops a word the user wrote; code's reading accounts for
        # it (the table names it exactly), so the app joins the rule (the model drops the last
        # of three or more apps, and answers 기타 for a device's own app it never saw).
        # An app code found by the embeddings is kept too where the model named, in its place,
        # an app no word of the prompt accounts for ("메론": code 멜론, the model 메시지).
        swapped = len(taken) < len(distinct)
        kept = tuple(
            m for m in r.apps
            if (m.method in _READ_METHODS or (swapped and m.method == "embedding"))
            and m.app not in taken and m.word not in kws
            and not any(m.app == a for a in named)
        )
        kept = tuple(m for i, m in enumerate(kept) if m.app not in {k.app for k in kept[:i]})
        others = max(0, others - len(kept))
        # In the order the user named them (code's spans), the model's others after.
        at: dict[str, int] = {}
        for span in r.spans:
            if span.kind == "app" and span.label is not None:
                at.setdefault(span.label, span.start)
        joined = sorted(
            [*taken, *(m.app for m in kept)], key=lambda a: at.get(a.label, 1 << 30)
        )
        apps = tuple(
            next((m for m in kept if m.app == a), None)
            or AppMatch(word=a.label, app=a, score=1.0, method="model")
            for a in joined
        )
        if others and not unresolved:
            # Name what the user wrote: an app word of the prompt the model did not take, else
            # a word nobody placed.
            words = [m.word for m in r.apps if m.app not in taken and m not in kept]
            words += [w for w in r.unknown_words if w not in kws] or list(r.unknown_words)
            # A "기타" no word of the prompt accounts for (every word read, every app taken) is
            # no app the user named: nothing to ask about.
            unresolved = tuple(Unresolved(word=w, known_as=None) for w in words[:others])
        reading = replace(
            r, mute=mute, apps=apps, unresolved=unresolved, content=kws, unknown_words=(),
            loose_words=(),
            unsure=frozenset(),
        )
        reading = settle_exclusions(reading, r, said_kept=[a for a in named if a in r.kept_out])
        if not reading.has_target and not r.says_all:
            # The model's answer silences everything, yet the user never said "all" and code
            # left words it could not place where a target stands ("바이버 알림 꺼줘", "페메"):
            # the model dropped the word, so the answer asks about it.
            stand = [w for w in r.unknown_words if w not in r.loose_words]
            if stand:
                reading = replace(
                    reading, unresolved=tuple(Unresolved(word=w, known_as=None) for w in stand)
                )
        if reading.unresolved != r.unresolved:
            return reading, "asked"
        if kept or overruled or swapped:
            return reading, "code-kept"
        return reading, "model"
    have = {m.app for m in r.apps}
    said_apps = {a for a in named if a is not None}
    # An app the user kept out ("테슬라 티맵 전화 빼고 다 꺼") is no app for another word: the
    # model names the kept apps as the ones let through, and placing one for a word code could
    # not read ("시작") had muted it.
    new_apps = [a for a in named if a is not None and a not in have and a not in r.kept_out]
    # A keyword the model made of a word code could not read is no topic code knows: a word
    # standing where no target does ("주실 수 있을까요") is no keyword at all, and one standing
    # where a target does ("런데이알림": an app the device lacks) is asked about — over the
    # project's sets no such keyword was ever right, and a keyword of an app's name silences
    # the wrong notifications.
    loose_kws = [k for k in kws if k not in r.content and k in r.loose_words]
    unread_kws = [
        k for k in kws if k not in r.content and k not in loose_kws and k in r.unknown_words
    ]
    kws = tuple(k for k in kws if k not in loose_kws and k not in unread_kws)
    content = r.content + tuple(k for k in kws if k not in r.content)
    unplaced = [w for w in r.unknown_words if w not in kws and w not in unread_kws]
    placed = list(r.apps)
    asked = list(r.unresolved)
    ignored: list[str] = []
    no_other_app = OTHER_APP_WORD not in (said.apps or ())
    asked += [Unresolved(word=k, known_as=None) for k in doubtful if k not in unplaced]
    asked += [Unresolved(word=k, known_as=None) for k in unread_kws if k not in doubtful]
    for word in unplaced:
        # An app of the same family is not the word's app ("네이트온" is no 네이버).
        likely = [x for x in plausible(word, installed) if not sibling(word, x)]
        # The model's app is the word's app where the embeddings put it first, or where the word
        # is one of its names or one jamo off one ("쿠팽" for 쿠팡, which the model named).
        a = next((
            x for x in new_apps
            if x in likely or (accounts_for(word, x) and not sibling(word, x))
        ), None)
        glued = apps_in(word) if a is None else []
        if a is None and glued_names_taken(word, glued, list(said_apps)):
            # A glued run whose names the table finds whole and the model named too, a
            # syllable at most left over ("회의라카톡팀즈"): both readings account for it, as in
            # model mode.
            for m in glued:
                if isinstance(m, AppMatch) and all(p.app != m.app for p in placed):
                    placed.append(m)
                    if m.app in new_apps:
                        new_apps.remove(m.app)
        elif a is not None:
            new_apps.remove(a)
            placed.append(AppMatch(word=word, app=a, score=1.0, method="model"))
            # A glued run code could not split may name more apps than the one the model placed
            # ("쿠팡잇츠배민알림": 쿠팡이츠 and 배민): none of them is dropped — an installed one
            # the table names exactly joins the rule, any other is asked about.
            extras = inside(word, a)
            for extra in extras:
                if isinstance(extra, Unresolved):
                    asked.append(extra)
                elif all(m.app != extra.app for m in placed):
                    placed.append(extra)
            # …and a stretch none of those names accounts for is asked about ("라쿠텐").
            named_here = [a, *(x.app for x in extras if isinstance(x, AppMatch))]
            asked += [
                Unresolved(word=x, known_as=None) for x in left(word, named_here)
                if not any(accounts_for(x, b) for b in named_here)
                and not any(normalise(u.word) in x for u in extras if isinstance(u, Unresolved))
            ]
        elif word in r.loose_words and no_other_app and not resembles_app(word):
            # A word standing where no target does ("반대로", "이스탄불이야", "왜케"), which the
            # model, asked about it, made neither app nor keyword: the model read it as no part
            # of the rule. (One that looks like an app's name is still asked about.)
            ignored.append(word)
        else:
            # "기타" (an app the device lacks) or nothing the model could say: either way a
            # word the user said names something we cannot find, so the answer asks.
            asked.append(Unresolved(word=word, known_as=None))
    if ignored and not (placed or asked or content) and not r.says_all:
        # Left without its words the rule would silence everything, and the user never said
        # "all" (다, 전부, 모든): the word may have been the target after all, so ask.
        asked += [Unresolved(word=w, known_as=None) for w in ignored]
        ignored = []
    if len(asked) > len(r.unresolved):
        agreement = "asked"
    elif ignored:
        agreement = "ignored"
    elif new_apps or (have and said_apps and not have <= said_apps):
        agreement = "code-kept"
    elif r.unknown_words or "intent" in r.unsure:
        agreement = "filled"
    else:
        agreement = "agree"
    reading = replace(
        r, mute=mute, apps=tuple(placed), unresolved=tuple(asked), content=content,
        unknown_words=(), loose_words=(), unsure=frozenset(),
    )
    return settle_exclusions(reading, r, said_kept=[a for a in said_apps if a in r.kept_out]), agreement
