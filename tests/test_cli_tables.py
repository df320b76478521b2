"""Tables at 80 columns and in a pipe: `kbx search`, `kbx eval` and `kbx people` used to print
fused scores cut to "0.0…" and two columns headed "conte…" on an 80-column terminal, and the
same in a pipe (rich assumes 80 columns there). On a terminal nothing is cut now and every line
fits; in a pipe a table is plain tab-separated rows; `--json` is unchanged."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

import cli.common
from cli.main import app
from cli.tables import fit, rows_of

KB_MINI = Path(__file__).parent / "fixtures" / "kb_mini"
QUESTIONS = Path(__file__).resolve().parent.parent / "eval" / "questions" / "dev_ch7_11.jsonl"
runner = CliRunner()
BOX = set("┏┓┗┛┃━│─┡┩╇╈┳┻")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Chapters 7–11 ingested, as `kbx ingest --chapters 7-11` leaves them."""
    directory = tmp_path_factory.mktemp("tables")
    result = runner.invoke(app, ["ingest", "--chapters", "7-11"], env={"KBX_DATA_DIR": str(directory)})
    assert result.exit_code == 0, result.output
    return directory


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """stdout as an 80-column colour terminal (what `kbx` sees in a narrow window)."""
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=80, color_system=None)
    monkeypatch.setattr(cli.common._stdout, "_console", console)
    yield screen


def _run(data_dir: Path, *args: str) -> str:
    result = runner.invoke(app, list(args), env={"KBX_DATA_DIR": str(data_dir),
                                                 "KBX_PROVIDER": "memory"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _fits(screen: io.StringIO, end: str | None = None) -> list[str]:
    """The lines printed (up to the one starting with `end`): none wider than 80, none cut."""
    lines = screen.getvalue().splitlines()
    if end is not None:
        lines = lines[:next(i for i, line in enumerate(lines) if line.startswith(end))]
    assert lines and max(map(cell_len, lines)) <= 80, max(lines, key=cell_len)
    assert not any("…" in line for line in lines), lines
    return lines


SEARCH = ("search", "鲁智深和林冲是怎么认识的？", "--top", "15")


def test_search_fits_80_columns_with_every_score_whole(data_dir: Path,
                                                       terminal: io.StringIO) -> None:
    _run(data_dir, *SEARCH)
    text = "\n".join(_fits(terminal, end="packed"))  # (the blocks' openings after it end in …)
    trace = json.loads(_run(data_dir, *SEARCH, "--json"))
    for candidate in trace["candidates"][:15]:  # each block and its fused score, in full
        assert candidate["chunk_id"] in text and f"{candidate['fused_score']:.4f}" in text


def test_search_in_a_pipe_is_plain_rows(data_dir: Path) -> None:
    out = _run(data_dir, *SEARCH)
    assert not BOX & set(out) and "\x1b" not in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("#\tblock"))
    assert lines[header].split("\t") == ["#", "block", "fused", "ngram", "unigram",
                                         "matched terms", "tokens", "decision"]
    rows = [line.split("\t") for line in lines[header + 1:header + 16]]
    trace = json.loads(_run(data_dir, *SEARCH, "--json"))
    assert [r[1] for r in rows] == [c["chunk_id"] for c in trace["candidates"][:15]]
    assert all(len(r) == 8 for r in rows)


def test_eval_fits_80_columns_and_names_its_columns(data_dir: Path, terminal: io.StringIO) -> None:
    _run(data_dir, "eval", "--questions", str(QUESTIONS), "--chapters", "7-11")
    text = "\n".join(_fits(terminal))
    result = json.loads(_run(data_dir, "eval", "--questions", str(QUESTIONS), "--chapters",
                             "7-11", "--json"))
    assert "core" in text and f"{result['context_all_core']:.3f}" in text
    assert f"{result['irrelevant_share']:.3f}" in text


def test_eval_in_a_pipe_is_one_header_and_one_row(data_dir: Path) -> None:
    out = _run(data_dir, "eval", "--questions", str(QUESTIONS), "--chapters", "7-11")
    lines = out.splitlines()
    assert lines[1].split("\t") == ["answerable", "hit@1", "hit@3", "hit@5", "mrr@10",
                                    "any core", "all core", "avg blocks", "irrelevant"]
    values = lines[2].split("\t")
    assert len(values) == 9 and values[0] == "44"


def test_people_fit_80_columns_and_pipe_as_rows(data_dir: Path, terminal: io.StringIO) -> None:
    _run(data_dir, "people", "--bundle", str(KB_MINI))
    _fits(terminal)
    assert "lin_chong" in terminal.getvalue()


def test_people_in_a_pipe(data_dir: Path) -> None:
    out = _run(data_dir, "people", "--bundle", str(KB_MINI))
    people = json.loads(_run(data_dir, "people", "--bundle", str(KB_MINI), "--json"))
    lines = out.splitlines()
    assert lines[1] == "id\tname\taliases\tgroup\tfirst chapter"
    assert len(lines) == 2 + len(people)
    assert {line.split("\t")[0] for line in lines[2:]} == {p["id"] for p in people}


def test_tokens_too_wide_together_are_folded_never_cut() -> None:
    table = Table(title="wide")
    for number in range(8):
        table.add_column(f"column {number}")
    table.add_row(*(f"{number}.{'0' * 11}" for number in range(8)))
    screen = io.StringIO()
    Console(file=screen, force_terminal=True, width=60, color_system=None).print(fit(table, 60))
    text = screen.getvalue()
    assert max(map(cell_len, text.splitlines())) <= 60 and "…" not in text
    assert text.count("0") >= 8 * 11 and all(f"{n}." in text for n in range(8))  # every digit
    assert rows_of(table)[1] == [f"{n}.{'0' * 11}" for n in range(8)]
