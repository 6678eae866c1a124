"""Keywords the user names: quoted words ("'마감'"), and words in a frame that names a keyword
("'시험'이라는 말", "세일 들어간 거"). A step of `RuleSlotReader`."""

from __future__ import annotations

import re

from notillm_local import lexicon
from notillm_local.lexicon import normalise
from notillm_local.stages.apps import AppMapper
from notillm_local.stages.draft import Draft
from notillm_local.stages.reading import ReadSpan
from notillm_local.stages.words import is_filler, strip_suffixes, suffix_set

# "'시험' 들어간 거 빼고": an exception marker right after a keyword frame.
_EXCEPT_AFTER_FRAME = re.compile(
    r"\s*(?:거|것|건|게|애들?|알림|메시지|메세지)?\s*(?:은|는|만|들)?\s*(?:빼고|빼구|말고|제외하고|외에)"
)

_QUOTE_CHARS = frozenset("'\"‘’“”「」『』`")


def frame_words() -> frozenset[str]:
    return lexicon.words("reading", "frame_words")


def read_quoted(text: str, original: str, d: Draft) -> str:
    """Quoted words are keywords as the user wrote them, time words inside included."""

    def take(m: re.Match[str]) -> str:
        word = original[m.start(1) : m.end(1)].strip()
        if word and normalise(word) not in frame_words() and word not in d.content:
            d.content.append(word)
            d.quoted.append(word)
            d.spans.append(ReadSpan(m.start(), m.end(), "keyword", word))
        # Keep "들어간 거 빼고" after the quote readable: only the quote itself is blanked.
        return "'" + " " * (m.end() - m.start() - 2) + "'"

    return lexicon.pattern("reading", "quoted").sub(take, text)

def read_frames(mapper: AppMapper, text: str, d: Draft) -> str:
    """Keywords named by a frame ("'마감'이라는 말", "세일 들어간"): the word is a keyword, the frame
    filler; returns the text with each frame blanked."""
    for key in ("named_word", "contains"):
        for m in list(lexicon.pattern("reading", key).finditer(text)):
            raw = m.group(1)
            word = strip_suffixes(raw)
            if not normalise(word) and raw.strip() in _QUOTE_CHARS:
                # The frame of a quoted keyword ("'마감'이라는 말 들어간"): already read.
                if d.content and _EXCEPT_AFTER_FRAME.match(text, m.end()):
                    d.excepts_content = True  # "'시험' 들어간 거 빼고"
                d.mark(m.end(1), m.end(), "filler")
                # A mark, not spaces: the frame still stands between the keyword and
                # what precedes it ("에타에서 '시험' 들어간 거 빼고" keeps 에타 out of 빼고).
                text = text[: m.end(1)] + "·" * (m.end() - m.end(1)) + text[m.end() :]
                continue
            if not normalise(word) or is_filler(word) or normalise(word) in frame_words():
                continue
            if raw.strip() in suffix_set() or mapper.is_app_word(word):
                continue  # "카톡 관련 알림" names the app, not a keyword
            if word not in d.content:
                d.content.append(word)
            d.mark(m.start(1), m.end(1), "keyword", word)
            d.mark(m.end(1), m.end(), "filler")
            if _EXCEPT_AFTER_FRAME.match(text, m.end()):
                d.excepts_content = True
            # Blank the whole frame, so "이라고 적힌" leaves nothing for the next frame.
            text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    return text
