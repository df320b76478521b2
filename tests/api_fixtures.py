"""Fixtures of the API and `kbx ask` tests (a pytest plugin: `pytest_plugins = ["api_fixtures"]`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from api_support import API_CHAPTERS

from core.settings import DEFAULT_CORPUS
from ingest.corpus import read_corpus
from ingest.store import store_dir
from providers.embedded import EmbeddedServer
from retrieval.corpus import Corpus, build_corpus, save_corpus


@pytest.fixture(scope="session")
def api_corpus() -> Corpus:
    """Chapters 7–12 of the real book, chunked and indexed."""
    return build_corpus(read_corpus(DEFAULT_CORPUS, API_CHAPTERS), 600)


@pytest.fixture(scope="session")
def api_data_dir(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus) -> Path:
    """A data directory holding the chapters 7–12 block store, as `kbx ingest` leaves it."""
    data_dir = tmp_path_factory.mktemp("api-data")
    save_corpus(api_corpus, store_dir(data_dir, "shuihu"),
                {"chapters": sorted(API_CHAPTERS), "chunk_size": 600})
    return data_dir


@pytest.fixture(scope="session")
def api_falkordb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One embedded FalkorDB (tmp data dir) for the API and CLI tests; each test module uses its
    own graph (corpus name), so they start empty. Stopping it takes a few seconds, once."""
    server = EmbeddedServer(tmp_path_factory.mktemp("api-falkordb"))
    url = server.ensure_running()
    try:
        yield url
    finally:
        server.stop()
