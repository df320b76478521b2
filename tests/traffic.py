"""Steady loopback traffic for fault tests: threads that repeat requests and record every answer
(start, end, path, status), so a test can say what callers saw before, during and after a fault.
`scripts/fault_drill.py` drives its drills with the same traffic."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class Answer:
    path: str
    started: float
    ended: float
    status: int  # 0: no HTTP answer at all (connection error, client timeout)

    @property
    def seconds(self) -> float:
        return self.ended - self.started

    @property
    def ms(self) -> float:
        return self.seconds * 1000


class Traffic:
    """One thread per path, each sending its request again as soon as the last one answered."""

    def __init__(self, base_url: str, paths: list[str], timeout: float = 10.0) -> None:
        self.base_url = base_url
        self.paths = paths
        self.timeout = timeout
        self.answers: list[Answer] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(p,), daemon=True)
                         for p in paths]

    def __enter__(self) -> Traffic:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=self.timeout + 5)

    def _run(self, path: str) -> None:
        with httpx.Client(base_url=self.base_url, timeout=self.timeout) as http:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    status = http.get(path).status_code
                except httpx.HTTPError:
                    status = 0
                with self._lock:
                    self.answers.append(Answer(path, started, time.monotonic(), status))

    def of(self, path: str, after: float = 0.0, before: float = float("inf")) -> list[Answer]:
        """Answers to requests on `path` sent in [after, before)."""
        with self._lock:
            return [a for a in self.answers if a.path == path and after <= a.started < before]

    def first(self, path: str, status: int, after: float) -> Answer | None:
        return next((a for a in sorted(self.of(path, after), key=lambda a: a.ended)
                     if a.status == status), None)
