"""The admin key: long enough to mean something, and not to be guessed by trying.

`KBX_API_KEY` guards `/admin/*`. A key shorter than `MIN_KEY_CHARS` is refused as if none were
set: the routes stay 503 saying why (a one-letter key is guessed at the first try). Wrong keys
are counted per client address: after `MAX_FAILURES` within `WINDOW` seconds the address gets
429 with `Retry-After` until its oldest failure leaves the window, whatever key it sends (a
right one included: otherwise trying would go on at the same speed, answered 429 instead of
401). Counting is per serving process; with several workers, each counts its own.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import deque

from pydantic import SecretStr

MIN_KEY_CHARS = 16
MAX_FAILURES = 5
WINDOW = 60.0
MAX_CLIENTS = 10_000
"""Addresses whose failures are remembered (the oldest are forgotten first)."""


class AdminDisabled(Exception):
    """No usable API key is configured, so the admin routes are off (503)."""


class Unauthorized(Exception):
    """The `X-API-Key` header is missing or wrong (401)."""


class TooManyAttempts(Exception):
    """Too many wrong keys from this address lately (429); `retry_after` in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong X-API-Key headers; try again in {retry_after} s")
        self.retry_after = retry_after


def key_problem(key: SecretStr | None) -> str | None:
    """Why the configured key cannot guard the admin routes; None when it can."""
    if key is None or not key.get_secret_value():
        return "admin routes are disabled: no KBX_API_KEY is configured"
    length = len(key.get_secret_value())
    if length < MIN_KEY_CHARS:
        return (f"admin routes are disabled: KBX_API_KEY has {length} characters, at least "
                f"{MIN_KEY_CHARS} are needed")
    return None


class AdminGuard:
    """Checks `X-API-Key` against the configured key, counting failures per address."""

    def __init__(self, max_failures: int = MAX_FAILURES, window: float = WINDOW) -> None:
        self.max_failures = max_failures
        self.window = window
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, expected: SecretStr | None, given: str | None, client: str) -> None:
        problem = key_problem(expected)
        if problem is not None:
            raise AdminDisabled(problem)
        assert expected is not None
        now = time.monotonic()
        with self._lock:
            recent = self._recent(client, now)
            if len(recent) >= self.max_failures:
                raise TooManyAttempts(max(1, math.ceil(recent[0] + self.window - now)))
        if secrets.compare_digest((given or "").encode(), expected.get_secret_value().encode()):
            return
        with self._lock:
            self._recent(client, now).append(now)
            if len(self._failures) > MAX_CLIENTS:
                self._failures.pop(next(iter(self._failures)))
        raise Unauthorized("missing or wrong X-API-Key header")

    def _recent(self, client: str, now: float) -> deque[float]:
        failures = self._failures.setdefault(client, deque())
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        return failures
