"""The service's heavy parts load in a thread after the app serves.

Opening the services (the corpus, the graph store, the bundle, the answering service, and the
numpy, redis and answering code behind them) took most of a second of every start, during which
the port was closed. Now the lifespan starts `Startup` and yields at once: `/health` answers from
the first moment and says what is still loading (`loading`, `ready`); every other route waits
for the services (its first request takes longer, none is refused); a start that failed is
logged with its cause and every route then answers 503 saying the service could not start.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

LOADING = ["corpus", "store", "answers"]
"""What `/health` lists while the services open (they open together, in one thread)."""


class StartFailed(Exception):
    """The services could not be opened (a bad corpus or bundle): 503, the log has the cause."""


class Startup(Generic[T]):
    """Opens the services once, in a thread of its own; routes await `services()`. (The app's
    are a `Shelf` of books whose default book opens at start.)"""

    def __init__(self, open_services: Callable[[], T]) -> None:
        self._open = open_services
        self._future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._future.set_running_or_notify_cancel()  # a request that goes away cancels nothing
        self._thread = threading.Thread(target=self._run, name="kbx-start", daemon=True)

    def begin(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            services = self._open()
        except BaseException as exc:
            log.error("the service could not start", exc_info=exc)
            self._future.set_exception(exc)
            return
        self._future.set_result(services)

    @property
    def ready(self) -> T | None:
        """The services once open (None while loading, or when the start failed)."""
        future = self._future
        return future.result() if future.done() and future.exception() is None else None

    @property
    def failed(self) -> bool:
        return self._future.done() and self._future.exception() is not None

    async def services(self) -> T:
        """The services, waiting for them while they open; StartFailed if they could not."""
        ready = self.ready
        if ready is not None:
            return ready
        try:
            return await asyncio.wrap_future(self._future)
        except Exception as exc:
            raise StartFailed("the service could not start (the service log has the cause)"
                              ) from exc

    def finish(self) -> T | None:
        """Wait for the start to end (at shutdown): the services to close, or None."""
        self._thread.join()
        return self.ready
