"""The CLI and the API check input alike (`core.validation`): each input below is refused by both,
with the same words after the field's name (the CLI's `--chapters` is the API's `chapters`, its
question the API's `q` or `question`): control characters, chapters out of the corpus (named,
never clamped), one person twice for a pair or a path, an unknown session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hardening_support import hardened_settings, service
from kb_fixtures import KB_MINI
from typer.testing import CliRunner

from cli.main import app
from core.settings import Settings
from ingest.store import store_dir
from retrieval.corpus import Corpus, save_corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb

runner = CliRunner()
NAME = "one-validation"

CASES = [  # (CLI arguments, API method and path, its parameters or body, the API's status)
    (["search", "林\x01冲"], "GET", "/search", {"q": "林\x01冲"}, 422),
    (["search", "   "], "GET", "/search", {"q": "   "}, 422),
    (["ask", ""], "POST", "/ask", {"question": ""}, 422),
    (["ask", "林冲\x07的故事"], "POST", "/ask", {"question": "林冲\x07的故事"}, 422),
    (["search", "林冲", "--chapters", "0-99999"], "GET", "/search",
     {"q": "林冲", "chapters": "0-99999"}, 422),
    (["search", "林冲", "--chapters", "13"], "GET", "/search", {"q": "林冲", "chapters": "13"}, 422),
    (["pair", "林冲", "林冲"], "GET", "/kb/pair", {"a": "林冲", "b": "林冲"}, 422),
    (["path", "林冲", "豹子头"], "GET", "/kb/path", {"a": "林冲", "b": "豹子头"}, 422),
    (["journey", "林\x00冲"], "GET", "/kb/journey/%E6%9E%97%00%E5%86%B2", {}, 422),
    (["ask", "他们后来怎么样了？", "--session", "never-begun"], "POST", "/ask",
     {"question": "他们后来怎么样了？", "session_id": "never-begun"}, 404),
]


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus,
             api_falkordb: str) -> Settings:
    data_dir = Path(tmp_path_factory.mktemp("one-validation"))
    save_corpus(api_corpus, store_dir(data_dir, NAME), {"chapters": sorted(api_corpus.chapters)})
    return hardened_settings(data_dir, corpus_name=NAME, falkordb_url=api_falkordb)


@pytest.fixture(scope="module")
def env(settings: Settings) -> dict[str, str | None]:
    values: dict[str, str | None] = {
        "KBX_DATA_DIR": str(settings.data_dir), "KBX_CORPUS_NAME": NAME,
        "KBX_BUNDLE": str(KB_MINI), "KBX_PROVIDER": "falkordb",
        "FALKORDB_URL": settings.falkordb_url, "OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}
    loaded = runner.invoke(app, ["kb", "load"], env=values)
    assert loaded.exit_code == 0, loaded.output
    return values


@pytest.fixture(scope="module")
def api(settings: Settings, api_corpus: Corpus, env: dict[str, str | None]
        ) -> Iterator[httpx.Client]:
    with service(settings, api_corpus) as http:
        yield http


def _words(message: str) -> str:
    """What a message says after the field it names (`--chapters: …` and `chapters: …` alike)."""
    field, sep, rest = message.partition(": ")
    return rest if sep and " " not in field else message


@pytest.mark.parametrize(("args", "method", "path", "data", "status"), CASES,
                         ids=[" ".join(c[0])[:40] for c in CASES])
def test_the_cli_and_the_api_refuse_alike(env: dict[str, str | None], api: httpx.Client,
                                          args: list[str], method: str, path: str,
                                          data: dict[str, str], status: int) -> None:
    done = runner.invoke(app, args, env=env)
    assert done.exit_code == 2, done.output
    lines = [line for line in done.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.output
    cli = lines[0].removeprefix("error: ")
    response = (api.get(path, params=data) if method == "GET" else api.post(path, json=data))
    assert response.status_code == status, response.text
    assert _words(cli) == _words(response.json()["detail"])


def test_chapters_out_of_the_corpus_name_its_range(env: dict[str, str | None]) -> None:
    done = runner.invoke(app, ["search", "林冲", "--chapters", "0-99999"], env=env)
    assert "--chapters: use chapter numbers from 7 to 12" in done.output
