"""Every built book served by one process: each book's services opened on first use, closed idle.

A book's services (its blocks and BM25 indexes, bundle views, answer service and graph store
connection) cost tens of megabytes; a service with ten books built holds only the ones in use.
The default book opens at start and stays open (`/health` speaks for it); any other opens on
the first request that names it, in a thread of the shelf's own, once however many requests
wait for it. A book unused for `book_idle` seconds is closed, and at most `books_open` stay open
(once a request is done, the least recently used idle ones beyond that are closed, in a thread
of their own). A request holds its book for
its whole length (`using`), so a book is never closed under a request that reads it.

A built book's graph lives in an embedded server of its own (`core.books`): closing the book
gives up the service's lease on that server, which then stops and frees the graph's memory.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import gc
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.books import built_books, default_book, for_book
from core.settings import Settings

if TYPE_CHECKING:
    from api.services import Services

log = logging.getLogger(__name__)
SWEEP_MAX = 30.0
"""Seconds between two looks for idle books, at most."""


def give_back_memory() -> None:
    """What a closed book held goes back to the system: the cycles it left are collected, and
    glibc is asked to return the freed heap (`malloc_trim`), which it otherwise keeps for the
    process; without it the service stays as large as its busiest moment."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


@dataclass
class _Open:
    services: Services
    last_used: float
    users: int = 0
    pinned: bool = False


@dataclass
class Shelf:
    """The open books by name; `opener` opens one book's services from its settings."""

    root: Settings
    opener: Callable[[Settings], Services]
    default: str = ""
    clock: Callable[[], float] = time.monotonic
    _open: dict[str, _Open] = field(default_factory=dict)
    _opening: dict[str, concurrent.futures.Future[Services]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _executor: concurrent.futures.ThreadPoolExecutor = field(
        default_factory=lambda: concurrent.futures.ThreadPoolExecutor(
            2, thread_name_prefix="book-open"))
    _closer: concurrent.futures.ThreadPoolExecutor = field(
        default_factory=lambda: concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="book-close"))
    _stop: threading.Event = field(default_factory=threading.Event)
    _sweeper: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.default = self.default or default_book(self.root)

    @classmethod
    def holding(cls, services: Services) -> Shelf:
        """A shelf whose default book is these services (opened by the caller; closed with the
        shelf); other books open with `open_services`."""
        from api.services import open_services

        shelf = cls(services.settings, open_services,
                    default=services.settings.corpus_name)
        shelf.open_default(services)
        return shelf

    # -- opening

    def open_default(self, services: Services | None = None) -> Services:
        """Open the default book (or adopt its given services) and start the idle sweep."""
        opened = services if services is not None else self.opener(for_book(self.root, None))
        with self._lock:
            self._open[self.default] = _Open(opened, self.clock(), pinned=True)
        if self.root.book_idle > 0:
            self._sweeper = threading.Thread(target=self._sweep_loop, name="book-idle",
                                             daemon=True)
            self._sweeper.start()
        return opened

    @property
    def default_services(self) -> Services | None:
        entry = self._open.get(self.default)
        return entry.services if entry is not None else None

    def require_default(self) -> Services:
        services = self.default_services
        if services is None:
            raise RuntimeError("the shelf is closed")
        return services

    def name_of(self, book: str | None) -> str:
        return self.default if book is None else book

    def is_open(self, book: str) -> bool:
        return book in self._open

    def get(self, book: str | None = None) -> Services:
        """The book's services, opened now if closed (blocking; an unknown book is
        `core.books.UnknownBook`)."""
        name = self.name_of(book)
        with self._lock:
            entry = self._open.get(name)
            if entry is not None:
                entry.last_used = self.clock()
                return entry.services
            pending = self._opening.get(name)
            if pending is None:
                pending = self._opening[name] = concurrent.futures.Future()
                mine = True
            else:
                mine = False
        if not mine:
            return pending.result()
        try:
            services = self.opener(for_book(self.root, name))
        except BaseException as exc:
            with self._lock:
                del self._opening[name]
            pending.set_exception(exc)
            raise
        with self._lock:
            self._open[name] = _Open(services, self.clock())
            del self._opening[name]
        pending.set_result(services)
        log.info("book opened", extra={"book": name})
        return services

    async def services(self, book: str | None = None) -> Services:
        """The book's services; a closed book opens in the shelf's thread, off the event loop."""
        entry = self._open.get(self.name_of(book))
        if entry is not None:
            entry.last_used = self.clock()
            return entry.services
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.get, book)

    @contextlib.asynccontextmanager
    async def using(self, book: str | None = None) -> AsyncIterator[Services]:
        """The book's services, held open until the block ends."""
        name = self.name_of(book)
        while True:
            services = await self.services(name)
            with self._lock:
                entry = self._open.get(name)
                if entry is not None and entry.services is services:
                    entry.users += 1
                    break  # (closed between the two steps: open it again)
        try:
            yield services
        finally:
            with self._lock:
                entry.users -= 1
                entry.last_used = self.clock()
                surplus = self._surplus()
            if surplus:  # closing (a store's exit, the heap given back) competes with the
                # request for the CPU: it waits until the request that opened a book is done
                self._closer.submit(self._close_all, surplus)

    # -- closing

    def _surplus(self) -> list[tuple[str, Services]]:
        """Open books beyond `books_open`, least recently used first, idle ones only (called
        under the lock; the caller closes them outside it)."""
        extra = len(self._open) - self.root.books_open
        if extra <= 0:
            return []
        idle = sorted((e.last_used, n) for n, e in self._open.items()
                      if not e.pinned and e.users == 0)
        return [(n, self._open.pop(n).services) for _, n in idle[:extra]]

    def close_idle(self) -> list[str]:
        """Close the books unused for `book_idle` seconds, and the least recently used idle ones
        while more than `books_open` are open (requests may have held them all); returns their
        names."""
        now = self.clock()
        with self._lock:
            stale = [n for n, e in self._open.items() if not e.pinned and e.users == 0
                     and now - e.last_used >= self.root.book_idle]
            closing = [(n, self._open.pop(n).services) for n in stale] + self._surplus()
        self._close_all(closing)
        return [n for n, _ in closing]

    def _close_all(self, books: list[tuple[str, Services]]) -> None:
        for name, services in books:
            try:
                services.close()
            except Exception:  # one book that fails to close must not keep the others open
                log.exception("closing book %s failed", name)
            log.info("book closed", extra={"book": name})
        if books:
            give_back_memory()

    def _sweep_loop(self) -> None:
        period = min(SWEEP_MAX, max(0.05, self.root.book_idle / 4))
        while not self._stop.wait(period):
            self.close_idle()

    def close(self) -> None:
        self._stop.set()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._closer.shutdown(wait=True)
        with self._lock:
            books = list(self._open.items())
            self._open.clear()
        self._close_all([(n, e.services) for n, e in books])

    # -- listing

    def built(self) -> list[str]:
        names = set(built_books(self.root)) | {self.default}
        return sorted(names)
