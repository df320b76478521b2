"""The embedded FalkorDB and the FalkorDB provider against the real server."""

from __future__ import annotations

import dataclasses
import json
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from kb_fixtures import KB_MINI

from core.errors import BundleError, NotFound, ProviderUnavailable
from ingest.chunking import Block
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from providers.embedded import STATE_FILE, EmbeddedServer, free_port
from providers.falkordb_provider import FalkorDBProvider

pytestmark = pytest.mark.falkordb

CYPHER_NAMES = ["') DETACH DELETE n //", '"}) MATCH (n) DETACH DELETE n //',
                "林冲'}) RETURN 1 UNION MATCH (n) DETACH DELETE n //", "\\' OR 1=1 --"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[EmbeddedServer]:
    """A server of this test alone (the session one is not restarted)."""
    own = EmbeddedServer(tmp_path / "falkordb", port=free_port())
    try:
        yield own
    finally:
        own.stop(force=True)


def _counts(provider: FalkorDBProvider) -> tuple[int, int]:
    row = provider._run(provider.graph_name, "MATCH (n) WITH count(n) AS nodes "
                        "OPTIONAL MATCH ()-[r]->() RETURN nodes, count(r)")[0]
    return row[0], row[1]


def test_graph_survives_a_restart(server: EmbeddedServer,
                                  kb_mini_bundle: KnowledgeBundle) -> None:
    provider = FalkorDBProvider(server=server, graph_name="kbx:restart")
    provider.load(kb_mini_bundle)
    before = provider.pair("lin_chong", "lu_zhishen")
    provider.close()  # this provider started the server: close stops it (AOF flushed)
    assert server.running() is None and not (server.directory / STATE_FILE).exists()

    again = FalkorDBProvider(server=EmbeddedServer(server.directory, port=free_port()),
                             graph_name="kbx:restart")
    try:
        assert again.pair("lin_chong", "lu_zhishen") == before
        assert again.stats().people == 10
    finally:
        again.close()


@pytest.mark.slow  # many loads of a bundle
def test_reloads_do_not_grow_the_append_only_log(server: EmbeddedServer,
                                                 kb_curated_bundle: KnowledgeBundle) -> None:
    """Each load rewrites the log: a restart replays the current graph, not every past load."""
    provider = FalkorDBProvider(server=server, graph_name="kbx:aof")
    try:
        sizes = []
        for _ in range(3):
            provider.load(kb_curated_bundle)
            logs = (server.directory / "appendonlydir").glob("*.incr.aof")
            sizes.append(sum(p.stat().st_size for p in logs))
        assert max(sizes) < 64 * 1024, sizes
        assert provider.stats().events == len(kb_curated_bundle.events)
    finally:
        provider.close()


def test_a_running_server_is_reused(server: EmbeddedServer) -> None:
    url = server.ensure_running()
    other = EmbeddedServer(server.directory)
    assert other.running() is not None
    assert other.ensure_running() == url and not other.started_here
    other.stop()  # not started here: leaves it running
    assert server.running() is not None


def test_stale_state_file_starts_a_new_server(server: EmbeddedServer) -> None:
    server.directory.mkdir(parents=True)
    (server.directory / STATE_FILE).write_text(json.dumps({"pid": 1, "port": free_port()}))
    assert server.running() is None
    server.ensure_running()
    assert server.started_here and server.running() is not None


def test_clear_error_when_it_cannot_start(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        blocked = EmbeddedServer(tmp_path / "falkordb", port=port, startup_timeout=10)
        with pytest.raises(ProviderUnavailable) as caught:
            blocked.ensure_running()
    message = str(caught.value)
    assert f"cannot start the embedded FalkorDB on 127.0.0.1:{port}" in message
    assert "FALKORDB_URL" in message


def test_background_connect_starts_the_server_and_the_first_query_joins_it(
        server: EmbeddedServer, kb_mini_bundle: KnowledgeBundle) -> None:
    provider = FalkorDBProvider(server=server, graph_name="kbx:background")
    try:
        provider.connect_in_background()
        provider.connect_in_background()  # a second call starts nothing more
        provider.load(kb_mini_bundle)  # joins the connect, then uses its connection
        assert provider.stats().people == 10 and server.started_here
    finally:
        provider.close()
    assert server.running() is None  # closed: the server it started is stopped


def test_background_connect_failure_is_raised_by_the_first_query(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        blocked = EmbeddedServer(tmp_path / "falkordb", port=busy.getsockname()[1],
                                 startup_timeout=2)
        provider = FalkorDBProvider(server=blocked, graph_name="kbx:none")
        provider.connect_in_background()
        with pytest.raises(ProviderUnavailable, match="cannot start the embedded FalkorDB"):
            provider.stats()
        provider.close()


def test_a_load_drops_the_timelines_read_before_it(server: EmbeddedServer,
                                                    kb_mini_bundle: KnowledgeBundle) -> None:
    provider = FalkorDBProvider(server=server, graph_name="kbx:timelines")
    try:
        provider.load(kb_mini_bundle)
        before = provider.timeline("lin_chong")
        assert provider.timeline("lin_chong") is before  # kept: one read per loaded graph
        renamed = [p.model_copy(update={"profile": "改过的简介"}) if p.id == "lin_chong" else p
                   for p in kb_mini_bundle.people]
        provider.load(dataclasses.replace(kb_mini_bundle, people=renamed))
        after = provider.timeline("lin_chong")
        assert after.person.profile == "改过的简介" and after.events == before.events
    finally:
        provider.close()


def test_unreachable_external_server() -> None:
    provider = FalkorDBProvider(url=f"redis://127.0.0.1:{free_port()}", graph_name="kbx:none")
    with pytest.raises(ProviderUnavailable):
        provider.stats()


def test_cypher_looking_names_leave_the_graph_unchanged(
        kb_falkordb: FalkorDBProvider, kb_mini_bundle: KnowledgeBundle) -> None:
    kb_falkordb.load(kb_mini_bundle)
    before = (_counts(kb_falkordb), kb_falkordb.stats())
    for name in CYPHER_NAMES:
        with pytest.raises(NotFound):
            kb_falkordb.resolve(name)
        with pytest.raises(NotFound):
            kb_falkordb.pair("lin_chong", name)
        with pytest.raises(NotFound):
            kb_falkordb.record(name)
        with pytest.raises(NotFound):
            kb_falkordb.timeline(name)
    assert (_counts(kb_falkordb), kb_falkordb.stats()) == before


def test_broken_bundle_leaves_previous_graph_answering(
        kb_falkordb: FalkorDBProvider, kb_mini_bundle: KnowledgeBundle,
        kb_blocks: list[Block], tmp_path: Path) -> None:
    kb_falkordb.load(kb_mini_bundle)
    before = kb_falkordb.pair("lin_chong", "lu_zhishen")
    broken = tmp_path / "broken"
    shutil.copytree(KB_MINI, broken)
    with (broken / "relations.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "rel_x", "source": "lin_chong", "target": "nobody",
                                 "type": "friend", "sources": [{"chapter": 7, "quote": "x"}]})
                     + "\n")
    with pytest.raises(BundleError):
        kb_falkordb.load(load_bundle(broken, kb_blocks))
    assert kb_falkordb.pair("lin_chong", "lu_zhishen") == before


def test_failure_mid_load_leaves_previous_graph(
        kb_falkordb: FalkorDBProvider, kb_mini_bundle: KnowledgeBundle,
        monkeypatch: pytest.MonkeyPatch) -> None:
    kb_falkordb.load(kb_mini_bundle)
    before = (_counts(kb_falkordb), kb_falkordb.pair("lin_chong", "lu_zhishen"))
    write = kb_falkordb._write_batch
    calls = {"n": 0}

    def failing(graph: str, statement: str, batch: list[dict[str, object]]) -> None:
        calls["n"] += 1
        if calls["n"] == 4:
            raise ProviderUnavailable("connection lost (simulated)")
        write(graph, statement, batch)

    monkeypatch.setattr(kb_falkordb, "_write_batch", failing)
    with pytest.raises(ProviderUnavailable, match="simulated"):
        kb_falkordb.load(kb_mini_bundle)
    assert (_counts(kb_falkordb), kb_falkordb.pair("lin_chong", "lu_zhishen")) == before
    graphs = kb_falkordb._client().list_graphs()
    assert not [g for g in graphs if g.startswith(f"{kb_falkordb.graph_name}:staging")]


def test_readers_never_see_a_half_loaded_graph(
        kb_falkordb: FalkorDBProvider, kb_falkordb_server: EmbeddedServer,
        kb_mini_bundle: KnowledgeBundle) -> None:
    kb_falkordb.load(kb_mini_bundle)
    expected = kb_falkordb.pair("lin_chong", "lu_zhishen")
    reader = FalkorDBProvider(url=kb_falkordb_server.ensure_running(),
                              graph_name=kb_falkordb.graph_name)
    seen: list[object] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            seen.append(reader.pair("lin_chong", "lu_zhishen") == expected)
            seen.append(reader.stats().events == 9)

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for _ in range(5):
            kb_falkordb.load(kb_mini_bundle)
    finally:
        done.set()
        thread.join()
        reader.close()
    assert seen and all(seen)


def test_the_last_user_stops_a_shared_server(tmp_path: Path,
                                             kb_mini_bundle: KnowledgeBundle) -> None:
    """Two processes on one data dir: the one that started the server closes first and leaves it
    to the other, which keeps answering and stops it when it is done."""
    first = FalkorDBProvider(server=EmbeddedServer(tmp_path / "falkordb"), graph_name="kbx:shared")
    first.load(kb_mini_bundle)
    second = FalkorDBProvider(server=EmbeddedServer(tmp_path / "falkordb"), graph_name="kbx:shared")
    try:
        assert second.stats().people == 10  # reuses the running server
        first.close()
        assert EmbeddedServer(tmp_path / "falkordb").running() is not None
        assert second.pair("lin_chong", "lu_zhishen").relations
    finally:
        second.close()
    assert EmbeddedServer(tmp_path / "falkordb").running() is None
