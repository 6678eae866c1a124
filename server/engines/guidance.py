"""GBNF grammars as full-vocabulary token masks, computed by llguidance.

llguidance is the grammar engine llama.cpp itself can be built with. Given the model's vocabulary
once, it answers "which of all 262,144 tokens may come next" in tens of microseconds, so the
decoder never has to guess a shortlist and never asks about tokens one by one. The `.gbnf` files
stay the source grammars; they are converted to llguidance's Lark dialect on the way in.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import time
import unicodedata
from typing import Any

import numpy as np

from notillm_local.errors import ExtractionError, GrammarError

logger = logging.getLogger(__name__)

# No stderr output from the engine (its warnings can quote the grammar, i.e. prompt words), and
# no parser state in its error messages.
_LOG_LEVEL = 0


def unusable_char(text: str) -> str | None:
    """The first character no grammar engine here can take, described without quoting it.

    Lone surrogates cannot be encoded as UTF-8 at all; NUL ends a C string early (llama.cpp
    then fails to parse and prints the grammar); other control characters would let a label or
    keyword break the one-line record format. Tab, line feed and carriage return are allowed in
    grammar *text* (between rules, escaped in literals); callers decide whether a choice may
    hold them.
    """
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cs":
            return f"lone surrogate U+{ord(ch):04X}"
        if cat == "Cc" and ch not in "\t\n\r":
            return f"control character U+{ord(ch):04X}"
    return None


def check_grammar_text(text: str) -> None:
    """GrammarError, never a crash or a native print, for text the engines cannot take."""
    bad = unusable_char(text)
    if bad is not None:
        raise GrammarError(f"grammar holds a {bad}")


def build_tokenizer(vocab: Any) -> Any:
    """An llguidance tokenizer over a llama.cpp vocabulary (about 2 s for Gemma's 262k tokens).

    Built once per model. What `llguidance.llamacpp.lltokenizer_from_vocab` does, with
    llama.cpp's current attribute call (the one it uses warns once per token, 262k times) and
    mask slicing off (`slices=[]`): slices speed up grammars with broad regexes (free text,
    JSON strings); ours are finite word lists, and they would add a second to the build.
    """
    import llama_cpp
    import llguidance

    t0 = time.perf_counter()
    n = int(llama_cpp.llama_vocab_n_tokens(vocab))
    size = 16 * 1024
    buf = ctypes.create_string_buffer(size + 1)
    special = llama_cpp.LLAMA_TOKEN_ATTR_CONTROL
    user_defined = llama_cpp.LLAMA_TOKEN_ATTR_USER_DEFINED
    to_piece, get_attr = llama_cpp.llama_token_to_piece, llama_cpp.llama_vocab_get_attr
    string_at = ctypes.string_at
    tokens: list[bytes] = []
    for tok in range(n):
        k = to_piece(vocab, tok, buf, size, 0, True)
        if k < 0:
            raise GrammarError(f"token {tok} has a piece longer than {size} bytes")
        piece = string_at(buf, k)
        attr = get_attr(vocab, tok)
        # A leading 0xff marks a special token, which no text grammar can then produce.
        if attr & special or (
            attr & user_defined and piece.startswith(b"<") and piece.endswith(b">")
        ):
            piece = b"\xff" + piece
        tokens.append(piece)
    fptr = ctypes.cast(llama_cpp.llama_cpp._lib.llama_tokenize, ctypes.c_void_p).value
    tokenizer = llguidance.LLTokenizer.from_llamacpp(  # type: ignore[attr-defined]
        tokens=tokens,
        vocab_ptr=vocab,
        tokenize_fptr=fptr,
        eos_token=llama_cpp.llama_vocab_eos(vocab),
        slices=[],
    )
    logger.info("llguidance tokenizer: %d tokens in %.2fs", n, time.perf_counter() - t0)
    return tokenizer


@functools.lru_cache(maxsize=64)
def to_lark(gbnf: str) -> str:
    """The GBNF text as an llguidance grammar (static grammars are converted once)."""
    import llguidance
    from llguidance.gbnf_to_lark import any_to_lark

    check_grammar_text(gbnf)
    try:
        lark = any_to_lark(gbnf)
    except Exception as exc:  # the converter raises its own error and plain ValueErrors
        raise GrammarError(f"GBNF to Lark conversion failed: {type(exc).__name__}") from exc
    return str(llguidance.LLMatcher.grammar_from_lark(lark))


class GuidedGrammar:
    """One grammar's matcher: a full token mask per step, then the chosen token."""

    def __init__(self, tokenizer: Any, text: str) -> None:
        import llguidance
        import llguidance.numpy as llg_np

        self.text = text
        self._llg_np = llg_np
        limits = llguidance.LLParserLimits(verbose_errors=False)
        self._matcher = llguidance.LLMatcher(
            tokenizer, to_lark(text), log_level=_LOG_LEVEL, limits=limits
        )
        if self._matcher.is_error():
            raise GrammarError(f"llguidance rejected the grammar: {self._matcher.get_error()}")
        self._n_vocab = int(tokenizer.vocab_size)
        self._bitmask = llg_np.allocate_token_bitmask(1, self._n_vocab)
        self._bit = np.arange(32, dtype=np.int64)
        self.consumed = 0

    def reset(self) -> None:
        self._matcher.reset()
        self.consumed = 0

    def allowed_ids(self) -> np.ndarray:
        """Every token id the grammar admits next, ascending; the full vocabulary is asked."""
        self._llg_np.fill_next_token_bitmask(self._matcher, self._bitmask)
        if self._matcher.is_error():
            raise ExtractionError(f"grammar engine failed: {self._matcher.get_error()}")
        words = self._bitmask[0]
        # Only the 32-bit words with any allowed token are expanded: a step admits a handful
        # of tokens, so this touches a few words instead of 262k logits.
        hot = np.flatnonzero(words)
        if hot.size == 0:
            return hot
        bits = (words[hot].astype(np.int64)[:, None] >> self._bit) & 1
        ids = (hot[:, None] * 32 + self._bit)[bits.astype(bool)]
        return ids[ids < self._n_vocab]

    def allowed_mask(self, token_ids: np.ndarray) -> np.ndarray:
        """Boolean mask over `token_ids`: which of them the grammar admits next."""
        allowed = self.allowed_ids()
        return np.isin(token_ids, allowed)

    def accept(self, token_id: int) -> None:
        if not self._matcher.consume_token(token_id):
            raise ExtractionError("grammar engine refused the chosen token")
        self.consumed += 1

    def forced_bytes(self) -> bytes:
        """Bytes every continuation must start with (e.g. the closing newline)."""
        return bytes(self._matcher.compute_ff_bytes())

    def forced_tokens(self) -> list[int]:
        """Tokens for the forced bytes, as far as their tokenization is certain."""
        return list(self._matcher.compute_ff_tokens())

    def rollback(self, n_tokens: int) -> None:
        if not self._matcher.rollback(n_tokens):
            raise ExtractionError("grammar engine could not roll back")
        self.consumed -= n_tokens

    def is_accepting(self) -> bool:
        """The grammar may end here."""
        return bool(self._matcher.is_accepting())

    def is_stopped(self) -> bool:
        """Nothing may follow but the end."""
        return bool(self._matcher.is_stopped())

    def close(self) -> None:
        """Nothing native to free by hand; kept so both grammar kinds close alike."""
