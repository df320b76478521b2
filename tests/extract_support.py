"""Shared helpers of the extraction tests: the real corpus, the curated bundle and the roster."""

from __future__ import annotations

from functools import lru_cache

from core.settings import DEFAULT_BUNDLE, DEFAULT_CORPUS, bundle_fingerprint
from extract.corpus_tables import read_tables
from extract.names import Roster, read_lexicon
from extract.pipeline import LEXICON_FILE, Inputs
from extract.text import ChapterTexts
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import Chapter, read_corpus
from kb.knowledge.bundle import KnowledgeBundle, load_bundle

CHUNK_SIZE = 600


@lru_cache(maxsize=1)
def book_chapters() -> tuple[Chapter, ...]:
    return tuple(read_corpus(DEFAULT_CORPUS))


@lru_cache(maxsize=1)
def book_blocks() -> tuple[Block, ...]:
    return tuple(chunk_corpus(book_chapters(), CHUNK_SIZE))


def book_titles() -> dict[int, str]:
    """The chapters' title lines (their 回目)."""
    return {c.number: c.title for c in book_chapters()}


@lru_cache(maxsize=1)
def curated_bundle() -> KnowledgeBundle:
    """The curated bundle (read once; tests never change it)."""
    return load_bundle(DEFAULT_BUNDLE, book_blocks())


def fresh_inputs() -> Inputs:
    """Inputs over the whole book as `pipeline.load_inputs` builds them: a roster of the lexicon
    and the corpus tables alone (a new one each time: the LLM converter adds people), and the
    curated bundle for measuring and merging."""
    blocks = list(book_blocks())
    roster = Roster.build(read_lexicon(DEFAULT_BUNDLE / LEXICON_FILE), read_tables(DEFAULT_BUNDLE))
    return Inputs(blocks, curated_bundle(), roster, ChapterTexts(blocks, book_titles()),
                  bundle_fingerprint(DEFAULT_BUNDLE))
