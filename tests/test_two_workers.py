"""Two workers of one service (two apps on one graph store and data directory, each with its own
caches, as `kbx serve --workers 2` runs them): a follow-up asked of the second continues the
session the first began, the session lives in the store under the book's prefix with a time to
live, and a reload through one worker refreshes the other's caches (the graph's version key)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
import redis
from hardening_support import hardened_settings, service, wait_for
from kb_fixtures import KB_MINI

from core.settings import Settings
from kb.knowledge.manifest import write_manifest
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb

KEY = "two-workers-admin-key"
QUESTION = "鲁智深和林冲怎么认识？"
FOLLOW_UP = "他们后来怎么样了？"
NEW_ALIAS = "沧州囚徒"


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory, api_falkordb: str) -> Settings:
    root = Path(tmp_path_factory.mktemp("two-workers"))
    bundle = root / "bundle"
    shutil.copytree(KB_MINI, bundle)  # edited by a test below, then reloaded
    return hardened_settings(root / "data", corpus_name="two-workers", bundle=bundle,
                             falkordb_url=api_falkordb, api_key=KEY, session_ttl=600)


@pytest.fixture(scope="module")
def workers(settings: Settings, api_corpus: Corpus
            ) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    with ExitStack() as stack:
        first = stack.enter_context(service(settings, api_corpus))
        second = stack.enter_context(service(settings, api_corpus))
        yield first, second


def _ask(worker: httpx.Client, question: str, session: str | None = None) -> dict[str, object]:
    body: dict[str, object] = {"question": question}
    if session is not None:
        body["session_id"] = session
    response = worker.post("/ask", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_a_follow_up_through_the_second_worker_keeps_its_context(
        workers: tuple[httpx.Client, httpx.Client]) -> None:
    first, second = workers
    began = _ask(first, QUESTION)
    followed = _ask(second, FOLLOW_UP, str(began["session_id"]))
    plan = followed["plan"]
    assert isinstance(plan, dict)
    assert followed["session_id"] == began["session_id"]
    assert plan["follow_up"] is True
    assert set(plan["person_ids"]) == {"lu_zhishen", "lin_chong"}
    alone = _ask(second, FOLLOW_UP)["plan"]  # the same words without the session
    assert isinstance(alone, dict) and set(alone["person_ids"]) != {"lu_zhishen", "lin_chong"}


def test_the_session_is_a_key_of_the_book_with_a_time_to_live(
        workers: tuple[httpx.Client, httpx.Client], settings: Settings, api_falkordb: str) -> None:
    session = str(_ask(workers[0], QUESTION)["session_id"])
    store = redis.Redis.from_url(api_falkordb)
    key = f"kbx:{settings.corpus_name}:session:{session}"
    state = json.loads(store.get(key) or b"{}")
    assert set(state["person_ids"]) == {"lu_zhishen", "lin_chong"}
    assert 0 < int(store.ttl(key)) <= settings.session_ttl


def test_an_unknown_session_is_404_naming_the_field(
        workers: tuple[httpx.Client, httpx.Client]) -> None:
    response = workers[1].post("/ask", json={"question": FOLLOW_UP, "session_id": "never-begun"})
    assert response.status_code == 404
    assert response.json()["detail"].startswith("session_id: unknown session 'never-begun'")


def test_a_reload_through_one_worker_refreshes_the_others_caches(
        workers: tuple[httpx.Client, httpx.Client], settings: Settings) -> None:
    first, second = workers
    assert second.get("/kb/suggest", params={"q": NEW_ALIAS}).json() == []
    people = settings.bundle / "people.jsonl"
    rows = [json.loads(line) for line in people.read_text(encoding="utf-8").splitlines()]
    rows[0]["aliases"].append(NEW_ALIAS)
    assert rows[0]["id"] == "lin_chong"
    people.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                      encoding="utf-8")
    write_manifest(settings.bundle)
    reloaded = first.post("/admin/reload", headers={"X-API-Key": KEY})
    assert reloaded.status_code == 200, reloaded.text

    def suggested() -> bool:
        names = second.get("/kb/suggest", params={"q": NEW_ALIAS}).json()
        return [n["id"] for n in names] == ["lin_chong"]

    assert wait_for(suggested, timeout=30, step=0.2), "the second worker kept its old directory"
