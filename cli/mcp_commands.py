"""`kbx mcp`: the MCP server on stdio, for agents (Claude Desktop, IDEs, the SDK's stdio client).

Stdout belongs to the protocol: nothing else is printed there (logs go to stderr as JSON lines).
The services (corpus, store, answer service) open once, before the first message is read.
"""

from __future__ import annotations

import typer

from cli.common import handle_errors, settings


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_command)


@handle_errors
def mcp_command() -> None:
    """Serve the read-only MCP tools over stdio (settings from the environment)."""
    from api.mcp_server import build_mcp_server
    from api.services import open_services

    services = open_services(settings())
    try:
        build_mcp_server(lambda: services).run("stdio")
    finally:
        services.close()
