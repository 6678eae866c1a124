"""Asking the real service, and reading with the real table-only reader, as the phrasing tests do."""

from __future__ import annotations

from notillm_local.contract.schemas import HandleRequest, HandleResponse, InstalledApp
from notillm_local.domain import AppRef
from notillm_local.service import Service
from notillm_local.stages.apps import AppMapper, InstalledIndex
from notillm_local.stages.reading import SlotReading
from notillm_local.stages.slots import RuleSlotReader


def ask(
    service: Service, prompt: str, now: str, installed: InstalledIndex | None = None, **kw: object
) -> HandleResponse:
    """One request to the service; `installed` None sends no app list (the default catalog)."""
    apps = None if installed is None else [
        InstalledApp(name=a.label, packageName=a.package) for a in installed.apps]
    return service.handle(HandleRequest(prompt=prompt, currentTime=now, installedApps=apps, **kw))


def read(mapper: AppMapper, text: str, installed: InstalledIndex) -> SlotReading:
    """Code's reading of `text` by the alias table alone (no embeddings, no time parser)."""
    return RuleSlotReader(mapper).read(text, installed)


def device(*apps: tuple[str, str]) -> InstalledIndex:
    """A device's installed list from (label, package) pairs."""
    return InstalledIndex.of(tuple(AppRef(label, pkg) for label, pkg in apps))
