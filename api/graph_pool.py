"""Graph work runs in a bounded pool of its own, never in the server's shared thread pool.

Routes that need the graph (`/kb/*`, `/ask`, `/admin/reload`) are `async` and hand their work
here; `/search`, `/chunks` and `/health` never wait behind it. When the store is down (the
supervisor says so) a call fails at once, before and again after it waited for a thread; when
`threads + queue` calls are in flight a new one fails at once rather than queueing without
bound. Either failure is `ProviderUnavailable` (503).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from typing import TypeVar

from core.errors import ProviderUnavailable
from providers.supervisor import Supervisor

T = TypeVar("T")


class GraphPool:
    def __init__(self, threads: int, queue: int, supervisor: Supervisor | None = None) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(threads,
                                                               thread_name_prefix="graph")
        self._limit = threads + queue
        self._pending = 0
        self._lock = threading.Lock()
        self._supervisor = supervisor

    @property
    def pending(self) -> int:
        return self._pending

    def _check(self) -> None:
        if self._supervisor is not None:
            self._supervisor.check()

    async def run(self, work: Callable[[], T]) -> T:
        self._check()
        with self._lock:
            if self._pending >= self._limit:
                raise ProviderUnavailable(f"graph pool full: {self._pending} calls in flight")
            self._pending += 1
        future = self._executor.submit(self._call, work)
        future.add_done_callback(self._done)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:  # the client went away: drop the work if not started
            future.cancel()
            raise

    def _call(self, work: Callable[[], T]) -> T:
        self._check()  # the store may have gone down while this call waited
        try:
            return work()
        except ProviderUnavailable as exc:
            if self._supervisor is not None:
                self._supervisor.failed(exc)
            raise

    def _done(self, _: concurrent.futures.Future[T]) -> None:
        with self._lock:
            self._pending -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
