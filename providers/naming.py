"""What both providers share besides the name resolver (`kb.knowledge.names`): unknown ids and the
hop limit."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from core.errors import NotFound, QueryRejected
from kb.knowledge.names import MAX_SUGGESTIONS


def unknown_id(kind: str, record_id: str, known: Iterable[str]) -> NotFound:
    close = difflib.get_close_matches(record_id, sorted(known), n=MAX_SUGGESTIONS, cutoff=0.5)
    hint = f"; closest: {', '.join(close)}" if close else ""
    return NotFound(f"unknown {kind} {record_id!r}{hint}", close)


def check_hops(max_hops: int, limit: int) -> None:
    if not 1 <= max_hops <= limit:
        raise QueryRejected(f"max_hops must be between 1 and {limit}, not {max_hops}")
