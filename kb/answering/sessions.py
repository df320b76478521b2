"""Where the answering service keeps its sessions (what a follow-up question continues from).

A session is what the last answer was about: its people, its evidence, the chapter it ended at.
Three places keep one, behind the one `SessionStore` protocol:

- `MemorySessions`: this process alone, the most recent `MAX_SESSIONS` (tests, `kbx mcp`);
- `FileSessions`: also a file a session under a directory (`kbx ask --session`, one command
  after another); a file that cannot be written (a full disk) leaves the session in memory and
  says so in the log, the answer itself stands;
- the graph store (`providers.session_store.StoreSessions`): keys with a time to live under the
  book's prefix, so that any worker of `kbx serve --workers N`, or another host on the same
  store, continues a session another one began.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from core.atomic import write_text

log = logging.getLogger(__name__)
MAX_SESSIONS = 1000


@dataclass
class SessionState:
    person_ids: list[str]
    evidence: list[str]
    question: str
    chapter: int | None = None
    """The latest chapter the last answer cited: a follow-up (那他后来呢？) continues after it."""

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> SessionState | None:
        """The state a stored text holds; None for a text that is not one (logged)."""
        try:
            data: Any = json.loads(text)
            return cls(**data)
        except (ValueError, TypeError) as exc:
            log.warning("a stored session is unreadable; ignored", extra={"error": str(exc)})
            return None


class SessionStore(Protocol):
    def get(self, session_id: str) -> SessionState | None: ...

    def put(self, session_id: str, state: SessionState) -> None: ...


class MemorySessions:
    """The most recent sessions of this process; thread-safe."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._sessions: OrderedDict[str, SessionState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session_id: str) -> SessionState | None:
        with self._lock:
            return self._sessions.get(session_id)

    def clear(self) -> None:
        with self._lock:
            self._sessions.clear()

    def put(self, session_id: str, state: SessionState) -> None:
        with self._lock:
            self._sessions[session_id] = state
            self._sessions.move_to_end(session_id)
            while len(self._sessions) > self.limit:
                self._sessions.popitem(last=False)


class FileSessions(MemorySessions):
    """Sessions in memory and as `<directory>/<id>.json`, read back by the next command."""

    def __init__(self, directory: Path, limit: int = MAX_SESSIONS) -> None:
        super().__init__(limit)
        self.directory = directory

    def _path(self, session_id: str) -> Path:
        return self.directory / f"{safe_id(session_id)}.json"

    def get(self, session_id: str) -> SessionState | None:
        state = super().get(session_id)
        if state is None:
            try:
                state = SessionState.from_json(self._path(session_id).read_text(encoding="utf-8"))
            except FileNotFoundError:
                return None
            except OSError as exc:
                log.warning("session file unreadable", extra={"path": str(self._path(session_id)),
                                                              "error": str(exc)})
                return None
        return state

    def put(self, session_id: str, state: SessionState) -> None:
        super().put(session_id, state)
        path = self._path(session_id)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_text(path, state.to_json())
        except OSError as exc:  # the answer stands; a follow-up in another command cannot
            log.warning("session not saved: a follow-up with --session will not find it",
                        extra={"path": str(path), "error": exc.strerror or str(exc)})


def safe_id(session_id: str) -> str:
    """A session id as a file or key name: letters, digits, '-' and '_' only."""
    return "".join(ch for ch in session_id if ch.isalnum() or ch in "-_")[:100] or "default"
