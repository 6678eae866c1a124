"""The local GGUF model under llama-cpp-python, decoded greedily under a GBNF grammar.

Why not `Llama.create_completion(grammar=...)`: its sampler chain runs the penalty and grammar
samplers over the whole 262k-token Gemma vocabulary at every step, which made grammar-held
generation 2-3x slower than free generation here. This decoder asks the grammar only about the
model's top candidates and falls back to the whole vocabulary when none of them is allowed, so
the output is exactly what the grammar admits, at nearly free-generation speed. It also keeps
the evaluated tokens so a request re-evaluates only what differs from the previous prompt
(the fixed few-shot prefix stays in the KV cache).
"""

from __future__ import annotations

import ctypes
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from notillm_local.errors import (
    DeadlineExceeded,
    ExtractionError,
    GrammarError,
    ModelLoadError,
    Overloaded,
)

logger = logging.getLogger(__name__)

# Candidates the grammar is asked about first; almost always one of them is allowed.
_TOP_K = 64
# llama_token_data as numpy sees it (id, logit, p; C layout).
_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


@dataclass
class GenerationStats:
    prompt_tokens: int = 0  # tokens actually evaluated (after prefix reuse)
    reused_tokens: int = 0
    generated_tokens: int = 0
    full_vocab_fallbacks: int = 0
    seconds: float = 0.0


class CompiledGrammar:
    """A GBNF grammar parsed by llama.cpp itself; one sampler per generation."""

    def __init__(self, vocab: ctypes.c_void_p, text: str, root: str = "root") -> None:
        import llama_cpp

        self.text = text
        self._llama_cpp = llama_cpp
        smpl = llama_cpp.llama_sampler_init_grammar(vocab, text.encode("utf-8"), root.encode())
        if not smpl:
            raise GrammarError(f"llama.cpp rejected the grammar:\n{text[:500]}")
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
    ) -> None:
        if not path.is_file():
            raise ModelLoadError(f"model file not found: {path}")
        if lora_path is not None and not lora_path.is_file():
            raise ModelLoadError(f"adapter file not found: {lora_path}")
        import llama_cpp

        self._lc = llama_cpp
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
        self._every_token = np.arange(self._n_vocab, dtype=np.int32)
        self._piece_cache: dict[int, bytes] = {}
        logger.info("loaded %s in %.2fs", path.name, self.load_seconds)

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

    def grammar(self, text: str) -> CompiledGrammar:
        return CompiledGrammar(self._vocab, text)

    def accepts(self, grammar_text: str, text: str) -> bool:
        """Whether llama.cpp's own grammar engine admits exactly `text` (token by token).

        Used by tests and diagnostics; it reads the grammar as the decoder does, including the
        end: after the last token only an end-of-generation token may follow.
        """
        g = self.grammar(grammar_text)
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

    def _last_logits(self) -> np.ndarray:
        ptr = self._lc.llama_get_logits_ith(self._llm._ctx.ctx, -1)
        return np.ctypeslib.as_array(ptr, shape=(self._n_vocab,))

    def generate(
        self,
        prompt_tokens: list[int],
        grammar: CompiledGrammar,
        *,
        max_tokens: int,
        stop: str = "\n",
        stats: GenerationStats | None = None,
    ) -> str:
        """Greedy decoding held by `grammar`; returns text up to and excluding `stop`.

        The grammar must end with `stop`, so finishing the grammar is seeing `stop`.
        """
        t0 = time.perf_counter()
        self.feed(prompt_tokens, stats)
        out = b""
        for _ in range(max_tokens):
            logits = self._last_logits()
            top = np.argpartition(-logits, _TOP_K)[:_TOP_K]
            top = top[np.argsort(-logits[top])]
            mask = grammar.allowed(top)
            if mask.any():
                tok = int(top[int(np.argmax(mask))])
            else:
                if stats is not None:
                    stats.full_vocab_fallbacks += 1
                allowed = grammar.allowed(self._every_token)
                if not allowed.any():
                    raise ExtractionError("grammar admits no further token")
                masked = np.where(allowed, logits, -np.inf)
                tok = int(np.argmax(masked))
            grammar.accept(tok)
            out += self.piece(tok)
            if stats is not None:
                stats.generated_tokens += 1
            text = out.decode("utf-8", errors="ignore")
            if text.endswith(stop):
                if stats is not None:
                    stats.seconds += time.perf_counter() - t0
                return text[: -len(stop)]
            self._append(tok)
        raise ExtractionError(f"no complete answer within {max_tokens} tokens: {out!r}")

    def close(self) -> None:
        # Never free the context under a running decode (a background warm-up, a request).
        with self.lock:
            try:
                self._llm.close()
            except Exception:  # pragma: no cover
                pass
