"""The OpenAPI document is the behaviour: schemathesis (every check, positive and negative data,
a bounded number of examples and a fixed seed) over every operation of the live service finds
no failure, and every error the document promises has the one `ErrorBody` shape."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hardening_support import hardened_settings, service

from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb

API_KEY = "contract-admin-key-0123"
CONFIG = Path(__file__).parent / "contract" / "schemathesis.toml"
EXAMPLES = 12
"""Generated cases per operation and phase: 500-odd requests in all, under a minute."""
SEED = 20261130


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus, api_falkordb: str
         ) -> Iterator[httpx.Client]:
    settings = hardened_settings(tmp_path_factory.mktemp("contract"), corpus_name="contract",
                                 falkordb_url=api_falkordb, api_key=API_KEY)
    with service(settings, api_corpus) as http:
        yield http


def test_every_error_status_has_the_error_body(live: httpx.Client) -> None:
    doc = live.get("/openapi.json").json()
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    for path, methods in doc["paths"].items():
        for method, operation in methods.items():
            statuses = operation["responses"]
            assert "500" in statuses, (method, path)
            if operation.get("parameters") or operation.get("requestBody"):
                assert "422" in statuses, (method, path)
            for status, response in statuses.items():
                if status.startswith(("4", "5")):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, status)


@pytest.mark.slow  # a fuzzing run of every operation (tens of seconds)
def test_schemathesis_finds_no_failure(live: httpx.Client, tmp_path: Path) -> None:
    st = shutil.which("st", path=str(Path(sys.executable).parent))
    assert st is not None, "schemathesis is a dev dependency (pyproject.toml)"
    location = f"{str(live.base_url).rstrip('/')}/openapi.json"
    command = [st, "--config-file", str(CONFIG), "run", location,
               "--checks", "all", "--mode", "all", "--max-examples", str(EXAMPLES),
               "--seed", str(SEED), "--workers", "1", "--generation-database", "none",
               "--no-color", "-H", f"X-API-Key: {API_KEY}"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    report = run.stdout + run.stderr
    print(report)  # the figures: cases generated per phase, seconds
    assert run.returncode == 0, report
    operations = sum(len(methods) for methods in live.get("/openapi.json").json()["paths"].values())
    assert operations >= 15  # the explorer's and the knowledge routes, search, ask, admin …
    assert f"Selected: {operations}/{operations}" in report and "unique failure" not in report
