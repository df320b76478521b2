"""The MCP server mounted in the app at `/mcp` (streamable HTTP), behind `KBX_API_KEY` when set.

The SDK's streamable-HTTP endpoint is taken out of the Starlette app it builds and routed at
`/mcp` itself (a Starlette mount would redirect `/mcp` to `/mcp/`), and its session manager runs
inside the app's lifespan. The SDK's DNS-rebinding protection for loopback hosts stays on.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from api.mcp_server import build_mcp_server
from api.services import Services
from core.settings import Settings

MCP_PATH = "/mcp"


class ApiKeyGuard:
    """401 unless the request carries the key as `X-API-Key` or `Authorization: Bearer`; open when
    no key is configured (every tool is read-only)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.key = settings.api_key.get_secret_value().encode() if settings.api_key else b""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.key and not self._allowed(scope):
            body = json.dumps({"detail": "missing or wrong API key (X-API-Key or Authorization: "
                                         "Bearer)", "suggestions": [], "errors": []}).encode()
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"www-authenticate", b'Bearer realm="kbx"')]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"x-api-key", b"")
        authorization = headers.get(b"authorization", b"")
        if not given and authorization.lower().startswith(b"bearer "):
            given = authorization[7:].strip()
        return bool(given) and secrets.compare_digest(given, self.key)


def mount_mcp(app: FastAPI, settings: Settings, services: Callable[[], Services]) -> MCPServer:
    """Route `/mcp` to a new MCP server over `services`; run `mcp_lifespan(server)` in the app's
    lifespan."""
    server = build_mcp_server(services)
    starlette_app = server.streamable_http_app(streamable_http_path=MCP_PATH)
    endpoint = next(r.endpoint for r in starlette_app.routes
                    if isinstance(r, Route) and r.path == MCP_PATH)
    app.router.routes.append(Route(MCP_PATH, endpoint=ApiKeyGuard(endpoint, settings),
                                   methods=["GET", "POST", "DELETE"], include_in_schema=False))
    return server


@asynccontextmanager
async def mcp_lifespan(server: MCPServer) -> AsyncIterator[None]:
    async with server.session_manager.run():
        yield
