"""The local GGUF model under llama-cpp-python, decoded greedily under a GBNF grammar.

Why not `Llama.create_completion(grammar=...)`: its sampler chain runs the penalty and grammar
samplers over the whole 262k-token Gemma vocabulary at every step, in llama.cpp's GBNF engine,
which made grammar-held generation 2-3x slower than free generation here. This decoder asks
llguidance (engines/guidance.py) for the full mask of allowed tokens at every step (tens of
microseconds) and takes the best-scoring allowed token, so the output is exactly what the
grammar admits, with no shortlist to guess and no slow path (docs/decoder.md has the bench). It
also keeps the evaluated tokens so a request re-evaluates only what differs from the previous
prompt (the fixed few-shot prefix stays in the KV cache).

llama.cpp's own GBNF engine stays available (`LlamaCppGrammar`, `accepts_llama_cpp`): the tests
hold llguidance's reading of every grammar to it.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from notillm_local.engines.guidance import GuidedGrammar, build_tokenizer, check_grammar_text
from notillm_local.errors import (
    DeadlineExceeded,
    ExtractionError,
    GrammarError,
    ModelLoadError,
    Overloaded,
)

logger = logging.getLogger(__name__)

# llama_token_data as numpy sees it (id, logit, p; C layout).
_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


@dataclass
class GenerationStats:
    prompt_tokens: int = 0  # tokens actually evaluated (after prefix reuse)
    reused_tokens: int = 0
    generated_tokens: int = 0  # tokens chosen from the model's logits
    forced_tokens: int = 0  # closing tokens the grammar left no choice about (not evaluated)
    full_vocab_fallbacks: int = 0  # always 0 since the full mask is computed at every step
    mask_seconds: float = 0.0  # grammar masks and token choice, model evaluation excluded
    seconds: float = 0.0


# -- native output ----------------------------------------------------------------------------
# llama.cpp and ggml report through one callback; llama-cpp-python's default prints errors to
# stderr, and a grammar error quotes the grammar, i.e. the user's words.
_log_callback: Any = None
_log_private = True
# ggml_log_level in this llama.cpp (llama-cpp-python's _logger.py still has an older order).
_LOG_LEVELS = {3: "warning", 4: "error"}


def route_native_logs(*, privacy: bool = True) -> None:
    """Send llama.cpp's and ggml's log lines to Python logging at DEBUG, never to stderr.

    With `privacy` only the level and length of a line are logged, as any line may quote
    prompt words (a grammar, a token piece).
    """
    global _log_callback, _log_private
    import llama_cpp

    _log_private = privacy
    if _log_callback is not None:
        return

    def sink(level: int, text: bytes | None, _user_data: ctypes.c_void_p) -> None:
        try:
            if not logger.isEnabledFor(logging.DEBUG) or not text:
                return
            if _log_private:
                name = _LOG_LEVELS.get(level)
                if name is not None:
                    logger.debug("llama.cpp %s withheld (%d bytes)", name, len(text))
            else:
                logger.debug("llama.cpp: %s", text.decode("utf-8", errors="replace").rstrip())
        except Exception:  # pragma: no cover - an exception must never cross into C
            pass

    # Kept in a module global: llama.cpp holds only the raw pointer.
    _log_callback = llama_cpp.llama_log_callback(sink)
    llama_cpp.llama_log_set(_log_callback, ctypes.c_void_p(0))


_stderr_lock = threading.Lock()


@contextmanager
def _stderr_silenced() -> Iterator[None]:
    """fd 2 to /dev/null: llama.cpp's GBNF parser prints a failing grammar with fprintf.

    Only llama.cpp's own grammar engine needs this (tests, the bench); serving compiles
    grammars with llguidance, which prints nothing. Other threads' stderr output in this
    window (microseconds) is lost as well.
    """
    with _stderr_lock:
        sys.stderr.flush()
        saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)


class LlamaCppGrammar:
    """A GBNF grammar parsed by llama.cpp itself; one sampler per generation."""

    def __init__(self, vocab: ctypes.c_void_p, text: str, root: str = "root") -> None:
        import llama_cpp

        check_grammar_text(text)
        self.text = text
        self._llama_cpp = llama_cpp
        with _stderr_silenced():
            smpl = llama_cpp.llama_sampler_init_grammar(
                vocab, text.encode("utf-8"), root.encode()
            )
        if not smpl:
            raise GrammarError("llama.cpp rejected the grammar")
        self._smpl = smpl

    def allowed(self, token_ids: np.ndarray) -> np.ndarray:
        """Boolean mask: which of these tokens the grammar admits next."""
        lc = self._llama_cpp
        # A numpy buffer laid out as llama_token_data[]: no per-token Python work, so asking
        # about the whole 262k vocabulary costs only llama.cpp's own grammar check.
        data = np.zeros(len(token_ids), dtype=_TOKEN_DATA)
        data["id"] = token_ids
        arr = lc.llama_token_data_array(
            data=data.ctypes.data_as(ctypes.POINTER(lc.llama_token_data)),
            size=len(token_ids),
            selected=-1,
            sorted=False,
        )
        lc.llama_sampler_apply(self._smpl, ctypes.byref(arr))
        return np.isfinite(data["logit"])

    def accept(self, token_id: int) -> None:
        self._llama_cpp.llama_sampler_accept(self._smpl, token_id)

    def close(self) -> None:
        if self._smpl:
            self._llama_cpp.llama_sampler_free(self._smpl)
            self._smpl = None

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:
            pass


class LocalModel:
    """One llama.cpp context; callers take a `turn` for a whole request."""

    def __init__(
        self,
        path: Path,
        *,
        n_threads: int = 2,
        n_ctx: int = 1024,
        lora_path: Path | None = None,
        model_id: str | None = None,
        privacy: bool = True,
    ) -> None:
        if not path.is_file():
            raise ModelLoadError(f"model file not found: {path}")
        if lora_path is not None and not lora_path.is_file():
            raise ModelLoadError(f"adapter file not found: {lora_path}")
        import llama_cpp

        self._lc = llama_cpp
        route_native_logs(privacy=privacy)
        t0 = time.perf_counter()
        try:
            self._llm = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_batch=256,
                n_threads=n_threads,
                n_threads_batch=n_threads,
                lora_path=str(lora_path) if lora_path else None,
                verbose=False,
                seed=0,
            )
        except Exception as exc:  # llama.cpp reports corrupt files as ValueError/RuntimeError
            raise ModelLoadError(f"could not load GGUF model {path}: {exc}") from exc
        self.load_seconds = time.perf_counter() - t0
        self.path = path
        self.model_id = model_id or path.stem
        self.lora_path = lora_path
        self.n_ctx = n_ctx
        self.lock = threading.Lock()
        self._waiting = 0
        self._waiting_lock = threading.Lock()
        self._vocab = self._llm._model.vocab
        self._n_vocab = self._llm.n_vocab()
        self._tokens: list[int] = []
        self._piece_cache: dict[int, bytes] = {}
        # llguidance's view of the vocabulary takes about 2 s to build: built beside the rest of
        # start-up (encoder, prefix warm-up); the first grammar waits for it.
        self._guidance_vocab: Any = None
        self._guidance_failure: str | None = None
        self._guidance_ready = threading.Event()
        threading.Thread(
            target=self._build_guidance_vocab, name="llguidance-vocab", daemon=True
        ).start()
        logger.info("loaded %s in %.2fs", path.name, self.load_seconds)

    def _build_guidance_vocab(self) -> None:
        try:
            self._guidance_vocab = build_tokenizer(self._vocab)
        except Exception as exc:  # surfaced to the first caller that needs a grammar
            self._guidance_failure = f"{type(exc).__name__}: {exc}"
            logger.error("llguidance tokenizer failed: %s", self._guidance_failure)
        finally:
            self._guidance_ready.set()

    def guidance_vocab(self) -> Any:
        """The llguidance tokenizer (waits for the start-up build)."""
        self._guidance_ready.wait()
        if self._guidance_vocab is None:
            raise ModelLoadError(f"llguidance tokenizer unavailable: {self._guidance_failure}")
        return self._guidance_vocab

    # -- one request at a time --------------------------------------------------------------
    @contextmanager
    def turn(self, *, timeout_s: float, max_waiting: int) -> Iterator[None]:
        """Hold the context for one request; a bounded queue with a deadline in front of it.

        llama.cpp contexts are not re-entrant, so requests take turns; beyond `max_waiting`
        callers are told to come back later instead of piling up behind the model.
        """
        with self._waiting_lock:
            if self._waiting >= max_waiting:
                raise Overloaded(retry_after_s=max(1, int(timeout_s / 4)))
            self._waiting += 1
        try:
            if not self.lock.acquire(timeout=max(0.0, timeout_s)):
                raise DeadlineExceeded(f"model busy for more than {timeout_s:.1f}s")
        finally:
            with self._waiting_lock:
                self._waiting -= 1
        try:
            yield
        finally:
            self.lock.release()

    # -- tokens ---------------------------------------------------------------
    def tokenize(self, text: str, *, bos: bool = False) -> list[int]:
        return list(self._llm.tokenize(text.encode("utf-8"), add_bos=bos, special=False))

    def bos(self) -> list[int]:
        return [self._llm.token_bos()]

    def piece(self, token_id: int) -> bytes:
        p = self._piece_cache.get(token_id)
        if p is None:
            p = self._llm.detokenize([token_id])
            self._piece_cache[token_id] = p
        return p

    def grammar(self, text: str) -> GuidedGrammar:
        """A GBNF grammar compiled by llguidance, for `generate`."""
        return GuidedGrammar(self.guidance_vocab(), text)

    def llama_cpp_grammar(self, text: str) -> LlamaCppGrammar:
        """The same GBNF grammar parsed by llama.cpp's own engine (tests, the bench)."""
        return LlamaCppGrammar(self._vocab, text)

    def accepts(self, grammar_text: str, text: str) -> bool:
        """Whether the decoder's grammar engine (llguidance) admits exactly `text`.

        Token by token, in the model's own tokenization, then the end: after the last token
        the grammar must be complete.
        """
        g = self.grammar(grammar_text)
        for tok in self.tokenize(text):
            if not g.allowed_mask(np.array([tok]))[0]:
                return False
            g.accept(tok)
        return g.is_accepting()

    def accepts_llama_cpp(self, grammar_text: str, text: str) -> bool:
        """The same question put to llama.cpp's GBNF engine: after the last token only an
        end-of-generation token may follow.
        """
        g = self.llama_cpp_grammar(grammar_text)
        try:
            for tok in self.tokenize(text):
                if not g.allowed(np.array([tok], dtype=np.int32))[0]:
                    return False
                g.accept(tok)
            eos = np.array([self._llm.token_eos()], dtype=np.int32)
            return bool(g.allowed(eos)[0])
        finally:
            g.close()

    # -- evaluation -----------------------------------------------------------
    def feed(self, tokens: list[int], stats: GenerationStats | None = None) -> None:
        """Make `tokens` the whole context, reusing the longest common prefix in the KV cache."""
        if len(tokens) >= self.n_ctx:
            raise ExtractionError(f"prompt of {len(tokens)} tokens exceeds n_ctx={self.n_ctx}")
        common = 0
        for a, b in zip(self._tokens, tokens, strict=False):
            if a != b:
                break
            common += 1
        # Re-evaluate at least the last token so fresh logits exist for it.
        common = min(common, len(tokens) - 1)
        self._llm.n_tokens = common
        self._tokens = self._tokens[:common]
        todo = tokens[common:]
        self._llm.eval(todo)
        self._tokens.extend(todo)
        if stats is not None:
            stats.prompt_tokens += len(todo)
            stats.reused_tokens += common

    def _append(self, token_id: int) -> None:
        self._llm.eval([token_id])
        self._tokens.append(token_id)

    def _append_all(self, token_ids: list[int]) -> None:
        self._llm.eval(token_ids)
        self._tokens.extend(token_ids)

    @staticmethod
    def _forced_ahead(
        grammar: GuidedGrammar, stop_bytes: bytes, limit: int
    ) -> tuple[list[int], bool]:
        """The tokens the grammar forces next (llguidance's canonical tokens for the bytes every
        continuation must start with), accepted, and whether they finish the answer.

        A closing `stop` is always taken: evaluating it would change nothing. Other forced
        tokens are taken up to `limit` (0: none, one model pass each as before). The answer's
        text is what it would be token by token; llama.cpp's batched and one-token passes
        differ in the last bits of the logits, so a near tie later in the answer may fall the
        other way (4 of 615 model-mode answers here, docs/decoder.md)."""
        forced = grammar.forced_tokens()
        if not forced:
            return [], False
        if grammar.forced_bytes() == stop_bytes:
            for tok in forced:
                grammar.accept(tok)
            if grammar.is_stopped():
                return forced, True
            grammar.rollback(len(forced))
        taken: list[int] = []
        for tok in forced[: max(0, limit)]:
            try:
                grammar.accept(tok)
            except ExtractionError:
                break
            taken.append(tok)
        return taken, bool(taken) and grammar.is_stopped()

    def _last_logits(self) -> np.ndarray:
        ptr = self._lc.llama_get_logits_ith(self._llm._ctx.ctx, -1)
        return np.ctypeslib.as_array(ptr, shape=(self._n_vocab,))

    def generate(
        self,
        prompt_tokens: list[int],
        grammar: GuidedGrammar,
        *,
        max_tokens: int,
        stop: str = "\n",
        stats: GenerationStats | None = None,
        fast_forward: bool = True,
    ) -> str:
        """Greedy decoding held by `grammar`; returns text up to and excluding `stop`.

        The grammar must end with `stop`, so finishing the grammar is seeing `stop`. The grammar
        starts from its beginning on every call. `fast_forward=False` evaluates the tokens the
        grammar forces one model pass each, as before (the decoder bench compares the two).
        """
        t0 = time.perf_counter()
        grammar.reset()
        self.feed(prompt_tokens, stats)
        stop_bytes = stop.encode("utf-8")
        out = b""
        mask_s = 0.0
        used = 0  # tokens of the answer so far, chosen or forced: `max_tokens` bounds both
        try:
            while used < max_tokens:
                tm = time.perf_counter()
                allowed = grammar.allowed_ids()
                if allowed.size == 0:
                    raise ExtractionError("grammar admits no further token")
                tok = int(allowed[np.argmax(self._last_logits()[allowed])])
                grammar.accept(tok)
                out += self.piece(tok)
                used += 1
                if stats is not None:
                    stats.generated_tokens += 1
                text = out.decode("utf-8", errors="ignore")
                if text.endswith(stop):
                    mask_s += time.perf_counter() - tm
                    return text[: -len(stop)]
                # Tokens the grammar leaves no choice about ("Microsoft" → " Teams") are taken
                # without asking the model and evaluated with this one in a single batch: one
                # model pass instead of one per token (each costs a full-vocabulary output).
                ahead, done = self._forced_ahead(
                    grammar, stop_bytes, max_tokens - used if fast_forward else 0
                )
                used += len(ahead)
                for f in ahead:
                    out += self.piece(f)
                if stats is not None:
                    stats.forced_tokens += len(ahead)
                mask_s += time.perf_counter() - tm
                text = out.decode("utf-8", errors="ignore")
                if done:
                    return text[: -len(stop)] if text.endswith(stop) else text
                self._append_all([tok, *ahead])
            raise ExtractionError(f"no complete answer within {max_tokens} tokens: {out!r}")
        finally:
            if stats is not None:
                stats.mask_seconds += mask_s
                stats.seconds += time.perf_counter() - t0

    def close(self) -> None:
        # Never free the context under a running decode (a background warm-up, a request), nor
        # under the tokenizer build, which reads the vocabulary.
        self._guidance_ready.wait()
        with self.lock:
            try:
                self._llm.close()
            except Exception:  # pragma: no cover
                pass
