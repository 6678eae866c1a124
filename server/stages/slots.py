"""Reading a command's slots with code: intent, target apps, keywords, activity, location.

Korean marks these with a small closed set of verbs, particles and frames ("X만 받아줘",
"X 빼고 다 꺼줘", "X는 놔두고 Y만 꺼줘", "'Y'라는 단어가 들어간"), so code reads them exactly
and says which slots it could not decide; only those go to the model (see extract.py).

Accounting is the rule: every word outside the time spans is consumed by a slot, is known
filler or context, or is reported as unknown — an unknown word makes the target unsure, and
the model (or, failing that, a question) decides it. Nothing the user wrote is dropped.

Before reading, English verbs are rewritten as their Korean equivalents and text typed without
spaces gets its spaces back (spacing.py), so the reader works on words either way.
"""

from __future__ import annotations

import re

from notillm_local import lexicon
from notillm_local.domain import AppMatch, AppRef
from notillm_local.lexicon import MappedText, normalise
from notillm_local.stages.apps import AppMapper, InstalledIndex, Unresolved
from notillm_local.stages.clauses import (
    allow_cue_in,
    asks_about_notifications,
    blank_before,
    context_end,
    has_intent_cue,
    joins_commands,
    mute_cue,
    opening_statement_end,
    remark_start,
    words_after,
)
from notillm_local.stages.conflicts import (
    contrasts_with,
    named_twice,
    one_app_both_ways,
    verbs_split_apps,
)
from notillm_local.stages.draft import Draft
from notillm_local.stages.exclusions import kept_by_verb, kept_out_at
from notillm_local.stages.glued import rest_of_label, split_glued, split_heard
from notillm_local.stages.keywords import read_frames, read_quoted
from notillm_local.stages.positions import (
    CONJUNCTIONS,
    after_app,
    before_notification_word,
    coordinated,
    except_before,
    except_before_all,
    kept_before_marker,
    misspelt_app_before_notification,
    named_by_another,
    stands_as_target,
)
from notillm_local.stages.reading import ReadSpan, SlotReading
from notillm_local.stages.spacing import Respacer
from notillm_local.stages.verbs import read_intent
from notillm_local.stages.words import (
    TIME_GAP,
    Word,
    ends_reason_clause,
    is_filler,
    is_topic,
    is_verb,
    peel,
    says_intent_verb,
    strip_suffixes,
    suffix_set,
    words,
)

# "뒹굴뒹굴", "꾸벅꾸벅": two syllables said twice, a word of manner that names nothing.
_MIMETIC = re.compile(r"([가-힣]{2})\1")
_COUNT = re.compile(r"[0-9]+|(?:[0-9]+|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*개")


