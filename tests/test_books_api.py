"""Two built books and the configured corpus in one running service: every route takes the
book, `GET /books` lists them, a book opens on first use and closes when idle (its own embedded
store stopping with it), at most `books_open` are open, and an unknown book is 404 naming the
built ones. The default book answers as it always did when no book is named.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import offline_settings, serve
from books_support import build, few_chapters, stop_stores
from kb_fixtures import KB_MINI

from api.app import create_app
from core.books import STORES_DIR
from providers.embedded import EmbeddedServer
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb
IDLE = 1.5


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    base = tmp_path_factory.mktemp("books-api")
    data_dir = base / "data"
    build(data_dir, "mini", few_chapters(base / "mini", 4), "--title", "三国（前四回）")
    build(data_dir, "tiny", few_chapters(base / "tiny", 2))
    stop_stores(data_dir)
    try:
        yield data_dir
    finally:
        stop_stores(data_dir)


@pytest.fixture(scope="module")
def http(library: Path, api_corpus: Corpus) -> Iterator[httpx.Client]:
    """The service: the configured corpus (chapters 7–12, the kb_mini bundle) by default, the
    built books beside it, each in its own embedded store."""
    settings = offline_settings(library, bundle=KB_MINI, book_idle=IDLE, books_open=2)
    with serve(create_app(settings, corpus=api_corpus), startup_timeout=60) as url, \
            httpx.Client(base_url=url, timeout=60) as client:
        yield client


def open_books(http: httpx.Client) -> set[str]:
    return {b["name"] for b in http.get("/books").json() if b["open"]}


def names(people: list[dict[str, Any]]) -> set[str]:
    return {p["name"] for p in people}


def test_books_lists_every_book_and_opens_none(http: httpx.Client) -> None:
    listed = {b["name"]: b for b in http.get("/books").json()}
    assert set(listed) == {"shuihu", "mini", "tiny"}
    assert listed["shuihu"]["default"] and listed["shuihu"]["open"]
    assert listed["mini"]["title"] == "三国（前四回）" and listed["mini"]["source"] == "extracted"
    assert listed["mini"]["counts"]["people"] > 10
    assert not listed["mini"]["open"] and not listed["tiny"]["open"]


def test_every_route_reads_the_book_it_names(http: httpx.Client) -> None:
    default = http.get("/kb/people").json()
    assert "林冲" in names(default)
    assert http.get("/kb/people", params={"book": "shuihu"}).json() == default
    mini = http.get("/kb/people", params={"book": "mini"}).json()
    assert {"刘备", "关羽", "张飞"} <= names(mini) and "林冲" not in names(mini)
    pair = http.get("/kb/pair", params={"a": "刘备", "b": "张飞", "book": "mini"})
    assert pair.status_code == 200, pair.text
    found = http.get("/search", params={"q": "桃园结义", "book": "mini"}).json()
    assert found["packed"] and all(c.startswith("ch00") for c in found["packed"])
    block = http.get("/chunks/ch001_chunk_001", params={"book": "tiny"}).json()
    assert block["chapter"] == 1
    suggested = http.get("/kb/suggest", params={"q": "刘", "book": "mini"}).json()
    assert suggested and suggested[0]["name"].startswith("刘")
    graph = http.get("/kb/graph/刘备", params={"book": "mini"}).json()
    assert graph["center"]["name"] == "刘备"
    one = http.get("/books/mini").json()
    assert one["open"] and one["hubs"] and one["counts"]["people"] > 10


def test_ask_takes_the_book_in_the_body_or_the_query(http: httpx.Client) -> None:
    by_body = http.post("/ask", json={"question": "刘备是谁？", "book": "mini"}).json()
    assert by_body["status"] == "answered"
    assert by_body["citations"] and all(c["chapter"] <= 4 for c in by_body["citations"])
    by_query = http.post("/ask", params={"book": "tiny"}, json={"question": "刘备是谁？"}).json()
    assert by_query["citations"] and all(c["chapter"] <= 2 for c in by_query["citations"])
    default = http.post("/ask", json={"question": "鲁智深和林冲怎么认识？"}).json()
    assert default["status"] == "answered" and default["plan"]["kind"] == "pair"


def test_an_unknown_book_is_404_listing_the_built_ones(http: httpx.Client) -> None:
    for response in (http.get("/kb/people", params={"book": "nope"}),
                     http.post("/ask", json={"question": "谁？", "book": "nope"}),
                     http.get("/books/nope")):
        assert response.status_code == 404, response.text
        body = response.json()
        assert "'nope'" in body["detail"]
        assert set(body["suggestions"]) == {"shuihu", "mini", "tiny"}
    bad = http.get("/kb/people", params={"book": "Not A Book"})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "book"


def test_at_most_books_open_are_open_the_least_recently_used_closed_first(
        http: httpx.Client) -> None:
    http.get("/kb/people", params={"book": "mini"})
    http.get("/kb/people", params={"book": "tiny"})
    assert open_books(http) == {"shuihu", "tiny"}  # books_open = 2, the default pinned
    http.get("/kb/people", params={"book": "mini"})
    assert open_books(http) == {"shuihu", "mini"}


def test_a_book_unused_for_book_idle_closes_and_its_store_stops(http: httpx.Client,
                                                                library: Path) -> None:
    http.get("/kb/people", params={"book": "tiny"})
    store = EmbeddedServer(library / STORES_DIR / "tiny")
    assert "tiny" in open_books(http) and store.running() is not None
    deadline = time.monotonic() + IDLE + 15
    while time.monotonic() < deadline and ("tiny" in open_books(http)
                                           or store.running() is not None):
        time.sleep(0.2)
    assert open_books(http) == {"shuihu"}
    assert store.running() is None  # the service gave up its lease: the graph left memory
    again = http.get("/kb/people", params={"book": "tiny"})  # and opens again on demand
    assert again.status_code == 200 and "刘备" in names(again.json())


def test_many_requests_for_a_closed_book_all_get_it(http: httpx.Client) -> None:
    deadline = time.monotonic() + IDLE + 15
    while time.monotonic() < deadline and open_books(http) != {"shuihu"}:
        time.sleep(0.2)
    with ThreadPoolExecutor(8) as pool:
        responses = list(pool.map(
            lambda _: http.get("/kb/people", params={"book": "mini"}), range(8)))
    assert all(r.status_code == 200 for r in responses)
    assert len({r.text for r in responses}) == 1


def test_mcp_tools_take_the_book(library: Path, api_corpus: Corpus) -> None:
    """In process, over the SDK's client: `books`, a tool on a built book, an unknown book."""
    import anyio
    from mcp import Client

    from api.mcp_server import build_mcp_server
    from api.services import open_services
    from api.shelf import Shelf

    settings = offline_settings(library, bundle=KB_MINI, provider="memory")
    shelf = Shelf.holding(open_services(settings, corpus=api_corpus))

    async def scenario() -> list[Any]:
        async with Client(build_mcp_server(lambda: shelf)) as client:
            return [await client.call_tool("books", {}),
                    await client.call_tool("find_person", {"query": "刘备", "book": "mini"}),
                    await client.call_tool("find_person", {"query": "林冲"}),
                    await client.call_tool("find_person", {"query": "刘备", "book": "nope"})]

    try:
        with ThreadPoolExecutor(1) as pool:  # a loop of its own (see tests/test_mcp.py)
            books, mini, default, unknown = pool.submit(anyio.run, scenario).result()
    finally:
        shelf.close()
    listed = {b["name"]: b for b in books.structured_content["books"]}
    assert set(listed) == {"shuihu", "mini", "tiny"} and listed["shuihu"]["default"]
    assert mini.structured_content["matches"][0]["name"] == "刘备"
    assert default.structured_content["matches"][0]["name"] == "林冲"
    assert unknown.is_error and "'nope'" in unknown.content[0].text
    assert "mini" in unknown.content[0].text
