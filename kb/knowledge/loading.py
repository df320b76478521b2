"""The one place that decides which bundle is active and loads it against the corpus."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import BundleError
from core.settings import CURATED_CHUNK_SIZE, Settings
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import read_corpus
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from kb.knowledge.bundle_cache import BundleCache, key_for_blocks, key_for_corpus

if TYPE_CHECKING:
    from ingest.folds import ChapterFolds


def bundle_cache(settings: Settings) -> BundleCache:
    return BundleCache(settings.corpus_dir() / "cache")


def load_active_bundle(settings: Settings, blocks: Sequence[Block] | None = None,
                       directory: Path | None = None,
                       folds: ChapterFolds | None = None) -> KnowledgeBundle:
    """The bundle in `directory`, by default the active one (the merged curated + extracted bundle
    once `kbx extract` built it, else the curated one), validated against `blocks`.

    Without blocks, or when only some chapters were ingested (`kbx ingest --chapters 7-11`) and
    the bundle cites others, it is validated against the whole corpus (chunking is
    deterministic, so the ids of the ingested chapters are the same). `folds` (the store's folded
    chapters) spare folding the cited chapters again. A bundle validated once against the same
    files and blocks is read back from the cache (`kb.knowledge.bundle_cache`)."""
    where = directory or settings.active_bundle_dir()
    if not where.is_dir():
        raise BundleError(f"{where}: no such bundle directory")
    cache = bundle_cache(settings)
    return replace(_load(settings, where, cache, blocks, folds), derived_cache=cache.directory)


def _load(settings: Settings, where: Path, cache: BundleCache, blocks: Sequence[Block] | None,
          folds: ChapterFolds | None) -> KnowledgeBundle:
    if blocks is not None:
        key = key_for_blocks(where, blocks)
        cached = cache.get(key)
        if cached is not None:
            return cached
        try:
            bundle = load_bundle(where, blocks, folds, _across(settings))
        except BundleError:
            whole = chunk_corpus(read_corpus(settings.corpus), settings.chunk_size)
            if len(whole) == len(blocks):
                raise
            bundle = load_bundle(where, whole, across_blocks=_across(settings))
        cache.put(key, bundle)
        return bundle
    key = key_for_corpus(where, settings.corpus, settings.chunk_size)
    cached = cache.get(key)
    if cached is None:
        cached = load_bundle(where, chunk_corpus(read_corpus(settings.corpus), settings.chunk_size),
                             across_blocks=_across(settings))
        cache.put(key, cached)
    return cached


def _across(settings: Settings) -> bool:
    """Blocks cut at another length than the curation's (`CURATED_CHUNK_SIZE`) may split a
    quote: it is cited to the block it begins in instead of refusing the whole bundle."""
    return settings.chunk_size != CURATED_CHUNK_SIZE
