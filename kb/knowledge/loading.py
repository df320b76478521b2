"""The one place that decides which bundle is active and loads it against the corpus."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from core.errors import BundleError
from core.settings import Settings
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import read_corpus
from kb.knowledge.bundle import KnowledgeBundle, load_bundle


def load_active_bundle(settings: Settings, blocks: Sequence[Block] | None = None,
                       directory: Path | None = None) -> KnowledgeBundle:
    """The bundle in `directory`, by default the active one (the merged curated + extracted bundle
    once `kbx extract` built it, else the curated one), validated against `blocks`.

    Without blocks, or when only some chapters were ingested (`kbx ingest --chapters 7-11`) and
    the bundle cites others, it is validated against the whole corpus (chunking is
    deterministic, so the ids of the ingested chapters are the same)."""
    where = directory or settings.active_bundle_dir()
    if blocks is not None:
        try:
            return load_bundle(where, blocks)
        except BundleError:
            whole = chunk_corpus(read_corpus(settings.corpus), settings.chunk_size)
            if len(whole) == len(blocks):
                raise
            return load_bundle(where, whole)
    return load_bundle(where, chunk_corpus(read_corpus(settings.corpus), settings.chunk_size))
