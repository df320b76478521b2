"""Tables as a reader sees them: fitted to the terminal, plain rows in a pipe.

rich sizes a table to the console; on an 80-column terminal, or in a pipe (where rich assumes 80
columns), the tables of `kbx search`, `kbx eval` or `kbx people` came out with scores cut to
"0.0…" and headers to "conte…". On a terminal every table is now drawn without side borders,
with one space between columns; a cell that is one short token (a number, an id, a score) is
never cut, and only text with spaces in it (names lists, descriptions, matched terms) wraps.
When stdout is not a terminal the same table is printed as plain rows: a title line, a header
line and one line a row, cells separated by tabs, nothing cut or wrapped, no colour; `--json`
is untouched by any of this. Imported by the commands that print tables (it loads rich).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.cells import cell_len
from rich.text import Text

from cli.common import rich_console

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table

TOKEN = 24
"""Terminal cells up to which a cell without spaces is a token that is never cut or folded."""
MIN_TEXT = 8
"""The narrowest a column of text is counted at when deciding whether the tokens fit."""


def plain(cell: RenderableType | None) -> str:
    """A cell's text as the terminal shows it (markup read, not printed), on one line."""
    if cell is None:
        return ""
    text = cell.plain if isinstance(cell, Text) else (
        Text.from_markup(cell).plain if isinstance(cell, str) else str(cell))
    return " ".join(text.replace("\t", " ").split())


def rows_of(table: Table) -> list[list[str]]:
    """The table's header and rows as plain strings."""
    columns = [[plain(c) for c in column.cells] for column in table.columns]
    return [[plain(c.header) for c in table.columns], *map(list, zip(*columns, strict=True))]


def print_table(table: Table) -> None:
    """Print `table` on stdout: fitted on a terminal, as tab-separated rows in a pipe."""
    console = rich_console()
    if not console.is_terminal:
        lines = ([plain(table.title)] if table.title else []) + [
            "\t".join(row).rstrip() for row in rows_of(table)]
        console.file.write("".join(f"{line}\n" for line in lines))  # (print would expand tabs)
        return
    fit(table, console.width)
    console.print(table)


def fit(table: Table, width: int) -> Table:
    """Borderless, two spaces between columns; tokens never cut and text folded where it must,
    or, when even the tokens are wider than `width` together, every column folded (a number
    broken over two lines, never cut to "0.0…")."""
    table.box = box.SIMPLE_HEAD
    table.show_edge = False
    table.pad_edge = False
    table.padding = (0, 1)
    table.collapse_padding = True
    tokens: dict[int, int] = {}
    least = 2 * (len(table.columns) - 1)
    for number, column in enumerate(table.columns):
        cells = [plain(c) for c in column.cells]
        words = [*plain(column.header).split(), *(w for c in cells for w in c.split())] or [""]
        if all(" " not in c and cell_len(c) <= TOKEN for c in cells):
            tokens[number] = max(map(cell_len, [*cells, *plain(column.header).split(), ""]))
            least += tokens[number]
        else:
            least += min(max(map(cell_len, words)), MIN_TEXT)
    for number, column in enumerate(table.columns):
        if number in tokens and least <= width:
            column.no_wrap, column.overflow, column.min_width = True, "ellipsis", tokens[number]
            header = plain(column.header)
            if cell_len(header) > tokens[number]:  # a header wider than its cells: a word a line
                column.header = header.replace(" ", "\n")
        else:
            column.no_wrap, column.overflow = False, "fold"
    return table
