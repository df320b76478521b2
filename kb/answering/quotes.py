"""Quote checking: every quote of an answer must be found verbatim (after normalization) in the
block it cites; a quote that is not is flagged, never silently kept."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from core.text import normalize, to_simplified
from ingest.chunking import Block
from ingest.chunking import chunk_id as id_of_block
from kb.answering.answer_models import QuoteCheck

SENTENCE = re.compile(r"[^。！？\n]+[。！？]?[」』”]?")


@lru_cache(maxsize=4096)
def normalized_block(text: str) -> str:
    """A block's text normalized once (blocks are few and asked about again and again)."""
    return normalize(text)


def check_quote(text: str, chunk_id: str, block_of: Callable[[str], Block | None]) -> QuoteCheck:
    """Located when the quote stands in the cited block, or begins there and runs on into the
    next block of the chapter (blocks cut shorter than the curation's split a quote)."""
    block = block_of(chunk_id)
    needle = normalize(text)
    located = bool(block is not None and needle and (
        needle in normalized_block(block.text) or _runs_on(needle, block, block_of)))
    return QuoteCheck(text=text, chunk_id=chunk_id, located=located)


def _runs_on(needle: str, block: Block, block_of: Callable[[str], Block | None]) -> bool:
    following = block_of(id_of_block(block.chapter, block.index + 1))
    if following is None:
        return False
    own = normalized_block(block.text)
    at = (own + normalized_block(following.text)).find(needle, max(0, len(own) - len(needle)))
    return 0 <= at < len(own)


def sentences(text: str) -> list[str]:
    """Sentences of a block as written (quotes are cut from these, so they are verbatim)."""
    return [s for s, _ in sentence_pairs(text)]


@lru_cache(maxsize=4096)
def sentence_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """(sentence as written, the same sentence simplified) for each sentence of a block."""
    simplified = to_simplified(text)
    pairs = []
    for match in SENTENCE.finditer(text):
        written = match.group(0)
        stripped = written.strip()
        if len(stripped) >= 4:
            start = match.start() + len(written) - len(written.lstrip())
            pairs.append((stripped, simplified[start:start + len(stripped)]))
    return tuple(pairs)
