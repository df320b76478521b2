"""`kbx status`: the graph store as an operator sees it (never starts a stopped server)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import BookOpt, book_settings, handle_errors, print_json

if TYPE_CHECKING:  # the store's clients load when the command runs, not at `kbx` start
    from core.settings import Settings


def store_status(cfg: Settings) -> dict[str, Any]:
    """Embedded or URL, pid and port, live users, graphs, staging graphs left by interrupted
    loads, append-only file size; an embedded server that is not running is only described."""
    from providers.factory import embedded_server, graph_name, open_provider
    from providers.falkordb_provider import FalkorDBProvider

    if cfg.provider == "memory":
        return {"mode": "memory", "reachable": True, "graph": graph_name(cfg)}
    if not cfg.falkordb_url:
        server = embedded_server(cfg)
        if server.running() is None:
            return {**server.status(), "reachable": False, "graph": graph_name(cfg)}
    provider = open_provider(cfg)
    try:
        assert isinstance(provider, FalkorDBProvider)
        return provider.store_status()
    finally:
        provider.close()


@handle_errors
def status_command(json_out: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
                   book: BookOpt = None) -> None:
    """The graph store: embedded (pid, port, users) or FALKORDB_URL, its graphs, the staging
    graphs interrupted loads left, the append-only file's size."""
    from rich.table import Table

    from cli.tables import print_table

    report = store_status(book_settings(book))
    if json_out:
        print_json(report)
        return
    table = Table(title="graph store")
    table.add_column("")
    table.add_column("value")
    for key, value in report.items():
        table.add_row(key, ", ".join(map(str, value)) if isinstance(value, list) else str(value))
    print_table(table)


def register(app: typer.Typer) -> None:
    app.command("status")(status_command)
