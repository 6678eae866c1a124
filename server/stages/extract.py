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
from dataclasses import dataclass

from notillm_local.domain import AppMatch
from notillm_local.engines.grammars import GrammarSet
from notillm_local.engines.local import GenerationStats, LocalModel
from notillm_local.errors import NotillmError
from notillm_local.settings import ExtractorMode
from notillm_local.stages.apps import InstalledIndex, Unresolved, normalise
from notillm_local.stages.slots import RuleSlotReader, SlotReading, blank_spans, strip_suffixes

logger = logging.getLogger(__name__)

MUTE_WORD, ALLOW_WORD = "끄기", "허용"
NONE_WORD, OTHER_APP_WORD = "없음", "기타"

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


@dataclass
class Extraction:
    reading: SlotReading
    llm_calls: int = 0
    stats: GenerationStats | None = None


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

    def read(self, prompt: str, time_spans: list[tuple[int, int]], installed: InstalledIndex) -> SlotReading:
        """Code's reading of everything outside the time spans; never calls the model."""
        return self._reader.read(blank_spans(prompt, time_spans), installed, original=prompt)

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
        """Let the model fill the slots code left unsure (all slots in model mode)."""
        if not self.wants_model(reading):
            return Extraction(reading=reading)
        assert self._model is not None
        rest = blank_spans(prompt, time_spans)
        with self._model.turn(timeout_s=timeout_s, max_waiting=max_waiting):
            stats = GenerationStats()
            self._ask_model(prompt, rest, reading, installed, stats)
        logger.debug("model extraction: %s", stats)
        return Extraction(reading=reading, llm_calls=1, stats=stats)

    def warm(self) -> None:
        """Evaluate the fixed prefix once at start-up so no request pays for it."""
        if self._model is None or self._mode is ExtractorMode.RULES:
            return
        try:
            # Runs in a background thread: a failure only means the first model request pays
            # for the prefix itself, so it is logged, never raised.
            with self._model.turn(timeout_s=60, max_waiting=1 << 16):
                self._model.feed(self._prefix())
        except NotillmError as exc:
            logger.warning("prefix warm-up skipped: %s", type(exc).__name__)

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
        stats: GenerationStats,
    ) -> None:
        m = self._model
        assert m is not None
        full = self._mode is ExtractorMode.MODEL
        # The prompt goes in on one line: a newline would break the record format.
        line = re.sub(r"\s+", " ", prompt)
        tokens = self._prefix() + m.tokenize(f"\n문장: {line}\n의도:")

        if full or "intent" in r.unsure:
            said = m.generate(
                tokens, m.grammar(self._grammars.intent), max_tokens=6, stats=stats
            ).strip()
            # The few-shot cases read "X 빼고 다 꺼줘" as 허용 already: no flip here.
            r.mute = said == MUTE_WORD
            r.unsure.discard("intent")
        else:
            said = MUTE_WORD if r.mute else ALLOW_WORD
        tokens = tokens + m.tokenize(f" {said}\n앱:")

        if not (full or "target" in r.unsure):
            return
        if full:
            labels = list(installed.labels)
        else:
            labels = []  # code already tried every installed label for these words
        apps_said = m.generate(
            tokens,
            m.grammar(self._grammars.apps_for(labels)),
            max_tokens=self._max_new,
            stats=stats,
        ).strip()
        tokens = tokens + m.tokenize(f" {apps_said}\n키워드:")
        candidates = _keyword_candidates(rest) if full else list(r.unknown_words)
        kws_said = NONE_WORD
        if candidates:
            kws_said = m.generate(
                tokens,
                m.grammar(self._grammars.keywords_for(candidates)),
                max_tokens=self._max_new,
                stats=stats,
            ).strip()
        self._apply_targets(r, apps_said, kws_said, installed, full)
        r.unsure.discard("target")

    @staticmethod
    def _apply_targets(
        r: SlotReading, apps_said: str, kws_said: str, installed: InstalledIndex, full: bool
    ) -> None:
        kws = [] if kws_said == NONE_WORD else [k.strip() for k in kws_said.split(",")]
        if full:
            r.apps, r.content = [], []
            if apps_said not in (NONE_WORD, OTHER_APP_WORD):
                for label in apps_said.split(", "):
                    app = installed.by_norm_label.get(normalise(label))
                    if app is not None:
                        r.apps.append(AppMatch(word=label, app=app, score=1.0, method="model"))
            r.content = kws
        elif apps_said == OTHER_APP_WORD:
            # The unplaced words name an app, but not an installed one.
            names = [w for w in r.unknown_words if w not in kws] or r.unknown_words
            r.unresolved.extend(Unresolved(word=w, known_as=None) for w in names[:1])
            r.content.extend(k for k in kws if k not in names)
        elif apps_said == NONE_WORD and not kws and r.unknown_words and not r.apps:
            # The user named something the model could place neither as app nor as keyword.
            # Widening to "every notification" would be a rule they did not ask for: report
            # the words as an app we could not find, so the answer asks instead.
            r.unresolved.extend(Unresolved(word=w, known_as=None) for w in r.unknown_words[:1])
        else:
            r.content.extend(k for k in kws if k not in r.content)
        r.unknown_words = []
        r.all = not r.apps and not r.unresolved and not r.content


def _keyword_candidates(text: str) -> list[str]:
    """The prompt's own words, particles peeled, as the only keywords the model may choose."""
    out: list[str] = []
    for tok in re.split(r"[\s,.!?~'\"‘’“”]+", text):
        w = strip_suffixes(tok)
        if len(w) >= 1 and w not in out and not re.fullmatch(r"[0-9]+", w):
            out.append(w)
    return out[:40]
