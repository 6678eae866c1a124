"""Shared fixtures: the real models, loaded once per test session, and a real loopback server."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from notillm_local import resources
from notillm_local.engines.local import LocalModel
from notillm_local.eval import DATA_DIR
from notillm_local.models.catalog import extractor_model_path
from notillm_local.service import Service, build_service
from notillm_local.settings import Settings
from notillm_local.stages.alias_table import AliasTable
from notillm_local.stages.apps import AppMapper, InstalledIndex, load_catalog
from tests.fixtures_encoder import encoder  # noqa: F401  (session fixture: the real encoder)

REPO = Path(__file__).resolve().parent.parent
# The contract's worked examples, kept with the other evaluation data.
EXAMPLES = DATA_DIR / "examples.jsonl"


def load_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
def service(settings: Settings) -> Iterator[Service]:
    svc = build_service(settings)
    yield svc
    svc.close()


@pytest.fixture(scope="session")
def rules_service() -> Iterator[Service]:
    """Code alone (no model call): in the default mode the model reads what code leaves unsure,
    so code's own reading is checked with this one."""
    svc = build_service(Settings(extractor_mode="rules"))
    yield svc
    svc.close()


@pytest.fixture(scope="session")
def local_model(service: Service) -> LocalModel:
    assert service.model is not None
    return service.model


@pytest.fixture(scope="session")
def gguf_path(settings: Settings) -> Path:
    return extractor_model_path(settings)[0]


@pytest.fixture(scope="session")
def catalog():
    return load_catalog()


@pytest.fixture(scope="session")
def default_index(catalog) -> InstalledIndex:
    return InstalledIndex.of(catalog)


@pytest.fixture(scope="session")
def table_mapper(catalog) -> AppMapper:
    """The alias table alone (no embeddings): what mapper v1 answers."""
    return AppMapper(AliasTable.load(resources.path("app_aliases.json"), catalog))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, app, port: int) -> None:
        import uvicorn

        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="session")
def live_server(settings: Settings, service: Service) -> Iterator[LiveServer]:
    from notillm_local.api.app import create_app

    with LiveServer(create_app(settings, service), free_port()) as srv:
        yield srv
