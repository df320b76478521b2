"""Quote checking: every quote of an answer must be found verbatim (after normalization) in the
block it cites; a quote that is not is flagged, never silently kept."""

from __future__ import annotations

import re
from collections.abc import Callable

from ingest.chunking import Block
from ingest.normalize import normalize
from kb.answer_models import QuoteCheck

SENTENCE = re.compile(r"[^。！？\n]+[。！？]?[」』”]?")


def check_quote(text: str, chunk_id: str, block_of: Callable[[str], Block | None]) -> QuoteCheck:
    block = block_of(chunk_id)
    needle = normalize(text)
    located = bool(block is not None and needle and needle in normalize(block.text))
    return QuoteCheck(text=text, chunk_id=chunk_id, located=located)


def sentences(text: str) -> list[str]:
    """Sentences of a block as written (quotes are cut from these, so they are verbatim)."""
    return [s.strip() for s in SENTENCE.findall(text) if len(s.strip()) >= 4]
