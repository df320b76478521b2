"""The HTTP API over real HTTP: uvicorn on a loopback port, the embedded FalkorDB in a tmp dir."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import httpx
import pytest
from api_support import closed_port, offline_settings, serve

from api.app import create_app
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb

API_KEY = "test-admin-key-0123"
QUESTION = "鲁智深和林冲怎么认识？"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus, api_falkordb: str
           ) -> Iterator[httpx.Client]:
    """The service over chapters 7–12; its graph starts empty, so the lifespan loads the bundle."""
    settings = offline_settings(tmp_path_factory.mktemp("api"), corpus_name="api-test",
                                falkordb_url=api_falkordb, api_key=API_KEY,
                                max_question_chars=200)
    with serve(create_app(settings, corpus=api_corpus)) as url, \
            httpx.Client(base_url=url, timeout=30) as http:
        yield http


@pytest.fixture(scope="module")
def degraded(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus
             ) -> Iterator[httpx.Client]:
    """The service with its graph store at a closed port, and no admin key configured."""
    settings = offline_settings(tmp_path_factory.mktemp("api-degraded"),
                                falkordb_url=f"redis://127.0.0.1:{closed_port()}")
    with serve(create_app(settings, corpus=api_corpus)) as url, \
            httpx.Client(base_url=url, timeout=30) as http:
        yield http


def error_of(response: httpx.Response, status: int) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, object] = response.json()
    assert isinstance(body["detail"], str) and body["detail"]
    return body


# --- /health ---------------------------------------------------------------------------------

def test_health_reports_store_llm_and_corpus(client: httpx.Client, api_corpus: Corpus) -> None:
    body = client.get("/health").json()
    assert body["status"] == "ok"
    assert body["store"]["reachable"] is True
    assert body["store"]["stats"]["backend"] == "falkordb"
    assert body["store"]["stats"]["people"] > 0
    assert body["llm"] == {"configured": False, "model": None}
    assert body["corpus"] == {"chapters": len(api_corpus.chapters), "blocks": len(api_corpus.blocks)}


def test_health_is_degraded_but_200_when_the_store_is_unreachable(degraded: httpx.Client) -> None:
    response = degraded.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["store"]["reachable"] is False
    assert body["store"]["error"]
    assert body["corpus"]["blocks"] > 0


# --- /kb -------------------------------------------------------------------------------------

def test_people_lists_everyone(client: httpx.Client) -> None:
    people = client.get("/kb/people").json()
    names = {p["name"] for p in people}
    assert {"林冲", "鲁智深"} <= names


@pytest.mark.parametrize("key", ["lin_chong", "林冲", "林沖", "豹子头"])
def test_person_by_id_name_alias_or_script(client: httpx.Client, key: str) -> None:
    body = client.get(f"/kb/people/{key}").json()
    assert body["person"]["id"] == "lin_chong"
    assert body["neighbors"] and body["events"]
    orders = [e["order"] for e in body["events"]]
    assert orders == sorted(orders)


def test_unknown_person_is_404_with_suggestions(client: httpx.Client) -> None:
    body = error_of(client.get("/kb/people/林冲冲"), 404)
    assert "林冲" in body["suggestions"]  # type: ignore[operator]


def test_pair_accepts_names_and_aliases_in_either_script(client: httpx.Client) -> None:
    body = client.get("/kb/pair", params={"a": "魯智深", "b": "豹子头"}).json()
    assert {body["a"]["id"], body["b"]["id"]} == {"lu_zhishen", "lin_chong"}
    assert body["relations"]
    assert all(source["quote"] for r in body["relations"] for source in r["sources"])


def test_pair_with_an_unknown_name_is_404(client: httpx.Client) -> None:
    body = error_of(client.get("/kb/pair", params={"a": "林冲", "b": "鲁智"}), 404)
    assert body["suggestions"]


def test_record_by_id_with_links_and_unknown_record(client: httpx.Client) -> None:
    relation = client.get("/kb/pair", params={"a": "鲁智深", "b": "林冲"}).json()["relations"][0]
    body = client.get(f"/kb/records/{relation['id']}").json()
    assert body["kind"] == "relation"
    assert body["record"]["id"] == relation["id"]
    assert body["linked"] and body["sources"]
    missing = error_of(client.get(f"/kb/records/{relation['id']}x"), 404)
    assert relation["id"] in missing["suggestions"]  # type: ignore[operator]


def test_journey_in_stages(client: httpx.Client) -> None:
    body = client.get("/kb/journey/林教头").json()
    assert body["person"]["id"] == "lin_chong"
    assert len(body["stages"]) >= 2
    chapters = [c for stage in body["stages"] for c in stage["chapters"]]
    assert chapters == sorted(chapters)


def test_journey_default_view_pages_and_full(client: httpx.Client) -> None:
    body = client.get("/kb/journey/林冲").json()
    stages = body["stages"]
    assert body["events"] == sum(len(s["events"]) + s["other_events"] for s in stages)
    assert all("participants" not in e for s in stages for e in s["events"])
    walked = []
    for number, stage in enumerate(stages, start=1):
        page = client.get("/kb/journey/lin_chong", params={"stage": number, "limit": 200}).json()
        assert page["title"] == stage["title"]
        assert page["total"] == len(stage["events"]) + stage["other_events"]
        walked += [e["order"] for e in page["events"]]
    assert walked == sorted(walked) and len(walked) == body["events"]
    second = client.get("/kb/journey/林冲", params={"stage": 1, "offset": 1, "limit": 1}).json()
    assert second["offset"] == 1 and len(second["events"]) <= 1
    full = client.get("/kb/journey/林冲", params={"full": True}).json()
    assert [s["title"] for s in full["stages"]] == [s["title"] for s in stages]
    assert all("sources" in s for s in full["stages"])
    error_of(client.get("/kb/journey/林冲", params={"stage": len(stages) + 1}), 404)
    limit = error_of(client.get("/kb/journey/林冲", params={"stage": 1, "limit": 0}), 422)
    assert limit["errors"][0]["field"] == "limit"  # type: ignore[index]


def test_pair_by_name_is_pair_by_id(client: httpx.Client) -> None:
    by_name = client.get("/kb/pair", params={"a": "林冲", "b": "花和尚"}).json()
    by_id = client.get("/kb/pair", params={"a": "lin_chong", "b": "lu_zhishen"}).json()
    assert by_name == by_id


def test_path_between_two_people(client: httpx.Client) -> None:
    body = client.get("/kb/path", params={"a": "林冲", "b": "鲁智深", "max_hops": 2}).json()
    assert body["found"] is True
    assert [p["id"] for p in body["people"]][::len(body["people"]) - 1] == ["lin_chong",
                                                                            "lu_zhishen"]


def test_path_max_hops_out_of_range_is_422_naming_it(client: httpx.Client) -> None:
    body = error_of(client.get("/kb/path", params={"a": "林冲", "b": "鲁智深", "max_hops": 9}), 422)
    assert "max_hops" in str(body["detail"])
    assert body["errors"][0]["field"] == "max_hops"  # type: ignore[index]


def test_store_unreachable_is_503_with_a_json_body(degraded: httpx.Client) -> None:
    for path in ("/kb/people", "/kb/people/林冲", "/kb/journey/林冲"):
        body = error_of(degraded.get(path), 503)
        assert "FalkorDB" in str(body["detail"]) or "store" in str(body["detail"])


# --- /chunks and /search ---------------------------------------------------------------------

def test_chunk_by_id(client: httpx.Client, api_corpus: Corpus) -> None:
    block = api_corpus.blocks[0]
    body = client.get(f"/chunks/{block.id}").json()
    assert body["id"] == block.id and body["chapter"] == block.chapter
    assert body["text"] == block.display_text
    assert (body["start"], body["end"]) == (block.start, block.end)
    assert body["chapter_title"] == api_corpus.chapters[block.chapter].title


def test_unknown_chunk_is_404_with_close_ids(client: httpx.Client) -> None:
    body = error_of(client.get("/chunks/ch007_chunk_0001"), 404)
    assert "ch007_chunk_001" in body["suggestions"]  # type: ignore[operator]


def test_search_returns_the_trace(client: httpx.Client) -> None:
    response = client.get("/search", params={"q": QUESTION, "chapters": "7-8", "budget": 2000,
                                             "max_blocks": 3, "policy": "skip", "explain": "true"})
    body = response.json()
    assert response.status_code == 200, body
    assert body["chapters"] == [7, 8]
    assert (body["budget"], body["max_blocks"], body["policy"]) == (2000, 3, "skip")
    assert 0 < len(body["packed"]) <= 3
    assert all(c["chapter"] in (7, 8) for c in body["candidates"])
    top = body["candidates"][0]
    assert any(hit["explanation"] for hit in top["channels"].values())


@pytest.mark.parametrize(("params", "field"), [
    ({"q": QUESTION, "budget": 5}, "budget"),
    ({"q": QUESTION, "budget": 10**6}, "budget"),
    ({"q": QUESTION, "strategy": "dense"}, "strategy"),
    ({"q": QUESTION, "policy": "maybe"}, "policy"),
    ({"q": QUESTION, "chapters": "seven"}, "chapters"),
    ({"q": QUESTION, "chapters": "500"}, "chapters"),
    ({"q": ""}, "q"),
    ({"q": "林" * 201}, "q"),
    ({}, "q"),
])
def test_search_rejects_bad_parameters_naming_the_field(client: httpx.Client,
                                                        params: dict[str, object],
                                                        field: str) -> None:
    body = error_of(client.get("/search", params=params), 422)  # type: ignore[arg-type]
    assert str(body["detail"]).startswith(f"{field}:"), body


# --- /ask ------------------------------------------------------------------------------------

def test_ask_answers_with_located_quotes(client: httpx.Client, api_corpus: Corpus) -> None:
    response = client.post("/ask", json={"question": QUESTION})
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "answered" and body["answer"]
    assert body["mode"] == "offline"
    assert body["plan"]["kind"] == "pair"
    assert set(body["plan"]["person_ids"]) == {"lu_zhishen", "lin_chong"}
    assert body["quotes"] and all(q["located"] for q in body["quotes"])
    cited = {c["chunk_id"] for c in body["citations"]}
    assert cited and all(api_corpus.block(chunk_id) for chunk_id in cited)
    assert body["session_id"]


def test_ask_in_english(client: httpx.Client) -> None:
    body = client.post("/ask", json={"question": "How did Lu Zhishen and Lin Chong meet?"}).json()
    assert body["status"] == "answered" and body["plan"]["lang"] == "en"
    assert set(body["plan"]["person_ids"]) == {"lu_zhishen", "lin_chong"}
    assert body["trace"]["read_as"] == "鲁智深和林冲是怎么认识的"
    assert body["quotes"] and all(q["located"] for q in body["quotes"])


def test_ask_follow_up_in_the_same_session(client: httpx.Client) -> None:
    first = client.post("/ask", json={"question": QUESTION}).json()
    second = client.post("/ask", json={"question": "他们后来怎么样了？",
                                       "session_id": first["session_id"]}).json()
    assert second["session_id"] == first["session_id"]
    assert second["plan"]["follow_up"] is True
    assert set(second["plan"]["person_ids"]) == {"lu_zhishen", "lin_chong"}


@pytest.mark.parametrize(("payload", "field"), [
    ({"question": ""}, "question"),
    ({"question": "   "}, "question"),
    ({"question": "林冲" * 101}, "question"),
    ({"question": QUESTION, "budget": 10}, "budget"),
    ({"question": QUESTION, "budget": 10**6}, "budget"),
    ({"question": QUESTION, "max_blocks": 0}, "max_blocks"),
    ({}, "question"),
])
def test_ask_rejects_bad_requests_naming_the_field(client: httpx.Client,
                                                   payload: dict[str, object], field: str) -> None:
    body = error_of(client.post("/ask", json=payload), 422)
    assert str(body["detail"]).startswith(f"{field}:"), body


def test_ask_body_that_is_not_json_is_422(client: httpx.Client) -> None:
    response = client.post("/ask", content=b"not json", headers={"content-type": "application/json"})
    error_of(response, 422)


# --- /admin/reload ---------------------------------------------------------------------------

@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"}, {"X-API-Key": ""}])
def test_reload_without_the_right_key_is_401(client: httpx.Client,
                                             headers: dict[str, str]) -> None:
    response = client.post("/admin/reload", headers=headers)
    error_of(response, 401)
    assert "WWW-Authenticate" in response.headers


def test_reload_with_the_key_replaces_the_graph(client: httpx.Client) -> None:
    before = client.get("/health").json()["store"]["stats"]
    response = client.post("/admin/reload", headers={"X-API-Key": API_KEY})
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "reloaded"
    assert body["report"]["people"] == before["people"]
    assert client.get("/kb/people/林冲").status_code == 200


def test_reload_is_503_when_no_key_is_configured(degraded: httpx.Client) -> None:
    body = error_of(degraded.post("/admin/reload", headers={"X-API-Key": "anything"}), 503)
    assert "KBX_API_KEY" in str(body["detail"])


# --- logs ------------------------------------------------------------------------------------

def test_one_json_log_line_per_request_without_secrets(client: httpx.Client,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    from cli.common import JsonLogFormatter

    with caplog.at_level(logging.INFO, logger="kbx.api.access"):
        client.post("/admin/reload", headers={"X-API-Key": API_KEY})
        client.get("/kb/people/林冲冲")
    lines = [json.loads(JsonLogFormatter().format(r)) for r in caplog.records
             if r.name == "kbx.api.access"]
    assert [(x["method"], x["path"], x["status"]) for x in lines] == [
        ("POST", "/admin/reload", 200), ("GET", "/kb/people/林冲冲", 404)]
    assert all(isinstance(x["ms"], float) for x in lines)
    assert API_KEY not in caplog.text
