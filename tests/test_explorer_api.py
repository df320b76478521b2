"""The routes the explorer page draws from: suggestions, neighbourhoods, record subgraphs and the
source block with its neighbours and highlights (real HTTP, chapters 7–12, the kb_mini bundle)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from api_support import offline_settings, serve
from kb_fixtures import KB_MINI

from api.app import create_app
from ingest.locate import spans_in
from kb.knowledge.directory import PeopleDirectory
from kb.knowledge.models import Person
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus) -> Iterator[httpx.Client]:
    settings = offline_settings(tmp_path_factory.mktemp("explorer-api"), provider="memory",
                                bundle=KB_MINI)
    with serve(create_app(settings, corpus=api_corpus)) as url, \
            httpx.Client(base_url=url, timeout=30) as client:
        yield client


def test_suggestions_rank_exact_then_prefix_then_contained_then_close() -> None:
    people = [Person(id="lin_chong", name="林冲", aliases=["豹子头", "林教头"]),
              Person(id="lin_niangzi", name="林冲娘子"),
              Person(id="yang_lin", name="杨林", aliases=["锦豹子"]),
              Person(id="song_jiang", name="宋江", aliases=["及时雨"])]
    directory = PeopleDirectory(people, stars={"lin_chong": "天雄星"},
                                weights={"lin_chong": 800, "song_jiang": 2000})
    assert [(m.name, m.exact) for m in directory.suggest("林沖")] == [("林冲", True),
                                                                     ("林冲娘子", False)]
    assert [(m.name, m.matched, m.kind) for m in directory.suggest("豹子")] == [
        ("林冲", "豹子头", "alias"), ("杨林", "锦豹子", "alias")]
    assert [(m.name, m.kind) for m in directory.suggest("天雄星")] == [("林冲", "star")]
    assert [m.name for m in directory.suggest("及時雨")] == ["宋江"]
    assert directory.suggest("林冲冲")[0].name == "林冲"  # a name inside what was typed
    assert directory.suggest("林教")[0].matched == "林教头"
    assert directory.suggest("？ ") == [] and directory.suggest("林", limit=1)[0].name == "林冲"
    assert len(directory) == 4


def test_spans_are_found_across_scripts_and_punctuation() -> None:
    text = "林沖大喜，就當結義智深為兄。智深大喜"
    assert spans_in(text, "林冲大喜就当结义智深为兄") == [(0, 13)]
    assert [text[s:e] for s, e in spans_in(text, "大喜")] == ["大喜", "大喜"]
    assert spans_in(text, "武松") == [] and spans_in(text, "，。") == []


def test_suggest_route(http: httpx.Client) -> None:
    body = http.get("/kb/suggest", params={"q": "豹子頭"}).json()
    assert body[0]["id"] == "lin_chong" and body[0]["matched"] == "豹子头" and body[0]["exact"]
    assert http.get("/kb/suggest", params={"q": "林", "limit": 1}).json()[0]["name"].startswith("林")
    bad = http.get("/kb/suggest", params={"q": "林", "limit": 0})
    assert bad.status_code == 422 and "limit" in bad.json()["detail"]
    assert http.get("/kb/suggest").status_code == 422


def test_graph_route_centre_neighbours_and_edges(http: httpx.Client) -> None:
    body = http.get("/kb/graph/林沖").json()
    assert body["center"]["id"] == "lin_chong"
    nodes = {n["id"]: n for n in body["nodes"]}
    assert body["nodes"][0]["id"] == "lin_chong"
    assert "lu_zhishen" in nodes and nodes["lu_zhishen"]["degree"] >= 2
    sworn = next(e for e in body["edges"] if e["type"] == "sworn_brothers")
    assert sworn["label"] == "结义兄弟" and sworn["chapters"][0] == 7
    assert {sworn["source"], sworn["target"]} == {"lin_chong", "lu_zhishen"}
    assert all(e["source"] == "lin_chong" or e["target"] == "lin_chong" for e in body["edges"])
    missing = http.get("/kb/graph/林冲冲")
    assert missing.status_code == 404 and "林冲" in missing.json()["suggestions"]


def test_events_route_in_book_order(http: httpx.Client) -> None:
    events = http.get("/kb/people/lin_chong/events").json()
    assert events and [e["order"] for e in events] == sorted(e["order"] for e in events)
    assert all("lin_chong" in e["participants"] for e in events)


def test_subgraph_of_records(http: httpx.Client) -> None:
    body = http.get("/kb/subgraph", params=[("records", "rel_sworn"), ("records", "ev_sworn"),
                                            ("records", "nope")]).json()
    assert body["records"] == ["rel_sworn", "ev_sworn"] and body["missing"] == ["nope"]
    kinds = {n["id"]: n["kind"] for n in body["nodes"]}
    assert kinds["lin_chong"] == kinds["lu_zhishen"] == "person" and kinds["ev_sworn"] == "event"
    edges = {(e["source"], e["target"], e["kind"]) for e in body["edges"]}
    assert ("lin_chong", "lu_zhishen", "relation") in edges
    assert any(kind == "participant" and target == "ev_sworn" for _, target, kind in edges)
    assert http.get("/kb/subgraph").status_code == 422


def test_chunk_with_neighbours_and_the_quote_highlighted(http: httpx.Client) -> None:
    body = http.get("/chunks/ch007_chunk_004", params={"quote": "林冲大喜，就当结义智深为兄"}).json()
    assert body["previous"] == "ch007_chunk_003" and body["next"] == "ch007_chunk_005"
    span = body["highlights"][0]
    assert body["text"][span["start"]:span["end"]] == "林沖大喜，就當結義智深為兄"
    assert http.get("/chunks/ch007_chunk_001").json()["previous"] is None  # chapter 7 opens
    elsewhere = http.get("/chunks/ch007_chunk_005", params={"quote": "林冲大喜就当结义智深为兄"})
    assert elsewhere.json()["highlights"] == []
    too_long = http.get("/chunks/ch007_chunk_004", params={"quote": "林" * 501})
    assert too_long.status_code == 422 and "quote" in too_long.json()["detail"]
