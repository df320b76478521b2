"""A thread that notices the graph was loaded again by another process, so caches follow it.

Each worker of `kbx serve --workers N` keeps caches of the graph and of the bundle it was loaded
from (names, timelines, neighbourhoods, the people directory, the answering's bundle). A load —
`POST /admin/reload` through one worker, or `kbx kb load` beside the service — increments the
graph's version key in the store (`FalkorDBProvider.version`); every `interval` seconds this
thread reads it, and when it is not the version the worker's caches were made at, asks the
worker to `refresh` them (read the active bundle again, drop what it kept of the graph). A
store that does not answer is simply read again at the next tick.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from core.errors import KBError, ProviderUnavailable

log = logging.getLogger(__name__)


class VersionWatch:
    def __init__(self, read: Callable[[], int], refresh: Callable[[], None],
                 interval: float = 1.0) -> None:
        self.read = read
        self.refresh = refresh
        self.interval = interval
        self.seen: int | None = None
        """the version the caches were made at (None: not read yet)"""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> VersionWatch:
        self.check()
        self._thread = threading.Thread(target=self._run, name="graph-version", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def made_at(self, version: int | None) -> None:
        """This worker's caches were just made at `version` (it loaded the graph itself)."""
        if version is not None:
            with self._lock:
                self.seen = version

    def check(self) -> bool:
        """Read the version once; refresh when it moved. True when a refresh was made."""
        try:
            current = self.read()
        except ProviderUnavailable:
            return False
        with self._lock:
            if self.seen is None:
                self.seen = current
                return False
            if current == self.seen:
                return False
        try:
            self.refresh()
        except (KBError, OSError) as exc:  # the old caches stay; tried again next tick
            log.warning("caches not refreshed after a reload elsewhere", extra={"error": str(exc)})
            return False
        with self._lock:
            self.seen = current
        log.info("graph loaded by another process; caches refreshed", extra={"version": current})
        return True

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.check()
