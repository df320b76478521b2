"""Sessions in the graph store: any worker, or another host on the same store, continues one.

Each session is one key beside the graph, under the book's prefix (`<graph>:session:<id>`, the
graph being `kbx:<book>`), holding the state as JSON and expiring `ttl` seconds after its last
answer. The store answering nothing (down, or refusing writes on a full disk) does not stop an
answer: the session is kept in this process's memory meanwhile, and the log says why.
"""

from __future__ import annotations

import logging

from core.errors import ProviderUnavailable
from kb.answering.sessions import MemorySessions, SessionState, safe_id
from providers.falkordb_provider import FalkorDBProvider

log = logging.getLogger(__name__)
SESSION = "session"


class StoreSessions:
    """`kb.answering.sessions.SessionStore` over the graph store's keys."""

    def __init__(self, provider: FalkorDBProvider, ttl_seconds: int) -> None:
        self.provider = provider
        self.ttl = ttl_seconds
        self.local = MemorySessions()

    def key(self, session_id: str) -> str:
        return self.provider.shared_key(SESSION, safe_id(session_id))

    def get(self, session_id: str) -> SessionState | None:
        try:
            raw = self.provider.get_shared(self.key(session_id))
        except ProviderUnavailable as exc:
            log.warning("session not read from the store; this worker's copy is used",
                        extra={"error": str(exc)})
            return self.local.get(session_id)
        return None if raw is None else SessionState.from_json(raw)

    def put(self, session_id: str, state: SessionState) -> None:
        self.local.put(session_id, state)
        try:
            self.provider.put_shared(self.key(session_id), state.to_json(), self.ttl)
        except ProviderUnavailable as exc:
            log.warning("session not written to the store; only this worker keeps it",
                        extra={"error": str(exc)})
