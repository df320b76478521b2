"""`kill -9` of `kbx kb load` at several points: the live graph stays whole, the next load leaves
no staging graph, `kbx status` tells what is left, and no server outlives its users."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hardening_support import grown_bundle, wait_for
from kb_fixtures import KB_MINI
from typer.testing import CliRunner

from cli.main import app
from core.settings import DEFAULT_CORPUS
from ingest.chunking import chunk_corpus
from ingest.corpus import read_corpus
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from providers.embedded import EmbeddedServer
from providers.falkordb_provider import FalkorDBProvider
from providers.falkordb_schema import COUNT, expected_counts, graph_rows

pytestmark = [pytest.mark.falkordb, pytest.mark.slow]  # loads killed at twenty points

GRAPH = "kbx:interrupted"
COPIES = 300
"""Copies of each event in the bigger bundle: its load writes for about a second."""


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, KnowledgeBundle]]:
    blocks = chunk_corpus(read_corpus(DEFAULT_CORPUS, set(range(7, 12))), 600)
    grown = grown_bundle(tmp_path_factory.mktemp("grown") / "bundle", COPIES)
    return {"small": (KB_MINI, load_bundle(KB_MINI, blocks)),
            "grown": (grown, load_bundle(grown, blocks))}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Chapters 7–11 of the book as a corpus of their own: the loader validates against them."""
    directory = tmp_path_factory.mktemp("corpus")
    for number in range(7, 12):
        shutil.copy(DEFAULT_CORPUS / f"{number:03d}.txt", directory)
    return directory


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory,
          bundles: dict[str, tuple[Path, KnowledgeBundle]]) -> Iterator[tuple[Path,
                                                                              FalkorDBProvider]]:
    """A data dir whose embedded server this test holds (a lease), the small bundle loaded."""
    data_dir = tmp_path_factory.mktemp("interrupted")
    provider = FalkorDBProvider(server=EmbeddedServer(data_dir / "falkordb"), graph_name=GRAPH)
    provider.load(bundles["small"][1])
    try:
        yield data_dir, provider
    finally:
        provider.close()


def env_for(data_dir: Path, corpus: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FALKORDB_URL", "KBX_PROVIDER")}
    return {**env, "KBX_DATA_DIR": str(data_dir), "KBX_CORPUS_NAME": "interrupted",
            "KBX_CORPUS": str(corpus)}


def counts(provider: FalkorDBProvider, graph: str) -> tuple[int, int]:
    row = provider._run(graph, COUNT)
    return (row[0][0], row[0][1]) if row else (0, 0)


def staging_written(provider: FalkorDBProvider, nodes: int) -> Callable[[], bool]:
    def check() -> bool:
        staging = provider.staging_graphs()
        return bool(staging) and counts(provider, staging[0])[0] >= nodes
    return check


POINTS = {
    "before it touches the graph": None,
    "when the staging graph appears": 1,
    "half way through the writes": 2000,
    "after the rename, in the log rewrite": -1,
}


@pytest.mark.parametrize("point", POINTS)
def test_kill_9_of_a_load(store: tuple[Path, FalkorDBProvider], corpus: Path,
                          bundles: dict[str, tuple[Path, KnowledgeBundle]], point: str) -> None:
    data_dir, provider = store
    wholes = {expected_counts(graph_rows(bundle)) for _, bundle in bundles.values()}
    assert counts(provider, GRAPH) in wholes
    small = expected_counts(graph_rows(bundles["small"][1]))
    grown = expected_counts(graph_rows(bundles["grown"][1]))
    provider.load(bundles["small"][1])
    loader = subprocess.Popen(
        [sys.executable, "-c", "from cli.main import app; app()", "kb", "load", "--bundle",
         str(bundles["grown"][0])], env=env_for(data_dir, corpus), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        nodes = POINTS[point]
        if nodes is None:
            time.sleep(0.3)
        elif nodes > 0:
            assert wait_for(staging_written(provider, nodes), 60, step=0.002), "no staging graph"
        else:
            assert wait_for(lambda: counts(provider, GRAPH) == grown, 60, step=0.002)
    finally:
        loader.kill()
        loader.wait()
    live = counts(provider, GRAPH)
    assert live == (grown if nodes == -1 else small)  # whole: the old graph or the new one
    left = [g for g in provider.staging_graphs()]
    status = json.loads(CliRunner().invoke(app, ["status", "--json"],
                                           env=env_for(data_dir, corpus)).stdout)
    assert status["staging_left"] == len(left) and status["graph_loaded"] is True
    provider.load(bundles["small"][1])  # the next load removes what the killed one left
    assert provider.staging_graphs() == []
    assert counts(provider, GRAPH) == small
