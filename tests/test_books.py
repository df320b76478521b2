"""Books: `kbx build` of a small real book (the first chapters of 三国演义, copied to a temporary
directory by the test), `kbx books`, `--book` on the read commands, bad input leaving nothing
half-written, unknown books, and the curated 水浒 bundle untouched by another book's build.

The built book's graph lives in an embedded FalkorDB of its own (`<data>/stores/<book>`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from books_support import SANGUO, few_chapters, stop_stores
from typer.testing import CliRunner

from cli.main import app
from core.books import STORES_DIR, for_book, read_manifest
from core.settings import DEFAULT_BUNDLE, Settings, bundle_fingerprint

pytestmark = pytest.mark.falkordb
runner = CliRunner()
CHAPTERS = 4


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A data directory with the book `mini` built from four chapters of 三国演义."""
    base = tmp_path_factory.mktemp("books")
    data_dir = base / "data"
    env: dict[str, str | None] = {"KBX_DATA_DIR": str(data_dir), "FALKORDB_URL": None,
                                  "KBX_PROVIDER": None, "KBX_BOOK": None,
                                  "KBX_FALKORDB_LINGER": "0.5", "OPENAI_BASE_URL": None,
                                  "OPENAI_API_KEY": None}
    fingerprint = bundle_fingerprint(DEFAULT_BUNDLE)
    corpus = few_chapters(base / "text", CHAPTERS)
    result = runner.invoke(app, ["build", str(corpus), "--book", "mini", "--title", "三国演义（前四回）"],
                           env=env)
    try:
        yield {"env": env, "data_dir": data_dir, "corpus": corpus, "output": result.output,
               "exit_code": result.exit_code, "fingerprint": fingerprint, "base": base}
    finally:
        stop_stores(data_dir)


