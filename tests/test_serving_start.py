"""The service serves before its parts are open (`api.startup`): `/health` answers at once and
says what is loading, other routes wait for the parts and then answer as usual, and a start that
fails is reported (degraded, 503 with the reason's kind) instead of a closed port."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

import api.services
from api.app import create_app
from providers.memory import MemoryProvider
from retrieval.corpus import Corpus
from tests.api_support import offline_settings, serve

pytest_plugins = ["api_fixtures"]


def test_health_answers_while_loading_and_routes_wait(
        tmp_path: Path, api_corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    opening = api.services.open_services

    def held(*args: object, **kwargs: object) -> api.services.Services:
        assert release.wait(30)
        return opening(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api.services, "open_services", held)
    settings = offline_settings(tmp_path, provider="memory")
    app = create_app(settings, corpus=api_corpus, provider=MemoryProvider())
    with serve(app, opened=False) as url, httpx.Client(base_url=url, timeout=30) as http, \
            ThreadPoolExecutor(1) as pool:
        loading = http.get("/health")
        assert loading.status_code == 200
        assert loading.json()["status"] == "ok" and loading.json()["ready"] is False
        assert loading.json()["loading"] == ["corpus", "store", "answers"]
        assert loading.json()["store"] is None and loading.json()["corpus"] is None
        waiting = pool.submit(http.get, "/chunks/ch007_chunk_004")
        assert not waiting.done()  # the route waits for the corpus
        release.set()
        chunk = waiting.result(timeout=30)
        assert chunk.status_code == 200 and chunk.json()["id"] == "ch007_chunk_004"
        ready = http.get("/health").json()
        assert ready["ready"] is True and ready["loading"] == []
        assert ready["corpus"] == {"chapters": len(api_corpus.chapters),
                                   "blocks": len(api_corpus.blocks)}


def test_a_failed_start_is_degraded_and_503(tmp_path: Path, api_corpus: Corpus,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> api.services.Services:
        raise OSError("no such corpus")

    monkeypatch.setattr(api.services, "open_services", broken)
    app = create_app(offline_settings(tmp_path), corpus=api_corpus)
    with serve(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        health = http.get("/health")
        assert health.status_code == 200
        assert health.json()["status"] == "degraded" and health.json()["ready"] is False
        for path in ("/kb/people", "/chunks/ch007_chunk_004", "/search?q=林冲"):
            response = http.get(path)
            assert response.status_code == 503, path
            assert "could not start" in response.json()["detail"]
            assert "corpus" not in response.json()["detail"]  # the cause stays in the log