class RuleSlotReader:
    """Deterministic slot reading over the text left after time spans are removed."""

    def __init__(self, mapper: AppMapper, respacer: Respacer | None = None) -> None:
        self._mapper = mapper
        self._respacer = respacer or Respacer(mapper.known_words)

    @property
    def app_words(self) -> list[str]:
        return self._mapper.known_words

    @property
    def app_names(self) -> list[str]:
        return self._mapper.known_names

    def plausible_apps(self, word: str, installed: InstalledIndex) -> list[AppRef]:
        return self._mapper.plausible(word, installed)

    @property
    def mapper(self) -> AppMapper:
        return self._mapper

    def spaced(self, text: str, installed: InstalledIndex) -> str:
        """`text` with the word breaks the reader restores ("광고알림꺼줘" → "광고 알림 꺼줘")."""
        return self._respacer.respace(text, _spacing_names(installed)).text

    def read(
        self, text: str, installed: InstalledIndex, *, original: str | None = None
    ) -> SlotReading:
        """Read `text` (time spans blanked); `original` is the same text before blanking."""
        original = text if original is None else original
        d = Draft(MappedText.identity(text))
        text = read_quoted(text, original, d)
        text = d.blank_laughter(text)
        english = lexicon.read_english(text)
        spaced = self._respacer.respace(
            english.text, (*_spacing_names(installed), *self._misspelt_names(english.text, installed))
        )
        d.text = spaced.through(english)
        rest = read_frames(self._mapper, spaced.text, d)
        self._read_context(spaced.text, d)
        clause_end = context_end(rest)
        remark_at = remark_start(rest)
        main = blank_before(rest, clause_end)
        main = main[:remark_at] + " " * (len(main) - remark_at)
        d.asks_about = asks_about_notifications(original)
        d.says_all = bool(
            lexicon.pattern("markers", "all").search(main)
            or lexicon.pattern("markers", "whole_phone").search(main)  # "폰 좀 조용하게"
        )
        read_intent(main, d)
        self._read_targets(rest, clause_end, installed, d, remark_at=remark_at)
        if d.kept_by_verb:
            # "카톡은 켜 두고 인스타만 꺼": 켜 두고 kept 카톡 out; the command's verb is the other one.
            d.unsure.discard("intent")
            d.both_ways = False
            read_intent(lexicon.pattern("markers", "kept_by_verb.phrase").sub(
                lambda m: " " * len(m.group(0)), main), d)
        split = verbs_split_apps(words(rest), d.apps, d.cue_spans, main) if d.both_ways else None
        if split:
            d.mute, keep = split  # "인스타는 끄고 유튜브는 켜 둬": Instagram muted, YouTube left on
            d.apps, d.both_ways = [(k, m) for k, m in d.apps if k in keep], False
            d.unsure.discard("intent")
        apps = [m.app for _, m in d.apps]
        if d.kept_by_verb and {m.app for _, m in d.kept if isinstance(m, AppMatch)} & set(apps):
            d.contradicts = True  # "슬랙 알림 켜 두고 슬랙 알림 꺼": one app kept on and muted
        if set(d.reason_apps) & set(apps) and contrasts_with(rest[:clause_end], d.mute):
            d.contradicts = True  # "슬랙 무음인데 슬랙은 울리게 해줘"
        if not split and (d.both_ways or (d.cues[0] and d.cues[1])) and (
            named_twice(main, apps, d.cue_spans)
            or one_app_both_ways(
                main, apps, d.cue_spans,
                anything_else=bool(d.unresolved or d.content or d.unknown or d.kept),
            )
        ):
            # One rule cannot both silence and let through the same thing: say so, not guess.
            d.contradicts = True
        if d.unknown:
            # Words code cannot place might be an app or a topic: the model decides, and if it
            # cannot place them either the answer asks (extract.py) — never a rule without them.
            d.unsure.add("target")
        return d.done()

    def _misspelt_names(self, text: str, installed: InstalledIndex) -> list[str]:
        """Words typed as one that misspell one app's name and hold none ("배달의밍족"): the
        respacer keeps them whole, as it keeps a name, rather than split off a word it knows."""
        nouns = lexicon.pattern("markers", "notification_nouns", anchored="$")
        return [
            f for token in text.split() for f in peel(nouns.sub("", token) or token)[:1]
            if len(f) >= 4 and not self._mapper.is_app_word(f)
            and not self._mapper.apps_inside(f, installed)
            and self._mapper.misspelling_of(f, installed) is not None
        ]

    # -- activity / location ----------------------------------------------------------------
    @staticmethod
    def _read_context(text: str, d: Draft) -> None:
        for section in ("activity", "location"):
            for name in lexicon.data("context")[section]:
                if lexicon.pattern("context", f"{section}.{name}").search(text):
                    setattr(d, section, name)
                    break

    # -- targets ----------------------------------------------------------------------------
    def _read_targets(
        self, text: str, clause_end: int, installed: InstalledIndex, d: Draft,
        *, remark_at: int | None = None,
    ) -> None:
        ws = words(text)
        found, leftovers = self._find_apps(ws, installed, d)
        # "휴가 출발~ 슬랙 팀즈 꺼줘": the opening is context; so is a second one after a reason
        # clause ("올해 마지막 날이라 가족이랑 있을래 카톡 빼고 다 꺼").
        after = clause_end + opening_statement_end(text[clause_end:]) if clause_end else 0
        opening = max(opening_statement_end(text), after)
        # …a statement beside a command: with no verb after it and no time or app at all ("알림
        # 덕분에 약속 안 늦었어 고마워") the message is talk, for the gate to judge.
        commands_after = has_intent_cue(text[opening:]) or TIME_GAP in text or bool(found)
        if opening > clause_end and commands_after and not any(
            ws[i].end <= opening and self._names_app(ws[i].text, res) for i, res in found
        ) and not any(
            w.end <= opening and misspelt_app_before_notification(self._mapper, ws, j, installed)
            for j, w in enumerate(ws)
        ):
            clause_end = opening
        excluded_at = kept_out_at(ws, found)
        d.kept_by_verb = any(kept_by_verb(ws, i, {j for j, _ in found}) for i in range(len(ws)))
        predicate_at = _predicate_start(text, ws)
        remark_at = len(text) if remark_at is None else remark_at
        in_reason = [w.end <= clause_end or w.start >= remark_at for w in ws]
        main_has_target = any(not in_reason[i] for i, _ in found) or any(
            is_topic(strip_suffixes(ws[i].text)) and not in_reason[i] for i in leftovers
        )
        for i, res in found:
            w = ws[i]
            if in_reason[i] and (main_has_target or d.says_all and isinstance(res, Unresolved)):
                # "카톡 시끄러우니까 슬랙만 켜줘": the reason clause names the trouble, not the target;
                # "잔디 깎고 왔다 … 전부 무음": a word of an app the device lacks, with "all" said.
                d.mark(w.start, w.end, "context")
                if isinstance(res, AppMatch) and w.end <= clause_end:
                    d.reason_apps.append(res.app)
                continue
            if i in excluded_at:
                d.excluded.append(w.text)
                d.kept.append((i, res))
                d.mark(w.start, w.end, "exclusion", _label_of(res))
                continue
            if isinstance(res, AppMatch):
                d.apps.append((i, res))
            else:
                d.unresolved.append((i, res))
            d.mark(w.start, w.end, "app", _label_of(res))
        self._drop_generic_app_words(d, ws)
        for i in leftovers:
            self._place_leftover(ws, i, in_reason[i], i >= predicate_at, installed, d)
        self._exclude_misspelt(ws, found, excluded_at, d)
        self._apply_exclusions(d)

    def _names_app(self, raw: str, res: AppMatch | Unresolved) -> bool:
        """Whether a word names an app for sure: an installed one, or a word the table knows.
        A near miss of an app that is not installed ("보고" for 포고) is an ordinary word."""
        return isinstance(res, AppMatch) or self._mapper.is_app_word(strip_suffixes(raw))

    def _exclude_misspelt(
        self, ws: list[Word], found: list[tuple[int, AppMatch | Unresolved]],
        excluded_at: set[int], d: Draft,
    ) -> None:
        """Apps read only among the leftovers (misspelt: "쓸랙 팀쯔 빼고 다 꺼") before an exception
        word are kept out too, like the table's names before it."""
        every: list[tuple[int, AppMatch | Unresolved]] = [*d.apps, *d.unresolved]
        placed = [(i, r) for i, r in every if (i, r) not in found]
        if not placed:
            return
        now_out = kept_out_at(ws, [*found, *placed]) - excluded_at
        # The table's names before a misspelt one are kept out with it ("쿠팡이츠 요기요
        # 채널관리자 빼고": the walk back from 빼고 stopped at the word not yet read as an app).
        for i, res in every:
            if i not in now_out:
                continue
            d.apps = [(j, m) for j, m in d.apps if j != i]
            d.unresolved = [(j, u) for j, u in d.unresolved if j != i]
            d.excluded.append(ws[i].text)
            d.kept.append((i, res))
            a, b = d.text.span_in_source(ws[i].start, ws[i].end)
            d.spans = [x for x in d.spans if not (x.kind == "app" and (x.start, x.end) == (a, b))]
            d.mark(ws[i].start, ws[i].end, "exclusion", _label_of(res))

    def _find_apps(
        self, ws: list[Word], installed: InstalledIndex, d: Draft
    ) -> tuple[list[tuple[int, AppMatch | Unresolved]], list[int]]:
        """Apps by table lookup, longest n-gram first ("네이버 지도" before "네이버")."""
        found: list[tuple[int, AppMatch | Unresolved]] = []
        leftovers: list[int] = []
        n, i = len(ws), 0
        max_n = max(self._mapper.max_words, installed.max_label_words)
        while i < n:
            hit = None
            for size in range(min(max_n, n - i), 0, -1):
                chunk = [w.text for w in ws[i : i + size]]
                for cand in [" ".join(chunk[:-1] + [f]) for f in peel(chunk[-1])]:
                    # A device label of several words said in Korean ("메타 비즈니스 스위트").
                    res = self._mapper.lookup(cand, installed) or (
                        self._mapper.heard(cand, installed) if size > 1 else None)
                    if res is not None:
                        hit = (size, res)
                        break
                if hit:
                    break
            if hit is None:
                leftovers.append(i)
                i += 1
                continue
            size, res = hit
            if size > 1:  # one word in the result stands for the whole n-gram
                last = ws[i + size - 1]
                ws[i] = Word(" ".join(w.text for w in ws[i : i + size]), ws[i].start, last.end)
                for k in range(i + 1, i + size):
                    ws[k] = Word("", ws[k].start, ws[k].start)
            found.append((i, res))
            i += size
        return found, leftovers

    def _place_leftover(
        self,
        ws: list[Word],
        i: int,
        in_reason: bool,
        after_verb: bool,
        installed: InstalledIndex,
        d: Draft,
    ) -> None:
        w = ws[i]
        raw = w.text
        if not raw:
            return
        word = strip_suffixes(raw)
        key = normalise(word)
        if lexicon.pattern("reading", "time_residue").search(raw):
            if in_reason:
                d.mark(w.start, w.end, "context")  # "지름신 오기 전에": said about something else
                return
            d.residue.append(raw)
            d.mark(w.start, w.end, "unread", "time")
            return
        if any(is_filler(f) for f in peel(raw)) or raw in suffix_set() or not key:
            d.mark(w.start, w.end, "filler")
            return
        read: list[tuple[int, AppMatch | Unresolved]] = [*d.apps, *d.unresolved]
        named = [(ws[k].text, m) for k, m in read if k == i - 1]
        if named and (whole := next(
            (hit for f in (word, *peel(raw)) if (hit := rest_of_label(named[0], f, installed))), None
        )):
            d.read_again(ws, i - 1, whole)  # "구글 문서": one label, "구글" its first word
            return self._keep_out_read_again(ws, i, d)
        nxt = next((x.text for x in ws[i + 1 :] if x.text), "")
        if _asks_can_you(key, nxt, next((x.text for x in ws[i + 2 :] if x.text), "")):
            d.mark(w.start, w.end, "filler")  # "꺼 주실 수 있나요": can you, not a word of the rule
            return
        markers = (lexicon.pattern("markers", "except"), lexicon.pattern("markers", "keep"))
        tail = lexicon.pattern("markers", "except_before_tail")
        if any(rx.fullmatch(f) for rx in markers for f in peel(raw)) or (
            except_before(ws, i) and (
                self._next_is_app(ws, i)
                or (i + 1 < len(ws) and bool(tail.fullmatch(ws[i + 1].text.lower())))
            )
        ) or (i > 0 and except_before(ws, i - 1) and tail.fullmatch(raw.lower())) or (
            i + 1 < len(ws)
            and (except_before_all(raw, ws[i + 1].text) or markers[1].fullmatch(f"{raw} {ws[i + 1].text}"))
        ):
            d.mark(w.start, w.end, "filler", "exception")
            return
        if in_reason or (_is_context_word(raw) and not self._names_app_after(raw, installed)) or (
            ends_reason_clause(raw, words_after(ws, i)) and not joins_commands(raw)
            and not misspelt_app_before_notification(self._mapper, ws, i, installed)
        ):
            if lexicon.pattern("context", "talk_end.endings", anchored="$").search(raw) or (
                lexicon.pattern("context", "talk_end.statement", anchored="$").search(raw)
            ):
                # "보다가", "답장이 없네": what the user did or saw, a verb of no intent
                d.predicates.append(raw)
            d.mark(w.start, w.end, "context")
            return
        if raw in ("안", "못") and any(w.end < a <= w.end + 5 for a, _ in d.cue_spans):
            return d.mark(w.start, w.end, "intent")  # "안 울려도 돼": the verb's own negation
        overlapping = [a for a, b in d.cue_spans if a < w.end and w.start < b]
        if overlapping:
            cut = min(overlapping) - w.start
            if cut > 0 and re.search(r"[가-힣A-Za-z]", raw[:cut]):
                # "틱탁알림꺼ㅓ줘": a word glued to the verb is no part of it; placed on its own
                # it is an app, a keyword, filler or a word to ask about, never dropped.
                head = Word(raw[:cut], w.start, w.start + cut)
                self._place_leftover(
                    [*ws[:i], head, *ws[i + 1 :]], i, in_reason, after_verb, installed, d
                )
                d.mark(w.start + cut, w.end, "intent")
                return
            d.mark(w.start, w.end, "intent")  # part of an intent verb ("안 보고 싶어")
            return
        # "원스토어하고 플레이스토어": 하고 joins two names; a 2-syllable verbal noun ("생각하고") acts.
        listed = len(word) >= 3 and raw.endswith(CONJUNCTIONS) and self._next_is_app(ws, i) and not (
            says_intent_verb(raw))
        if mute_cue().fullmatch(raw) or (is_verb(raw) and not listed):
            if not (mute_cue().search(raw) or allow_cue_in(raw)):
                d.predicates.append(raw)
            d.mark(w.start, w.end, "intent" if (mute_cue().search(raw) or allow_cue_in(raw)) else "filler")
            return
        # A bare number or a count of the apps just named ("6개 다 꺼줘", "두개 다").
        prev = ws[i - 1].text if i else ""
        if _COUNT.fullmatch(key) or _MIMETIC.fullmatch(key) or lexicon.pattern(
            "filler", "emoticon"
        ).fullmatch(raw) or (
            _COUNT.fullmatch(f"{key} {strip_suffixes(nxt)}") or _COUNT.fullmatch(f"{prev} {key}")
        ):  # "이 세 개만 살려 두고": the count, spaced, of the apps just named
            return d.mark(w.start, w.end, "filler")
        devices = lexicon.words("markers", "non_notification_targets.words")
        if any(normalise(f) in devices for f in peel(raw)):
            d.devices.append(word)
            return d.mark(w.start, w.end, "context", "device")
        if is_topic(word) and d.typed_onto_unread(ws, i):
            # "해피포인트 알림": a topic typed onto a word nobody read ends a name we do not know
            # (an app the device lacks), not a keyword of the rule: one word, asked about.
            return d.join_to_unread(ws[i - 1], w)
        if is_topic(word):
            if word not in d.content:
                d.content.append(word)
            d.mark(w.start, w.end, "keyword", word)
            return
        if glued := split_glued(self._mapper, raw, installed) or split_heard(
            self._mapper, raw, installed
        ):  # "페붘스레드": 페북 and 스레드; "체스닷컴리체스": Chess.com and Lichess
            d.apps += [(i, m) for m in glued if isinstance(m, AppMatch)]
            d.unresolved += [(i, m) for m in glued if isinstance(m, Unresolved)]
            return d.mark(w.start, w.end, "app", ", ".join(filter(None, map(_label_of, glued))))
        res = self._mapper.resolve(word, installed)  # misspellings, embeddings
        if res is None and word != raw and raw[len(word) :] in suffix_set():
            # What looked like a particle may end the name: "아사나" is Asana, not "아사" + 나.
            res = self._mapper.resolve(raw, installed)
        if res is None:
            # "츄이랑": the particle is 랑, not 이랑 — a shorter peel may be the name (Chewy).
            res = next((
                m for f in peel(raw)[1:] if len(f) >= 2 and f != word
                and isinstance(m := self._mapper.resolve(f, installed, embeddings=False), AppMatch)
            ), None)
        if res is None and (
            before_notification_word(ws, i) or coordinated(ws, i) or raw.endswith(CONJUNCTIONS)
        ):
            # "캄 알림", "숲이랑 트위치": one syllable that says a short label whole, standing
            # where an app stands.
            res = next((
                m for f in peel(raw) if len(normalise(f)) == 1
                and (m := self._mapper.heard_short(f, installed)) is not None
            ), None)
        if isinstance(res, AppMatch) and res.method == "embedding" and named_by_another(
            self._mapper, ws, i, res.app, installed
        ):
            # "원스토어랑플레이스토어": 원스토어 is close in meaning to Play 스토어, which the next
            # word names by the table. Nobody names one app twice: the word is another app.
            res = None
        if isinstance(res, AppMatch):
            d.apps.append((i, res))
            d.mark(w.start, w.end, "app", res.app.label)
        elif isinstance(res, Unresolved):
            d.unresolved.append((i, res))
            d.mark(w.start, w.end, "app", res.known_as)
        elif (
            (d.apps or d.unresolved)
            and before_notification_word(ws, i)
            and not kept_before_marker(ws, i)
            and not self._next_is_app(ws, i)
            and not after_verb
            and not coordinated(ws, i)
            and not after_app(ws, i, d.app_at())
        ):
            # Between an app and 알림 ("문자 스팸 알림"), a noun narrows that app's alerts —
            # unless it stands in a list of apps ("인스타 뿌까톡 알림"): then it may be an app
            # itself, and the model or a question decides.
            if word not in d.content:
                d.content.append(word)
            d.mark(w.start, w.end, "keyword", word)
        else:
            d.unknown.append(word)
            # A glued run holding an app's name or an exception word is never loose, whatever
            # it ends with ("면접보러들어가요전화빼고": 전화 is kept, the rest muted).
            marked = any(
                lexicon.pattern("markers", key).search(raw) for key in ("except", "keep")
            )
            if marked:
                d.marked.append(word)
            holds_more = marked or bool(self._mapper.apps_inside(raw, installed))
            if not holds_more and not stands_as_target(
                ws, i, word, d.app_at(), next_is_app=self._next_is_app(ws, i)
            ):
                d.loose.append(word)
            d.mark(w.start, w.end, "unread")

    def _next_is_app(self, ws: list[Word], idx: int) -> bool:
        """Whether the next word names an app ("뿌까톡 알람앱": the clock app), so the word is
        one more item of a list, not a noun narrowing the app before it."""
        nxt = next((w.text for w in ws[idx + 1 :] if w.text), "")
        return bool(nxt) and any(self._mapper.is_app_word(f) for f in peel(nxt))

    @staticmethod
    def _apply_exclusions(d: Draft) -> None:
        """"X 빼고 다 꺼줘": with nothing else named, the kept apps are the target.

        The verb flips (only X gets through; "X 빼고 다 받을래" silences X). With something else
        named ("X 빼고 Y 꺼줘") Y is the target and X is simply left out of the rule.
        """
        if not d.kept:
            if d.content and d.excepts_content and not d.unknown and d.mute is not None:
                # "'시험' 들어간 거 빼고 다 꺼줘": only notifications with the keyword get through.
                d.mute = not d.mute
            return
        if d.apps or d.unresolved or d.content or d.unknown:
            return
        if d.mute is not None:
            d.mute = not d.mute
            d.all_but = True
        # Without a verb the model decides intent, trained on the same reading ("X 빼고" → 허용).
        d.apps = [(i, r) for i, r in d.kept if isinstance(r, AppMatch)]
        d.unresolved = [(i, r) for i, r in d.kept if isinstance(r, Unresolved)]
        d.excluded.clear()
        d.spans = [
            ReadSpan(s.start, s.end, "app", s.label) if s.kind == "exclusion" else s
            for s in d.spans
        ]

    def _names_app_after(self, raw: str, installed: InstalledIndex) -> bool:
        """A context word typed onto more words among which the table names an app
        ("회의만4개임팀즈만"): the word is no context as a whole — read so, it swallowed 팀즈."""
        head = _context_word_at_start(raw)
        if head is None or len(raw) - head.end() < 2:
            return False
        return any(
            start >= len(normalise(head.group(0))) and isinstance(found, AppMatch)
            for start, _, found in self._mapper.names_inside(normalise(raw), installed)
        )

    @staticmethod
    def _keep_out_read_again(ws: list[Word], i: int, d: Draft) -> None:
        """A label of two words read again from its first word (word `i` - 1) and its rest (word
        `i`) is kept out when the marker follows its rest ("유투브 뮤직 빼고 다 꺼"): the marker
        stood after no app when the exclusions were first read, so the label and the apps listed
        with it before the marker ("카톡이랑 유투브 뮤직 빼고") are kept out now."""
        read: list[tuple[int, AppMatch | Unresolved]] = [*d.apps, *d.unresolved]
        found = [(i if k == i - 1 else k, m) for k, m in read]
        # The label stands at its last word; its first word is left empty, as an n-gram's are.
        joined = [*ws[: i - 1], Word("", ws[i - 1].start, ws[i - 1].start), *ws[i:]]
        out = {i - 1 if k == i else k for k in kept_out_at(joined, found)}
        for k, m in read:
            if k not in out:
                continue
            d.apps = [(j, x) for j, x in d.apps if j != k]
            d.unresolved = [(j, x) for j, x in d.unresolved if j != k]
            end = ws[i].end if k == i - 1 else ws[k].end
            text = " ".join(w.text for w in ws[k : i + 1]) if k == i - 1 else ws[k].text
            d.excluded.append(text)
            d.kept.append((k, m))
            a, b = d.text.span_in_source(ws[k].start, end)
            d.spans = [sp for sp in d.spans if sp.end <= a or sp.start >= b]
            d.mark(ws[k].start, end, "exclusion", _label_of(m))

    @staticmethod
    def _drop_generic_app_words(d: Draft, ws: list[Word]) -> None:
        """'메시지' beside another app is a generic noun ("카톡 메세지 알림"), not the Messages app
        — unless it is an item of a list of apps: joined to the others ("카톡이랑 메시지",
        "메시지랑 전화") or followed by another app ("카톡 메시지 전화만")."""
        if len(d.apps) < 2:
            return
        generic = lexicon.words("markers", "generic_app_words")
        app_at = {i for i, _ in d.apps}

        def listed(i: int) -> bool:
            nxt = next((k for k in range(i + 1, len(ws)) if ws[k].text), None)
            return coordinated(ws, i) or (nxt is not None and (nxt in app_at or coordinated(ws, nxt)))

        keep = [(i, m) for i, m in d.apps if normalise(m.word) not in generic or listed(i)]
        if keep and len(keep) < len(d.apps):
            d.apps = keep