def kbx(env: dict[str, str | None], *args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_build_prints_what_it_built(library: dict[str, Any]) -> None:
    assert library["exit_code"] == 0, library["output"]
    output = library["output"]
    for step in ("read the text", "cut into blocks", "discover people", "extract records",
                 "resolve and check", "load graph kbx:mini"):
        assert step in output
    for column in ("people", "aliases", "events", "relations", "states", "chapters", "time"):
        assert column in output


def test_the_book_has_its_directory_manifest_and_graph(library: dict[str, Any]) -> None:
    data_dir: Path = library["data_dir"]
    manifest = read_manifest(Settings(data_dir=data_dir), "mini")
    assert manifest is not None
    assert manifest.title == "三国演义（前四回）" and manifest.source == "extracted"
    assert manifest.corpus == library["corpus"].resolve() and manifest.text_chapters == CHAPTERS
    assert manifest.counts.people > 10 and manifest.counts.events > 0
    assert manifest.curated_bundle is None
    book = data_dir / "mini"
    for part in ("blocks", "discovered", "extracted", "bundle", "book.json"):
        assert (book / part).exists(), part
    assert not list(data_dir.glob(".mini-*"))  # the build's temporary directory is gone
    stats = kbx(library["env"], "kb", "stats", "--book", "mini")
    assert stats["graph"] == "kbx:mini" and stats["people"] == manifest.counts.people
    assert (data_dir / STORES_DIR / "mini").is_dir()  # the book's own store


def test_a_book_is_read_by_every_command_that_names_it(library: dict[str, Any]) -> None:
    env = library["env"]
    people = kbx(env, "people", "--book", "mini")
    names = {p["name"] for p in people}
    assert {"刘备", "关羽", "张飞"} <= names
    trace = kbx(env, "search", "桃园结义", "--book", "mini")
    assert trace["packed"] and all(c.startswith("ch00") for c in trace["packed"])
    answer = kbx(env, "ask", "刘备是谁？", "--book", "mini")
    assert answer["status"] == "answered" and answer["citations"]
    pair = kbx(env, "pair", "刘备", "关羽", "--book", "mini")
    assert {pair["a"]["name"], pair["b"]["name"]} == {"刘备", "关羽"}
    block = kbx(env, "chunk", "ch001_chunk_001", "--book", "mini")
    assert block["chapter"] == 1
    by_env = kbx({**env, "KBX_BOOK": "mini"}, "people")  # KBX_BOOK is the default book
    assert {p["name"] for p in by_env} == names


def test_books_lists_the_built_books_and_the_configured_corpus(library: dict[str, Any]) -> None:
    listed = kbx(library["env"], "books")
    by_name = {b["name"]: b for b in listed}
    assert {"mini", "shuihu"} <= set(by_name)
    assert by_name["mini"]["title"] == "三国演义（前四回）"
    assert by_name["mini"]["counts"]["people"] > 10 and by_name["mini"]["built_at"]
    assert by_name["shuihu"]["title"] == "水浒传" and by_name["shuihu"]["default"]
    table = runner.invoke(app, ["books"], env={**library["env"], "COLUMNS": "200"})
    assert table.exit_code == 0 and "mini" in table.output and "三国演义" in table.output


def test_an_unknown_book_is_one_line_naming_the_built_ones(library: dict[str, Any]) -> None:
    for args in (["people"], ["pair", "刘备", "关羽"], ["search", "刘备"], ["ask", "刘备是谁？"],
                 ["kb", "stats"]):
        result = runner.invoke(app, [*args, "--book", "nope"], env=library["env"])
        assert result.exit_code == 2, (args, result.output)
        message = result.output.strip()
        assert "\n" not in message and "'nope'" in message
        assert "mini" in message and "shuihu" in message


def test_the_curated_bundle_is_untouched_by_another_books_build(library: dict[str, Any]) -> None:
    assert bundle_fingerprint(DEFAULT_BUNDLE) == library["fingerprint"]
    assert not (library["data_dir"] / "shuihu").exists()
    settings = for_book(Settings(data_dir=library["data_dir"]), "mini")
    assert settings.bundle == library["data_dir"] / "mini" / "bundle"
    assert not (settings.bundle / "lexicon.jsonl").exists()  # no curated lexicon was copied


@pytest.mark.parametrize("case", ["missing", "empty", "latin1", "no-heading"])
def test_bad_input_is_one_line_and_leaves_the_book_as_it_was(library: dict[str, Any],
                                                             case: str) -> None:
    base: Path = library["base"]
    bad = base / f"bad-{case}"
    if case == "empty":
        bad.mkdir()
    elif case == "latin1":
        bad.mkdir()
        (bad / "001.txt").write_bytes("第一回 标题\n正文".encode("gb18030"))
    elif case == "no-heading":
        bad = base / "bad.txt"
        bad.write_text("没有回目的一段文字。\n", encoding="utf-8")
    before = (library["data_dir"] / "mini" / "book.json").read_bytes()
    for book in ("mini", "fresh"):
        result = runner.invoke(app, ["build", str(bad), "--book", book], env=library["env"])
        assert result.exit_code == 2, result.output
        message = result.output.strip()
        assert "\n" not in message and str(bad) in message
        assert "Traceback" not in result.output
    assert (library["data_dir"] / "mini" / "book.json").read_bytes() == before
    assert not (library["data_dir"] / "fresh").exists()
    assert not list(library["data_dir"].glob(".mini-*")) + list(library["data_dir"].glob(".fresh-*"))


def test_a_bad_book_name_is_refused(library: dict[str, Any]) -> None:
    result = runner.invoke(app, ["build", str(library["corpus"]), "--book", "Bad Name"],
                           env=library["env"])
    assert result.exit_code == 2 and "--book" in result.output


def test_a_single_file_gives_the_book_its_title(tmp_path: Path) -> None:
    from extract.build import corpus_title

    text = tmp_path / "novel.txt"
    text.write_text("《三国演义》\n\n第一回 宴桃园豪杰三结义\n滚滚长江东逝水。\n", encoding="utf-8")
    assert corpus_title(text) == "三国演义"
    assert corpus_title(SANGUO) == "三国演义"  # the SOURCE.md beside the chapters
    assert corpus_title(few_chapters(tmp_path / "bare", 1)) is None


def test_chunk_size_is_the_books_own(library: dict[str, Any]) -> None:
    corpus = few_chapters(library["base"] / "short-blocks", 1)
    result = runner.invoke(app, ["build", str(corpus), "--book", "short", "--chunk-size", "300"],
                           env=library["env"])
    assert result.exit_code == 0, result.output
    root = Settings(data_dir=library["data_dir"])
    manifest = read_manifest(root, "short")
    assert manifest is not None and manifest.chunk_size == 300
    assert for_book(root, "short").chunk_size == 300
    blocks = [json.loads(line) for line in (library["data_dir"] / "short" / "blocks" /
                                            "blocks.jsonl").read_text().splitlines()]
    assert max(b["end"] - b["start"] for b in blocks) < 600
    assert kbx(library["env"], "chunk", "ch001_chunk_002", "--book", "short")["chapter"] == 1


def test_the_discovery_of_a_built_book_is_measured_against_labels_given(
        library: dict[str, Any], tmp_path: Path) -> None:
    """A book built from its text has no curated lexicon: `--people` is asked for by name, and
    given, the report measures the book's own text."""
    env = library["env"]
    missing = runner.invoke(app, ["extract", "discover-report", "--book", "mini"], env=env)
    assert missing.exit_code == 2 and "--people" in missing.output
    labels = tmp_path / "people.jsonl"
    labels.write_text(json.dumps({"id": "liu_bei", "name": "刘备", "aliases": ["玄德"]},
                                 ensure_ascii=False) + "\n", encoding="utf-8")
    report = kbx(env, "extract", "discover-report", "--book", "mini", "--people", str(labels))
    assert report["people"] == 1 and report["found"] == 1
