"""Helpers of the books tests: a few chapters of 三国演义 copied by the test, built as a book."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from core.books import STORES_DIR
from core.settings import REPO_ROOT
from providers.embedded import EmbeddedServer

SANGUO = REPO_ROOT.parent / "shared" / "corpus" / "sanguo" / "zh-hans"


def few_chapters(target: Path, count: int) -> Path:
    """The first chapters of 三国演义 as a chapter directory of the test's own."""
    target.mkdir(parents=True)
    for number in range(1, count + 1):
        shutil.copy(SANGUO / f"{number:03d}.txt", target / f"{number:03d}.txt")
    return target


def build(data_dir: Path, book: str, corpus: Path, *args: str,
          falkordb_url: str | None = None) -> None:
    """`kbx build` into the data directory (its own embedded stores unless a URL is given)."""
    env: dict[str, str | None] = {"KBX_DATA_DIR": str(data_dir), "FALKORDB_URL": falkordb_url,
                                  "KBX_PROVIDER": None, "KBX_BOOK": None,
                                  "KBX_FALKORDB_LINGER": "0.5"}
    result = CliRunner().invoke(app, ["build", str(corpus), "--book", book, *args], env=env)
    assert result.exit_code == 0, result.output


def stop_stores(data_dir: Path) -> None:
    for directory in [data_dir / "falkordb", *(data_dir / STORES_DIR).glob("*")]:
        server = EmbeddedServer(directory)
        if server.running() is not None:
            server.stop(force=True)