def _label_of(res: AppMatch | Unresolved) -> str | None:
    return res.app.label if isinstance(res, AppMatch) else res.known_as


def _spacing_names(installed: InstalledIndex) -> tuple[str, ...]:
    # A label's own last words count as a name ("레진이랑시리즈알림": 네이버 시리즈).
    return (*installed.labels, *installed.by_label_part)


def _predicate_start(text: str, ws: list[Word]) -> int:
    """Index in `ws` of the word where the first intent verb begins."""
    cues = [m.start() for rx in (mute_cue(), lexicon.pattern("intent", "allow")) if (m := rx.search(text))]
    if not cues:
        return len(ws)
    at = min(cues)
    for k, w in enumerate(ws):
        if w.end > at:
            return k
    return len(ws)


def _context_word_at_start(raw: str) -> re.Match[str] | None:
    return lexicon.pattern("context", "context_word", anchored="^").search(raw)


def _is_context_word(raw: str) -> bool:
    return _context_word_at_start(raw) is not None


def _asks_can_you(key: str, nxt: str, after: str) -> bool:
    """Whether the word `key` (then `nxt`, `after`) is part of "…수 있나요" asking the service, or
    the auxiliary before it ("꺼 주실 수 있어요"), as `filler.can_you` lists them."""
    noun = lexicon.raw_words("filler", "can_you.noun")[0]
    verbs = lexicon.raw_words("filler", "can_you.verbs")
    return (key == noun and nxt.startswith(verbs)) or (
        key in lexicon.raw_words("filler", "can_you.aux") and nxt == noun and after.startswith(verbs)
    )
