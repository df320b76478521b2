"""One piece of start-up work run in a thread while the caller does its other work.

A cold embedded server takes a few hundred milliseconds to start, and a connection to it a few
more; a command or the service spends them importing and reading its data instead of waiting
afterwards. The work runs at most once at a time; whoever needs its result joins it first. A
failure is only logged here: the caller's own call that follows does the work again and raises.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class Background:
    def __init__(self, name: str) -> None:
        self.name = name
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, work: Callable[[], object]) -> None:
        """Run `work` in a daemon thread unless it already runs (or ran and was not joined)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._quietly, args=(work,), daemon=True,
                                             name=self.name)
            self._thread.start()

    def join(self) -> None:
        """Wait for the work (not from inside it); afterwards it may be started again."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
            self._thread = None

    def _quietly(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception as exc:  # raised again, with its cause, by the caller's next call
            log.debug("background work failed; the next use retries",
                      extra={"work": self.name, "error": str(exc)})
