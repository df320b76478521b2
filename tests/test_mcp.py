"""The MCP server: every tool listed and called by the official SDK's client, in process, over
stdio (`kbx mcp`) and over streamable HTTP at the app's `/mcp` (behind KBX_API_KEY).

The services are real: chapters 7–12 of the book, the kb_mini bundle, the networkx store (the
FalkorDB one answers the same, tests/test_provider_contract.py); no tool is stubbed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from api_support import closed_port, offline_settings, serve
from kb_fixtures import KB_MINI
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from api.app import create_app
from api.mcp_server import build_mcp_server
from api.services import Services, open_services
from api.shelf import Shelf, _Open
from core.settings import Settings
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]

TOOLS = {"books", "find_person", "pair", "journey", "path", "record", "source_block", "search_evidence",
         "ask"}
API_KEY = "mcp-test-key-4711"


def run_in_own_loop(scenario: Any, *args: Any) -> Any:
    """Run an async scenario on a fresh event loop in its own thread: the browser tests' sync
    Playwright keeps a loop running on the main thread for the whole session, and a second loop
    may not start on a thread that already runs one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, scenario, *args).result()


def mini_settings(data_dir: Path, **overrides: Any) -> Settings:
    return offline_settings(data_dir, provider="memory", bundle=KB_MINI, **overrides)


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus) -> Iterator[Services]:
    opened = open_services(mini_settings(tmp_path_factory.mktemp("mcp")), corpus=api_corpus)
    try:
        yield opened
    finally:
        opened.close()


def shelf_of(services: Services) -> Shelf:
    """A shelf over the module's services that leaves them open (the fixture closes them)."""
    return Shelf(services.settings, open_services, _open={
        services.settings.corpus_name: _Open(services, 0.0, pinned=True)})


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    value: dict[str, Any] = result.structured_content
    assert value is not None
    return value


async def call_every_tool(client: Client) -> dict[str, dict[str, Any]]:
    listed = await client.list_tools()
    by_name = {tool.name: tool for tool in listed.tools}
    assert set(by_name) == TOOLS
    for tool in by_name.values():
        assert tool.description and tool.input_schema["type"] == "object"
        assert tool.output_schema is not None, tool.name
    calls = {
        "books": {},
        "find_person": {"query": "豹子頭"},
        "pair": {"a": "林沖", "b": "鲁智深"},
        "journey": {"person": "林冲"},
        "path": {"a": "林冲", "b": "高俅"},
        "record": {"record_id": "rel_sworn"},
        "source_block": {"chunk_id": "ch007_chunk_004", "quote": "林冲大喜，就当结义智深为兄"},
        "search_evidence": {"question": "林冲结义智深", "max_blocks": 3},
        "ask": {"question": "鲁智深和林冲怎么认识？"},
    }
    return {name: structured(await client.call_tool(name, args)) for name, args in calls.items()}


def check_results(results: dict[str, dict[str, Any]]) -> None:
    assert results["find_person"]["matches"][0]["id"] == "lin_chong"
    assert results["find_person"]["matches"][0]["matched"] == "豹子头"
    pair = results["pair"]
    assert {pair["a"]["id"], pair["b"]["id"]} == {"lin_chong", "lu_zhishen"}
    assert "sworn_brothers" in {r["type"] for r in pair["relations"]}
    stages = results["journey"]["stages"]
    assert stages and stages[0]["chapters"][0] == 7
    path = results["path"]
    assert path["found"] and path["people"][0]["id"] == "lin_chong"
    assert path["people"][-1]["id"] == "gao_qiu"
    record = results["record"]
    assert record["kind"] == "relation" and record["sources"][0]["chunk_id"] == "ch007_chunk_004"
    block = results["source_block"]
    span = block["highlights"][0]
    assert block["text"][span["start"]:span["end"]] == "林沖大喜，就當結義智深為兄"
    assert block["previous"] == "ch007_chunk_003" and block["next"] == "ch007_chunk_005"
    evidence = results["search_evidence"]
    assert 1 <= len(evidence["hits"]) <= 3
    assert evidence["hits"][0]["fused_rank"] == 1 and evidence["hits"][0]["text"]
    assert set(evidence["hits"][0]["channels"]) <= {"ngram", "unigram"}
    answer = results["ask"]
    assert answer["status"] == "answered" and answer["citations"]
    assert answer["quotes"] and all(q["located"] for q in answer["quotes"])
    assert answer["plan"]["kind"] == "pair"


def test_every_tool_listed_and_called_in_process(services: Services) -> None:
    async def scenario() -> dict[str, dict[str, Any]]:
        async with Client(build_mcp_server(lambda: shelf_of(services))) as client:
            return await call_every_tool(client)

    check_results(run_in_own_loop(scenario))


