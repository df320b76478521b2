"""A thread that watches the graph store, so that the service outlives its database.

Every `interval` seconds it pings the store on a connection of its own (timeout
`probe_timeout`). While the store does not answer, `up` is False: callers fail fast with
`ProviderUnavailable` instead of waiting on a dead or stopped server, and the supervisor asks the
store to `recover` with exponential backoff: a dead embedded server is started again from its
persisted data, broken connections to a `FALKORDB_URL` server are dropped so that they are opened
again when it is back. The first ping that answers makes the store `up` again.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Protocol

from core.errors import ProviderUnavailable

log = logging.getLogger(__name__)


class Supervised(Protocol):
    """What a store offers to be watched (FalkorDBProvider)."""

    def ping(self, timeout: float) -> None: ...

    def recover(self) -> None: ...


class Supervisor:
    def __init__(self, store: Supervised, interval: float = 0.2, probe_timeout: float = 0.5,
                 first_backoff: float = 0.2, max_backoff: float = 5.0) -> None:
        self.store = store
        self.interval = interval
        self.probe_timeout = probe_timeout
        self.first_backoff = first_backoff
        self.max_backoff = max_backoff
        self._up = False
        self._reason = "the graph store has not been reached yet"
        self._changed = threading.Condition()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._backoff = first_backoff
        self._seen_up = False
        self.restarts = 0
        """Successful recoveries after an outage (a figure for tests and status)."""

    @property
    def up(self) -> bool:
        return self._up

    @property
    def reason(self) -> str:
        return self._reason

    def check(self) -> None:
        """Raise ProviderUnavailable at once while the store is down."""
        if not self._up:
            raise ProviderUnavailable(self._reason)

    def failed(self, exc: ProviderUnavailable) -> None:
        """A graph call failed: probe again now rather than at the next tick."""
        self._wake.set()

    def start(self) -> Supervisor:
        """Probe once (so `up` is right from the first request), then watch from a thread."""
        self._probe_and_recover(time.monotonic())
        self._thread = threading.Thread(target=self._run, name="graph-supervisor", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def wait_until(self, up: bool, timeout: float) -> bool:
        """Block until the store is (or is not) up, or the timeout passes."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._up != up:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _set(self, up: bool, reason: str = "") -> None:
        with self._changed:
            if up != self._up:
                if not up:
                    log.warning("graph store down", extra={"error": reason})
                elif self._seen_up:
                    log.warning("graph store answering again")
                self._seen_up = self._seen_up or up
            self._up = up
            if reason:
                self._reason = reason
            self._changed.notify_all()

    def _run(self) -> None:
        next_recovery = time.monotonic()
        while not self._stop.is_set():
            self._wake.wait(self.interval)
            self._wake.clear()
            if self._stop.is_set():
                return
            next_recovery = self._probe_and_recover(next_recovery)

    def _probe_and_recover(self, next_recovery: float) -> float:
        """One tick; returns when the next recovery may be tried."""
        try:
            self.store.ping(self.probe_timeout)
        except ProviderUnavailable as exc:
            self._set(False, f"graph store unavailable: {exc}")
        except Exception as exc:  # never let the watcher die
            log.exception("graph store probe failed")
            self._set(False, f"graph store unavailable: {type(exc).__name__}")
        else:
            if not self._up:
                self._backoff = self.first_backoff
            self._set(True)
            return time.monotonic()
        now = time.monotonic()
        if now < next_recovery:
            return next_recovery
        try:
            self.store.recover()
            self.store.ping(self.probe_timeout)
        except ProviderUnavailable as exc:
            self._backoff = min(self.max_backoff, self._backoff * 2)
            log.info("graph store not recovered yet", extra={"error": str(exc),
                                                              "retry_s": self._backoff})
            return now + self._backoff
        except Exception:
            log.exception("graph store recovery failed")
            self._backoff = self.max_backoff
            return now + self._backoff
        self.restarts += 1
        self._backoff = self.first_backoff
        self._set(True)
        return time.monotonic()
