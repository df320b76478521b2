"""Fixtures of the knowledge base and relation providers (imported by conftest.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import DEFAULT_BUNDLE, DEFAULT_CORPUS
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import Chapter, read_corpus
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from providers.embedded import EmbeddedServer, free_port
from providers.falkordb_provider import FalkorDBProvider

KB_MINI = Path(__file__).parent / "fixtures" / "kb_mini"
"""A small hand-made bundle of chapters 7–11 with real quotes (tests only)."""

KB_CHAPTERS = set(range(7, 12))


@pytest.fixture(scope="session")
def kb_chapters() -> list[Chapter]:
    return read_corpus(DEFAULT_CORPUS, KB_CHAPTERS)


@pytest.fixture(scope="session")
def kb_blocks(kb_chapters: list[Chapter]) -> list[Block]:
    return chunk_corpus(kb_chapters, 600)


@pytest.fixture(scope="session")
def kb_mini_bundle(kb_blocks: list[Block]) -> KnowledgeBundle:
    return load_bundle(KB_MINI, kb_blocks)


@pytest.fixture(scope="session")
def kb_curated_bundle() -> KnowledgeBundle:
    """The curated bundle of kb/data/shuihu against the whole book."""
    return load_bundle(DEFAULT_BUNDLE, chunk_corpus(read_corpus(DEFAULT_CORPUS), 600))


@pytest.fixture(scope="session")
def kb_falkordb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    """One embedded FalkorDB for the session: a temporary data dir, a free port, stopped at
    the end."""
    server = EmbeddedServer(tmp_path_factory.mktemp("kb-falkordb") / "falkordb", port=free_port())
    server.ensure_running()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def kb_falkordb(kb_falkordb_server: EmbeddedServer) -> Iterator[FalkorDBProvider]:
    """An empty FalkorDB provider on a graph of its own, dropped after the test."""
    provider = FalkorDBProvider(url=kb_falkordb_server.ensure_running(),
                                graph_name=f"test:{uuid.uuid4().hex[:10]}")
    try:
        yield provider
    finally:
        provider.drop()
        provider.close()
