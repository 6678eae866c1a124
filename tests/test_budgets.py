"""Budgets, not just deadlines (issue 16, finding 3).

- Every field has a size chosen from what a phone really has (docs/reliability.md), and the
  largest valid request still fits under the body limit.
- Installed labels are embedded once per catalog (the default catalog at start-up, for good);
  the caches are bounded; concurrent requests with the same new catalog embed it once.
- Expensive requests go through a bounded pool (`api.limits.WorkLimiter`): a flood of maximal
  valid requests on loopback cannot push a normal request past its deadline.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np
import pytest
from pydantic import ValidationError

from notillm_local.api.app import MAX_BODY_BYTES
from notillm_local.api.limits import SeenCatalogs, WorkLimiter, is_heavy
from notillm_local.contract.schemas import (
    INSTALLED_APPS_MAX,
    LABEL_MAX_CHARS,
    PACKAGE_MAX_CHARS,
    PENDING_ORIGINAL_MAX_CHARS,
    PROMPT_MAX_CHARS,
    HandleRequest,
)
from notillm_local.domain import AppRef
from notillm_local.errors import Overloaded
from notillm_local.stages.app_embed import EmbeddingAppMatcher

NOW = "2026-08-14T21:30:00+09:00"
SYLLABLES = "가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허"


def new_apps(seed: int, n: int = INSTALLED_APPS_MAX, label_len: int = LABEL_MAX_CHARS,
             pkg_len: int = PACKAGE_MAX_CHARS) -> list[dict[str, str]]:
    """`n` apps no catalog has seen: random labels, long package names."""
    r = random.Random(seed)
    apps = []
    for i in range(n):
        label = "".join(r.choice(SYLLABLES) for _ in range(label_len - 4)) + f"{i:04d}"
        head = f"com.s{seed}.a{i}."
        apps.append({"name": label, "packageName": head + "x" * (pkg_len - len(head))})
    return apps


def maximal(seed: int, *, pending: bool) -> dict[str, Any]:
    """A valid request with every field at its cap, and words only the model can place."""
    words = "쥬블릭스 퀘나른 알림 2시간 꺼줘 "
    text = (words * (PROMPT_MAX_CHARS // len(words) + 1))[:PROMPT_MAX_CHARS].strip()
    body: dict[str, Any] = {"prompt": text, "currentTime": NOW, "installedApps": new_apps(seed)}
    if pending:
        body.update(prompt="1시간", pending=True,
                    pendingOriginal=(words * 40)[:PENDING_ORIGINAL_MAX_CHARS].strip())
    return body


# --------------------------------------------------------------------------- field budgets


@pytest.mark.parametrize("patch", [
    {"installedApps": new_apps(1, INSTALLED_APPS_MAX + 1, 8, 20)},
    {"installedApps": [{"name": "가" * (LABEL_MAX_CHARS + 1), "packageName": "com.a.b"}]},
    {"installedApps": [{"name": "가", "packageName": "com.a." + "b" * PACKAGE_MAX_CHARS}]},
    {"pending": True, "pendingOriginal": "가" * (PENDING_ORIGINAL_MAX_CHARS + 1)},
    {"prompt": "가" * (PROMPT_MAX_CHARS + 1)},
])
def test_each_field_has_a_budget(patch: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        HandleRequest.model_validate({"prompt": "카톡 2시간", "currentTime": NOW, **patch})


def test_the_largest_valid_request_fits_the_body_limit() -> None:
    """Every field at its cap, in 4-byte characters, sent as UTF-8: under MAX_BODY_BYTES."""
    wide = "\U0001f600"
    body = {
        "prompt": wide * PROMPT_MAX_CHARS, "currentTime": NOW, "pending": True,
        "pendingOriginal": wide * PENDING_ORIGINAL_MAX_CHARS, "trace": True,
        "installedApps": [{"name": wide * LABEL_MAX_CHARS,
                           "packageName": f"com.a{i}." + "b" * (PACKAGE_MAX_CHARS - 12)}
                          for i in range(INSTALLED_APPS_MAX)],
    }
    HandleRequest.model_validate(body)
    assert len(json.dumps(body, ensure_ascii=False).encode()) < MAX_BODY_BYTES


# --------------------------------------------------------------------------- the label cache


class CountingEncoder:
    """Stands in for the ONNX encoder where only the number of texts embedded matters."""

    model_id = "counting"

    def __init__(self, delay_s: float = 0.0) -> None:
        self.texts = 0
        self.seen: Counter[str] = Counter()
        self.delay_s = delay_s
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], kind: str = "query") -> np.ndarray:
        with self._lock:
            self.texts += len(texts)
            self.seen.update(texts)
        time.sleep(self.delay_s)
        out = np.array([[hash(t) % 97, len(t), 1.0] for t in texts], dtype=np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def refs(apps: list[dict[str, str]]) -> list[AppRef]:
    return [AppRef(a["name"], a["packageName"]) for a in apps]


def test_the_default_catalog_is_embedded_once_for_good(catalog) -> None:
    enc = CountingEncoder()
    m = EmbeddingAppMatcher(enc, threshold=0.9, margin=0.04)  # type: ignore[arg-type]
    m.warm(catalog)
    assert enc.texts == len(catalog)
    for seed in range(80):  # 80 phones' catalogs, 19,200 labels: far past every cache bound
        m.label_vectors([a.label for a in refs(new_apps(seed, 240, 12, 20))])
    m.label_vectors([a.label for a in catalog])
    m.match("배달 앱", catalog)
    again = [a.label for a in catalog if enc.seen[a.label] > 1]
    assert not again, f"default labels embedded again: {again[:5]}"


def test_a_catalog_is_embedded_once_and_a_changed_one_only_for_its_new_labels() -> None:
    enc = CountingEncoder()
    m = EmbeddingAppMatcher(enc, threshold=0.9, margin=0.04)  # type: ignore[arg-type]
    phone = refs(new_apps(7, 150, 10, 20))
    m.label_vectors([a.label for a in phone])
    assert enc.texts == 150
    for _ in range(5):
        m.label_vectors([a.label for a in phone])
    assert enc.texts == 150
    installed_one_more = phone + refs(new_apps(8, 1, 10, 20))
    m.label_vectors([a.label for a in installed_one_more])
    assert enc.texts == 151


def test_the_caches_are_bounded() -> None:
    enc = CountingEncoder()
    m = EmbeddingAppMatcher(enc, threshold=0.9, margin=0.04)  # type: ignore[arg-type]
    for seed in range(100):
        m.label_vectors([a.label for a in refs(new_apps(seed, 100, 10, 20))])
    assert len(m._catalogs) <= 32 and len(m._labels) <= 4096  # noqa: SLF001


def test_one_new_catalog_asked_for_at_once_is_embedded_once() -> None:
    enc = CountingEncoder(delay_s=0.3)
    m = EmbeddingAppMatcher(enc, threshold=0.9, margin=0.04)  # type: ignore[arg-type]
    labels = [a.label for a in refs(new_apps(3, 200, 10, 20))]
    threads = [threading.Thread(target=m.label_vectors, args=(labels,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert enc.texts == 200, f"{enc.texts} labels embedded for one catalog of 200"


# --------------------------------------------------------------------------- the pool


def test_work_limiter_bounds_holders_and_waiters() -> None:
    lim = WorkLimiter(slots=1, max_waiting=1, retry_after_s=3)
    release = threading.Event()
    held = threading.Event()

    def hold() -> None:
        with lim.slot(1):
            held.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(5)
    outcome: list[str] = []

    def wait_for_it() -> None:
        try:
            with lim.slot(5):
                outcome.append("ran")
        except Overloaded:
            outcome.append("refused")

    waiter = threading.Thread(target=wait_for_it)
    waiter.start()
    deadline = time.monotonic() + 5
    while lim.waiting < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(Overloaded) as caught, lim.slot(5):  # a third caller: refused at once
        pass
    assert caught.value.retry_after_s == 3
    release.set()
    holder.join(5)
    waiter.join(5)
    assert outcome == ["ran"] and lim.busy == 0 and lim.waiting == 0


def test_work_limiter_wait_is_bounded() -> None:
    lim = WorkLimiter(slots=1, max_waiting=4)
    with lim.slot(1):
        t0 = time.monotonic()
        with pytest.raises(Overloaded), lim.slot(0.3):
            pass
        assert 0.25 <= time.monotonic() - t0 < 2
    with lim.slot(0.1):  # free again
        pass


def test_which_requests_are_heavy() -> None:
    seen = SeenCatalogs()
    short = HandleRequest(prompt="카톡 2시간", currentTime=NOW)  # type: ignore[arg-type]
    assert is_heavy(short, seen) == (False, None)
    long_text = HandleRequest(prompt="가" * 300, currentTime=NOW)  # type: ignore[arg-type]
    assert is_heavy(long_text, seen)[0] is True
    phone = HandleRequest.model_validate(
        {"prompt": "카톡 2시간", "currentTime": NOW, "installedApps": new_apps(5, 120, 8, 20)})
    heavy, key = is_heavy(phone, seen)
    assert heavy is True and key is not None
    seen.add(key)
    assert is_heavy(phone, seen) == (False, key)  # answered once: its labels are cached
    few = HandleRequest.model_validate(
        {"prompt": "카톡 2시간", "currentTime": NOW, "installedApps": new_apps(6, 10, 8, 20)})
    assert is_heavy(few, seen)[0] is False


# --------------------------------------------------------------------------- the flood


FLOOD_REQUESTS, FLOOD_CONCURRENCY = 24, 8
NORMAL = [{"prompt": "지금부터 2시간 카톡 알림 받지마", "currentTime": NOW},  # code only
          {"prompt": "카톡 2시간", "currentTime": NOW}]  # one model call


def test_a_flood_of_maximal_requests_cannot_push_a_normal_one_past_its_deadline(
    live_server, settings
) -> None:
    deadline_s = settings.request_deadline_s
    # Steady state first: the model's one-off start-up work (prefix, grammar tokenizer) is not
    # what this test measures.
    for body in NORMAL:
        for _ in range(3):  # the very first model call may miss its deadline on a busy box
            r = httpx.post(f"{live_server.url}/v1/handle", json=body, timeout=120,
                           trust_env=False)
            if r.status_code == 200:
                break
        assert r.status_code == 200, r.text
    flood_codes: list[int] = []
    lock = threading.Lock()
    seeds = iter(range(1000, 1000 + FLOOD_REQUESTS))

    def flooder() -> None:
        with httpx.Client(base_url=live_server.url, timeout=120, trust_env=False) as client:
            while True:
                with lock:
                    seed = next(seeds, None)
                if seed is None:
                    return
                try:
                    r = client.post("/v1/handle", json=maximal(seed, pending=seed % 2 == 1))
                except httpx.TimeoutException:  # no answer within 120 s: recorded as lost
                    with lock:
                        flood_codes.append(-1)
                    continue
                if r.status_code == 503 and "retry-after" not in r.headers:
                    code = -503  # a 503 without Retry-After breaks the contract
                else:
                    code = r.status_code
                with lock:
                    flood_codes.append(code)

    threads = [threading.Thread(target=flooder, daemon=True) for _ in range(FLOOD_CONCURRENCY)]
    for t in threads:
        t.start()
    normal: list[tuple[int, float, dict[str, Any]]] = []
    with httpx.Client(base_url=live_server.url, timeout=120, trust_env=False) as client:
        time.sleep(1.0)  # the flood is under way
        i = 0
        while any(t.is_alive() for t in threads) or i < 4:
            t0 = time.monotonic()
            r = client.post("/v1/handle", json=NORMAL[i % len(NORMAL)])
            normal.append((r.status_code, time.monotonic() - t0, r.json()))
            i += 1
            time.sleep(0.2)
    for t in threads:
        t.join(300)
    print(f"\nflood: {sorted(flood_codes)}; normal: {[(c, round(s, 2)) for c, s, _ in normal]}")
    assert len(flood_codes) == FLOOD_REQUESTS
    assert set(flood_codes) <= {200, 503, 504}, flood_codes
    assert flood_codes.count(200) + flood_codes.count(504) >= 1, "no maximal request was run"
    assert all(code == 200 for code, _, _ in normal), normal
    assert max(took for _, took, _ in normal) < deadline_s, normal
    assert any(data["meta"]["llmCalls"] for _, _, data in normal), "no normal request used the model"
