"""Bounded input everywhere, over real HTTP: chapter ranges within the corpus, lengths of paths
and parameters, the request-body limit (enforced while reading), control characters refused
before any query, no redirect, and error bodies that name no port, path or engine message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx
import pytest
from api_support import closed_port
from hardening_support import (
    hardened_settings,
    peak_memory_mb,
    raw_request,
    reset_peak_memory,
    service,
    status_of,
)

from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb

QUESTION = "鲁智深和林冲怎么认识？"
LIMIT = 4096


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus, api_falkordb: str
           ) -> Iterator[httpx.Client]:
    settings = hardened_settings(tmp_path_factory.mktemp("inputs"), corpus_name="inputs",
                                 falkordb_url=api_falkordb, max_body_bytes=LIMIT)
    with service(settings, api_corpus) as http:
        yield http


STORE_PORT = closed_port()


@pytest.fixture(scope="module")
def degraded(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus
             ) -> Iterator[httpx.Client]:
    """The service with its graph store at a closed port (a password in the URL)."""
    settings = hardened_settings(tmp_path_factory.mktemp("inputs-down"),
                                 falkordb_url=f"redis://:pw-secret@127.0.0.1:{STORE_PORT}")
    with service(settings, api_corpus) as http:
        yield http


def refused(response: httpx.Response, status: int, field: str | None = None) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert len(response.content) < 2048, "an error body must not echo what was sent"
    body: dict[str, object] = response.json()
    assert isinstance(body["detail"], str) and body["detail"]
    if field is not None:
        assert str(body["detail"]).startswith(f"{field}:"), body
    return body


def port_of(client: httpx.Client) -> int:
    return int(urlsplit(str(client.base_url)).port or 0)


# --- chapter ranges ----------------------------------------------------------------------------

@pytest.mark.parametrize("chapters", ["1-99999999999", "1-100000", "0", "13", "7-13", "7,",
                                      "", "7 - 9", "007", "-7", "7-8-9"])
def test_chapters_outside_the_corpus_or_malformed_are_422(client: httpx.Client,
                                                          chapters: str) -> None:
    body = refused(client.get("/search", params={"q": QUESTION, "chapters": chapters}), 422,
                   "chapters")
    assert "99999" not in str(body)


def test_chapters_within_the_corpus_either_way_round(client: httpx.Client) -> None:
    body = client.get("/search", params={"q": QUESTION, "chapters": "12-7"}).json()
    assert body["chapters"] == [7, 8, 9, 10, 11, 12]
    assert client.get("/search", params={"q": QUESTION, "chapters": "8,7"}).json()[
        "chapters"] == [7, 8]


def test_the_document_shows_the_corpus_chapters(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    chapters = next(p for p in doc["paths"]["/search"]["get"]["parameters"]
                    if p["name"] == "chapters")
    pattern = next(s for s in chapters["schema"]["anyOf"] if s.get("type") == "string")["pattern"]
    assert "1[0-2]" in pattern and "[7-9]" in pattern  # chapters 7–12
    q = next(p for p in doc["paths"]["/search"]["get"]["parameters"] if p["name"] == "q")
    assert q["schema"]["maxLength"] == 500


# --- lengths -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "field"), [
    ("/kb/records/{}", "record_id"), ("/kb/people/{}", "person"), ("/kb/journey/{}", "person"),
    ("/chunks/{}", "chunk_id"), ("/kb/graph/{}", "person"), ("/kb/people/{}/events", "person")])
def test_long_path_ids_are_refused_without_an_echo(client: httpx.Client, path: str,
                                                   field: str) -> None:
    body = refused(client.get(path.format("x" * 101)), 422, field)
    assert "xxxxxxxxxx" not in str(body)
    huge = path.format("x" * 100_000).encode()  # 100 KB: longer than any client builds
    response = raw_request(port_of(client), b"GET " + huge + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert 400 <= status_of(response) < 500, response[:300]
    assert b"xxxxxxxxxx" not in response


@pytest.mark.parametrize(("path", "params", "field"), [
    ("/kb/pair", {"a": "林" * 101, "b": "鲁智深"}, "a"),
    ("/kb/path", {"a": "林冲", "b": "x" * 5000}, "b"),
    ("/search", {"q": "林" * 501}, "q"),
    ("/search", {"q": QUESTION, "chapters": "7," * 150 + "7"}, "chapters"),
    ("/kb/suggest", {"q": "林" * 51}, "q"),
    ("/kb/subgraph", {"records": ["lin_chong"] * 201}, "records"),
    ("/kb/subgraph", {"records": "x" * 101}, "records.0"),
    ("/kb/journey/林冲", {"stage": "1", "offset": "100001"}, "offset"),
    ("/kb/journey/林冲", {"stage": "1001"}, "stage"),
    ("/kb/journey/林冲", {"stage": "1", "limit": "100000"}, "limit"),
    ("/chunks/ch007_chunk_004", {"quote": "林" * 501}, "quote"),
])
def test_long_query_parameters_are_422(client: httpx.Client, path: str,
                                       params: dict[str, str], field: str) -> None:
    refused(client.get(path, params=params), 422, field)


# --- control characters -----------------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "params", "field"), [
    ("GET", "/kb/people/林\x00冲", None, "person"),
    ("GET", "/kb/journey/林冲\x1b", None, "person"),
    ("GET", "/kb/records/lin_chong\x7f", None, "record_id"),
    ("GET", "/chunks/ch007\x00", None, "chunk_id"),
    ("GET", "/kb/pair", {"a": "林冲\x00", "b": "鲁智深"}, "a"),
    ("GET", "/kb/path", {"a": "林冲", "b": "\x85"}, "b"),
    ("GET", "/search", {"q": "\x1c"}, "q"),
    ("GET", "/search", {"q": "林冲\x00"}, "q"),
    ("GET", "/kb/graph/林\x00冲", None, "person"),
    ("GET", "/kb/suggest", {"q": "林\x00"}, "q"),
    ("GET", "/kb/subgraph", {"records": "lin_chong\x1b"}, "records.0"),
    ("GET", "/chunks/ch007_chunk_004", {"quote": "林冲\x00"}, "quote"),
])
def test_control_characters_are_422_before_any_query(client: httpx.Client, method: str,
                                                     path: str, params: dict[str, str] | None,
                                                     field: str) -> None:
    head, _, tail = path.rpartition("/")
    body = refused(client.request(method, f"{head}/{quote(tail)}", params=params), 422, field)
    assert "control" in str(body["detail"])


@pytest.mark.parametrize(("payload", "field"), [
    ({"question": "林冲\x00和鲁智深"}, "question"),
    ({"question": QUESTION, "session_id": "abc\x00"}, "session_id"),
    ({"question": QUESTION, "knowledge_budget": False}, "knowledge_budget"),
    ({"question": QUESTION, "budget": "3000"}, "budget"),
    ({"question": QUESTION, "max_blocks": 2.5}, "max_blocks"),
])
def test_ask_body_fields_are_checked(client: httpx.Client, payload: dict[str, object],
                                     field: str) -> None:
    refused(client.post("/ask", json=payload), 422, field)


def test_a_question_with_line_breaks_is_a_question(client: httpx.Client) -> None:
    response = client.get("/search", params={"q": "鲁智深\n和林冲\t怎么认识"})
    assert response.status_code == 200, response.text


# --- redirects and unknown routes -----------------------------------------------------------

def test_no_redirect_changes_a_name(client: httpx.Client) -> None:
    response = client.get("/kb/people/abc%2F%2F", follow_redirects=False)
    refused(response, 404)
    assert "location" not in response.headers
    assert client.get("/kb/people/林冲/", follow_redirects=False).status_code == 404


# --- the body limit ---------------------------------------------------------------------------

def test_a_declared_oversize_body_is_refused_before_it_is_read(client: httpx.Client) -> None:
    head = (b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 104857600\r\n\r\n")
    response = raw_request(port_of(client), head, b'{"question": "')  # 100 MB promised, 14 sent
    assert status_of(response) == 413, response[:300]
    assert f"larger than {LIMIT} bytes".encode() in response


def test_a_chunked_oversize_body_is_cut_off_while_read(client: httpx.Client) -> None:
    chunk = b"x" * 1024
    sent = {"bytes": 0}

    def stream() -> Iterator[bytes]:
        for _ in range(16 * 1024):  # 16 MB, 4,000 times the limit
            sent["bytes"] += len(chunk)
            yield chunk

    reset_peak_memory()
    before = peak_memory_mb()
    try:
        response = client.post("/ask", content=stream(),
                               headers={"content-type": "application/json"})
    except httpx.HTTPError:
        pytest.fail("the service closed the connection without an answer")
    refused(response, 413)
    # the service runs in this process: its peak memory did not grow with what was sent
    assert sent["bytes"] == 16 * 1024 * 1024
    assert peak_memory_mb() - before < 50


def test_a_body_under_the_limit_is_read(client: httpx.Client) -> None:
    body = refused(client.post("/ask", json={"question": "林" * 1000}), 422, "question")
    assert "500" in str(body["detail"])


def test_invalid_utf8_body_is_422_naming_the_body(client: httpx.Client) -> None:
    response = client.post("/ask", content=b'{"question": "\xff\xfe"}',
                           headers={"content-type": "application/json"})
    body = refused(response, 422, "body")
    assert "byte 14" in str(body["detail"]), body  # where the bad byte is, not "byte 0"


# --- nothing of the machinery in error bodies ----------------------------------------------

def test_store_errors_name_no_port_path_or_engine(degraded: httpx.Client) -> None:
    health = degraded.get("/health")
    assert health.status_code == 200 and health.json()["status"] == "degraded"
    bodies = [health.text]
    for path in ("/kb/people", "/kb/people/林冲", "/kb/pair?a=林冲&b=鲁智深", "/kb/graph/林冲",
                 "/kb/journey/林冲?stage=1&limit=5", "/kb/subgraph?records=lin_chong"):
        response = degraded.get(path)
        refused(response, 503)
        assert response.headers.get("retry-after") == "1"
        bodies.append(response.text)
    bodies.append(degraded.post("/ask", json={"question": QUESTION}).text)
    assert degraded.get("/kb/suggest?q=林").status_code == 200  # names need no graph
    for text in bodies:
        for leak in ("127.0.0.1", "redis", "FalkorDB", "Errno", "refused", "pw-secret",
                     str(STORE_PORT), str(Path.cwd())):
            assert leak not in text, (leak, text)
