"""Building the service from settings: every model loaded once, then handed to the stages."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from notillm_local import resources
from notillm_local.contract.schemas import HandleRequest, HandleResponse
from notillm_local.domain import AppRef, AppWordMatcher, ChitchatGate
from notillm_local.engines.grammars import GrammarSet
from notillm_local.engines.local import LocalModel
from notillm_local.models.catalog import (
    adapter_prompt_prefix,
    extractor_model_path,
    shipped_adapter_path,
)
from notillm_local.models.runtime import disable_telemetry
from notillm_local.pipeline import HostedFallback, Pipeline
from notillm_local.settings import EngineMode, ExtractorMode, Settings
from notillm_local.stages.alias_table import AliasTable
from notillm_local.stages.apps import AppMapper, load_catalog
from notillm_local.stages.extract import FEW_SHOT, SlotExtractor
from notillm_local.stages.pending import PendingClassifier
from notillm_local.stages.slots import RuleSlotReader

if TYPE_CHECKING:
    from notillm_local.models.encoder import OnnxSentenceEncoder as OnnxSentenceEncoderT

logger = logging.getLogger(__name__)


@dataclass
class Service:
    settings: Settings
    pipeline: Pipeline
    model: LocalModel | None
    model_id: str | None
    encoder_id: str | None
    gate_loaded: bool
    started_s: float
    closers: list[object] = field(default_factory=list)
    warm_up: threading.Thread | None = None

    def handle(self, req: HandleRequest) -> HandleResponse:
        return self.pipeline.handle(req)

    def wait_warm(self, timeout_s: float = 60.0) -> bool:
        """Wait for the background start-up work (prefix evaluation, the grammar engine's
        vocabulary). Requests never need to; measurements do, or their first cases time the
        warm-up's threads competing for the cores instead of the request."""
        if self.warm_up is None:
            return True
        self.warm_up.join(timeout_s)
        return not self.warm_up.is_alive()

    @property
    def engine(self) -> str:
        return self.settings.engine.value

    def models(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.model_id:
            out["extractor"] = self.model_id
            if self.model is not None and self.model.lora_path is not None:
                out["adapter"] = self.model.lora_path.name
        if self.encoder_id:
            out["encoder"] = self.encoder_id
        out["gate"] = "loaded" if self.gate_loaded else "off"
        return out

    def close(self) -> None:
        if self.model is not None:
            self.model.close()


def _embedding_stack(
    settings: Settings, default_apps: tuple[AppRef, ...]
) -> tuple[ChitchatGate | None, AppWordMatcher | None, str | None]:
    """The ONNX encoder, the chitchat gate and the embedding app matcher (issue 4)."""
    if not settings.embeddings_enabled:
        return None, None, None
    from notillm_local.models.encoder import OnnxSentenceEncoder, find_encoder
    from notillm_local.stages.app_embed import EmbeddingAppMatcher

    encoder = OnnxSentenceEncoder(
        find_encoder(settings), intra_op_threads=settings.n_threads
    ).load()
    chitchat: ChitchatGate | None = None
    if settings.gate_enabled:
        chitchat = _load_gate(settings, encoder)
    matcher = EmbeddingAppMatcher(encoder)
    matcher.warm(default_apps)  # the catalog's label vectors, once, before the first request
    return chitchat, matcher, encoder.model_id


def _load_gate(settings: Settings, encoder: OnnxSentenceEncoderT) -> ChitchatGate:
    """The configured gate, else the shipped one, else one retrained into the cache.

    The gate refuses vectors from an encoder it was not trained on. An export made with other
    library versions can differ in its bytes; `notillm-local serve` then retrains the gate into
    the cache before the service is built (export tooling, see cli.prepare_models), and this
    picks that one up.
    """
    from notillm_local.stages.gate import LogisticChitchatGate, default_gate_path, gate_matches

    path = settings.gate_path or default_gate_path()
    if settings.gate_path is None and not gate_matches(path, encoder):
        cached = cached_gate_path(settings)
        if gate_matches(cached, encoder):
            path = cached
    return LogisticChitchatGate(path, encoder)


def cached_gate_path(settings: Settings) -> Path:
    """Where a gate retrained for this machine's encoder export lives."""
    return settings.cache_dir.expanduser() / "gate.json"


def build_service(settings: Settings) -> Service:
    t0 = time.perf_counter()
    # Before any onnxruntime session exists: offline means no packet leaves, native code included.
    disable_telemetry()
    catalog = load_catalog(settings.apps_catalog)
    table = AliasTable.load(resources.path("app_aliases.json"), catalog)
    chitchat, matcher, encoder_id = _embedding_stack(settings, catalog)
    mapper = AppMapper(table, matcher)
    grammars = GrammarSet.load()

    model: LocalModel | None = None
    model_id: str | None = None
    if settings.engine is not EngineMode.HOSTED:
        path, model_id = extractor_model_path(settings)
        lora = settings.adapter_path
        if lora is None and settings.use_adapter:
            lora = shipped_adapter_path()
        model = LocalModel(path, n_threads=settings.n_threads, n_ctx=settings.n_ctx,
                           lora_path=lora, model_id=model_id)

    prefix = FEW_SHOT
    if model is not None and model.lora_path is not None:
        # An adapter is trained with its own (shorter) prefix; the few-shot cases are in it.
        prefix = adapter_prompt_prefix(model.lora_path.parent) or FEW_SHOT
    extractor = SlotExtractor(
        RuleSlotReader(mapper), model, grammars, settings.extractor_mode, settings.max_new_tokens,
        prefix=prefix,
    )
    # The prefix is evaluated in the background: requests code answers alone need no model,
    # and the first one that does simply waits its turn behind the warm-up.
    warm_up = threading.Thread(target=extractor.warm, name="prefix-warm", daemon=True)
    warm_up.start()
    hosted: HostedFallback | None = None
    if settings.hosted_allowed:
        # Offline is a property of the process: without hybrid/hosted this is never built.
        from notillm_local.engines.hosted import HostedEngine

        hosted = HostedEngine(settings, mapper=mapper)
    pending_model = None
    if (
        model is not None
        and settings.pending_model
        and settings.extractor_mode is not ExtractorMode.RULES
    ):
        pending_model = PendingClassifier(model, grammars.pending)
    pipeline = Pipeline(
        extractor=extractor,
        default_apps=catalog,
        gate=chitchat,
        hosted=hosted,
        model_id=model_id,
        deadline_s=settings.request_deadline_s,
        queue_size=settings.queue_size,
        pending_model=pending_model,
    )
    svc = Service(
        settings=settings,
        pipeline=pipeline,
        model=model,
        model_id=model_id,
        encoder_id=encoder_id,
        gate_loaded=chitchat is not None,
        started_s=time.perf_counter() - t0,
        warm_up=warm_up,
    )
    logger.info("service ready in %.2fs (engine=%s)", svc.started_s, settings.engine.value)
    return svc
