"""Shared helpers of the extraction tests: the real corpus, the curated bundle and the roster."""

from __future__ import annotations

from functools import lru_cache

from core.settings import DEFAULT_BUNDLE, DEFAULT_CORPUS
from extract.names import Roster, read_lexicon
from extract.pipeline import LEXICON_FILE, Inputs, curated_chapters
from extract.text import ChapterTexts
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import read_corpus
from kb.knowledge.bundle import load_bundle

CHUNK_SIZE = 600


@lru_cache(maxsize=1)
def book_blocks() -> tuple[Block, ...]:
    return tuple(chunk_corpus(read_corpus(DEFAULT_CORPUS), CHUNK_SIZE))


def fresh_inputs() -> Inputs:
    """Inputs over the whole book; a new roster each time (the LLM converter adds people)."""
    blocks = list(book_blocks())
    curated = load_bundle(DEFAULT_BUNDLE, blocks)
    roster = Roster.build(curated.people, read_lexicon(DEFAULT_BUNDLE / LEXICON_FILE),
                          curated_chapters(curated))
    return Inputs(blocks, curated, roster, ChapterTexts(blocks))