def test_bad_input_is_a_tool_error_naming_the_argument_and_the_closest_names(
        services: Services) -> None:
    async def scenario() -> list[Any]:
        async with Client(build_mcp_server(lambda: shelf_of(services))) as client:
            return [await client.call_tool("pair", {"a": "林冲冲", "b": "鲁智深"}),
                    await client.call_tool("source_block", {"chunk_id": "ch007_chunk_999"}),
                    await client.call_tool("path", {"a": "林冲", "b": "高俅", "max_hops": 9}),
                    await client.call_tool("ask", {"question": "  "})]

    unknown, block, hops, empty = run_in_own_loop(scenario)
    for result in (unknown, block, hops, empty):
        assert result.is_error
    text = unknown.content[0].text
    assert "a: unknown person '林冲冲'; closest: 林冲" in text
    assert "ch007_chunk_999" in block.content[0].text
    assert "max_hops" in hops.content[0].text
    assert "question" in empty.content[0].text


@pytest.mark.slow  # `kbx mcp` as a subprocess opening the whole service
def test_kbx_mcp_speaks_stdio(api_data_dir: Path, tmp_path: Path) -> None:
    """`kbx mcp` as an agent's host would start it; the same tools over stdin/stdout."""
    data_dir = tmp_path / "data"
    (data_dir / "shuihu").mkdir(parents=True)
    (data_dir / "shuihu" / "blocks").symlink_to(api_data_dir / "shuihu" / "blocks")
    kbx = str(Path(sys.executable).with_name("kbx"))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("OPENAI_", "KBX_", "FALKORDB_"))}
    env.update({"KBX_DATA_DIR": str(data_dir), "KBX_PROVIDER": "memory",
                "KBX_BUNDLE": str(KB_MINI), "KBX_BLOCK_REAL_LLM": "1"})
    params = StdioServerParameters(command=kbx, args=["mcp"], env=env)

    async def scenario() -> dict[str, dict[str, Any]]:
        async with Client(params, read_timeout_seconds=120) as client:
            return await call_every_tool(client)

    check_results(run_in_own_loop(scenario))


@pytest.fixture(scope="module")
def mcp_url(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus) -> Iterator[str]:
    settings = mini_settings(tmp_path_factory.mktemp("mcp-http"), api_key=API_KEY)
    with serve(create_app(settings, corpus=api_corpus)) as url:
        yield f"{url}/mcp"


def test_the_app_serves_the_same_tools_at_mcp_behind_the_api_key(mcp_url: str) -> None:
    async def scenario(headers: dict[str, str]) -> dict[str, dict[str, Any]]:
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
                Client(streamable_http_client(mcp_url, http_client=http)) as client:
            return await call_every_tool(client)

    check_results(run_in_own_loop(scenario, {"Authorization": f"Bearer {API_KEY}"}))
    check_results(run_in_own_loop(scenario, {"X-API-Key": API_KEY}))


@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"},
                                     {"Authorization": "Bearer wrong"}])
def test_mcp_without_the_right_key_is_401(mcp_url: str, headers: dict[str, str]) -> None:
    response = httpx2.post(mcp_url, headers={**headers, "Accept": "application/json",
                                             "Content-Type": "application/json"},
                           content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
    assert response.status_code == 401
    assert "API key" in response.json()["detail"]


def test_a_dead_store_is_a_tool_error_naming_no_port(tmp_path: Path, api_corpus: Corpus) -> None:
    """The graph tools run in the graph pool: over a store that is not there they fail at once
    with the service's own words, never the engine's (port, URL, password)."""
    port = closed_port()
    settings = offline_settings(tmp_path, provider="falkordb", bundle=KB_MINI,
                                falkordb_url=f"redis://:pw-secret@127.0.0.1:{port}")
    degraded = open_services(settings, corpus=api_corpus, supervise=True)
    try:
        async def scenario() -> list[Any]:
            async with Client(build_mcp_server(lambda: shelf_of(degraded))) as client:
                return [await client.call_tool("pair", {"a": "林冲", "b": "鲁智深"}),
                        await client.call_tool("journey", {"person": "林冲"}),
                        await client.call_tool("record", {"record_id": "rel_sworn"}),
                        await client.call_tool("ask", {"question": "鲁智深和林冲怎么认识？"})]

        for result in run_in_own_loop(scenario):
            assert result.is_error
            text = result.content[0].text
            assert "unavailable" in text
            for leak in (str(port), "127.0.0.1", "redis", "pw-secret", "Errno"):
                assert leak not in text, (leak, text)
    finally:
        degraded.close()
