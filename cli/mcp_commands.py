"""`kbx mcp`: the MCP server on stdio, for agents (Claude Desktop, IDEs, the SDK's stdio client).

Stdout belongs to the protocol: nothing else is printed there (logs go to stderr as JSON lines).
The services (corpus, store, answer service) open once, before the first message is read.
"""

from __future__ import annotations

import typer

from cli.common import BookOpt, book_settings, handle_errors, settings


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_command)


@handle_errors
def mcp_command(book: BookOpt = None) -> None:
    """Serve the read-only MCP tools over stdio for every built book (`book` in each tool; the
    default is `--book`, else KBX_BOOK, else shuihu; settings from the environment)."""
    from api.mcp_server import build_mcp_server
    from api.services import open_services
    from api.shelf import Shelf

    default = book_settings(book)  # an unknown book fails here, before any message is read
    shelf = Shelf(settings(book=book), open_services)
    shelf.open_default(open_services(default))
    try:
        build_mcp_server(lambda: shelf).run("stdio")
    finally:
        shelf.close()
