"""Work budgets at the HTTP edge: a bounded pool for expensive requests (issue 16).

The model has its own queue (`LocalModel.turn`: one context, `queue_size` waiters). Work that
is not the model's was unbounded: a request with hundreds of app labels never seen before, or
with the longest texts, costs seconds of CPU (label embeddings; a long model prefill) before
and inside its model turn, and a flood of them filled the model queue and slowed everything
else 5x. `WorkLimiter` is a small thread-safe pool: `slots` callers work at once, at most
`max_waiting` wait for a slot, each no longer than it may; a caller beyond that is refused
at once with `Overloaded` (503 + Retry-After), one that waited too long gets `Overloaded` as
well (the server is busy; the request itself did nothing wrong).

The app sends only requests that `is_heavy` through its pool ("the heavy lane"); ordinary
requests never touch it, so a flood of heavy ones cannot starve them. The class is generic:
the pipeline may also hold a slot around its own CPU stages (never around the model wait).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from notillm_local.contract.schemas import HandleRequest, InstalledApp
from notillm_local.errors import Overloaded

# Text beyond this (prompt + pendingOriginal, characters) costs the time and slot readers and the
# model's prefill noticeably more than a spoken command does; dev-set commands are < 60.
HEAVY_TEXT_CHARS = 200
# A catalog the server has not answered before with more apps than this has labels to embed
# (~11 ms of CPU each on two cores); a phone's first request pays it once, then it is cached.
HEAVY_NEW_APPS = 32
# Catalogs remembered as answered (their label vectors are cached by the app matcher).
SEEN_CATALOGS_MAX = 64


class WorkLimiter:
    """At most `slots` holders at once and `max_waiting` waiters; the rest are refused.

    Thread-safe and synchronous: the endpoint and the pipeline run on worker threads.
    """

    def __init__(self, slots: int, max_waiting: int, *, retry_after_s: int = 1) -> None:
        if slots < 1 or max_waiting < 0:
            raise ValueError("a work limiter needs slots >= 1 and max_waiting >= 0")
        self.slots = slots
        self.max_waiting = max_waiting
        self.retry_after_s = retry_after_s
        self._cond = threading.Condition()
        self._busy = 0
        self._waiting = 0
        self.refused = 0  # how many callers got Overloaded (for tests and /health-style stats)

    @property
    def busy(self) -> int:
        return self._busy

    @property
    def waiting(self) -> int:
        return self._waiting

    @contextmanager
    def slot(self, timeout_s: float) -> Iterator[None]:
        """Hold one slot for the block; wait at most `timeout_s` for it.

        Raises Overloaded when `max_waiting` callers already wait or the wait times out.
        """
        self._acquire(timeout_s)
        try:
            yield
        finally:
            with self._cond:
                self._busy -= 1
                self._cond.notify()

    def _acquire(self, timeout_s: float) -> None:
        with self._cond:
            if self._busy < self.slots and self._waiting == 0:
                self._busy += 1
                return
            if self._waiting >= self.max_waiting:
                self.refused += 1
                raise Overloaded(self.retry_after_s)
            self._waiting += 1
            try:
                end = time.monotonic() + max(timeout_s, 0.0)
                while self._busy >= self.slots:
                    left = end - time.monotonic()
                    if left <= 0 or not self._cond.wait(left) and self._busy >= self.slots:
                        self.refused += 1
                        raise Overloaded(self.retry_after_s)
                self._busy += 1
            finally:
                self._waiting -= 1


def catalog_key(apps: Sequence[InstalledApp]) -> str:
    """One key per installed-app list (order matters as little as it does to the matcher)."""
    h = hashlib.blake2b(digest_size=16)
    for name, package in sorted((a.name, a.packageName) for a in apps):
        h.update(name.encode("utf-8", "surrogatepass") + b"\x00")
        h.update(package.encode("utf-8", "surrogatepass") + b"\x00")
    return h.hexdigest()


class SeenCatalogs:
    """The catalogs answered recently: their labels are embedded, so they are cheap again."""

    def __init__(self, max_size: int = SEEN_CATALOGS_MAX) -> None:
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._max = max_size
        self._lock = threading.Lock()

    def __contains__(self, key: str) -> bool:
        with self._lock:
            if key in self._keys:
                self._keys.move_to_end(key)
                return True
            return False

    def add(self, key: str) -> None:
        with self._lock:
            self._keys[key] = None
            self._keys.move_to_end(key)
            while len(self._keys) > self._max:
                self._keys.popitem(last=False)


def is_heavy(req: HandleRequest, seen: SeenCatalogs) -> tuple[bool, str | None]:
    """Whether a request goes through the heavy lane, and its catalog key (None: default)."""
    key = catalog_key(req.installedApps) if req.installedApps is not None else None
    text = len(req.prompt) + len(req.pendingOriginal or "")
    if text > HEAVY_TEXT_CHARS:
        return True, key
    if req.installedApps is not None and len(req.installedApps) > HEAVY_NEW_APPS:
        assert key is not None
        return key not in seen, key
    return False, key
