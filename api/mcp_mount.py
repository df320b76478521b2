"""The MCP server mounted in the app at `/mcp` (streamable HTTP), behind `KBX_API_KEY` when set.

The SDK's streamable-HTTP endpoint is taken out of the Starlette app it builds and routed at
`/mcp` itself (a Starlette mount would redirect `/mcp` to `/mcp/`), and its session manager runs
inside the app's lifespan. The SDK's DNS-rebinding protection for loopback hosts stays on.

The SDK is imported and the server built after the app has started (`DeferredMcp.run`, a task of
the lifespan): importing it costs about a second of CPU, which `/health` and the other routes do
not wait for. A request to `/mcp` that comes earlier waits until it is ready.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from api.admin_key import AdminDisabled, AdminGuard, TooManyAttempts, Unauthorized
from core.settings import Settings

if TYPE_CHECKING:
    from fastapi import FastAPI
    from mcp.server.mcpserver import MCPServer

    from api.services import Services

MCP_PATH = "/mcp"


class ApiKeyGuard:
    """401 unless the request carries the key as `X-API-Key` or `Authorization: Bearer`; open when
    no key is configured (every tool is read-only). A key shorter than 16 characters is refused
    (503 saying so) and repeated wrong keys get 429, as for the admin routes (`api.admin_key`)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.expected = settings.api_key if settings.api_key else None
        self.guard = AdminGuard()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.expected is not None and self.expected.get_secret_value():
            client = (scope.get("client") or ("?", 0))[0]
            try:
                self.guard.check(self.expected, self._given(scope), str(client))
            except AdminDisabled as exc:
                await _refuse(send, 503, str(exc).replace("admin routes", "/mcp"))
                return
            except TooManyAttempts as exc:
                await _refuse(send, 429, str(exc), [(b"retry-after", str(exc.retry_after).encode())])
                return
            except Unauthorized:
                await _refuse(send, 401, "missing or wrong API key (X-API-Key or Authorization: "
                                         "Bearer)", [(b"www-authenticate", b'Bearer realm="kbx"')])
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _given(scope: Scope) -> str:
        headers = dict(scope.get("headers") or [])
        given: bytes = headers.get(b"x-api-key", b"")
        authorization = headers.get(b"authorization", b"")
        if not given and authorization.lower().startswith(b"bearer "):
            given = authorization[7:].strip()
        return given.decode("latin-1")


async def _refuse(send: Send, status: int, detail: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail, "suggestions": [], "errors": []}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def build_mcp(services: Callable[[], Services]) -> tuple[MCPServer, ASGIApp]:
    """A new MCP server over `services` and its streamable-HTTP endpoint (imports the SDK)."""
    from api.mcp_server import build_mcp_server

    server = build_mcp_server(services)
    starlette_app = server.streamable_http_app(streamable_http_path=MCP_PATH)
    endpoint = next(r.endpoint for r in starlette_app.routes
                    if isinstance(r, Route) and r.path == MCP_PATH)
    return server, endpoint


class DeferredMcp:
    """The `/mcp` endpoint: waits for the server that `run` builds and starts in the lifespan."""

    def __init__(self, settings: Settings, services: Callable[[], Services]) -> None:
        self.settings, self.services = settings, services
        self._endpoint: ASGIApp | None = None
        self._ready: asyncio.Event | None = None
        self._error: str | None = None

    def start(self) -> asyncio.Event:
        """Called at the start of the lifespan; returns the event that stops `run`."""
        self._endpoint, self._error, self._ready = None, None, asyncio.Event()
        return asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        """Import and build in a thread, then serve sessions until `stop` is set."""
        assert self._ready is not None, "start() first"
        try:
            server, endpoint = await asyncio.to_thread(build_mcp, self.services)
            async with server.session_manager.run():
                self._endpoint = ApiKeyGuard(endpoint, self.settings)
                self._ready.set()
                await stop.wait()
        except Exception as exc:  # the rest of the app keeps serving; /mcp says why it cannot
            self._error = f"the MCP server could not start: {exc}"
            self._ready.set()
        finally:
            self._endpoint = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._ready is not None:
            await self._ready.wait()
        if self._endpoint is None:
            body = json.dumps({"detail": self._error or "the MCP server is not running",
                               "suggestions": [], "errors": []}).encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self._endpoint(scope, receive, send)


def mount_mcp(app: FastAPI, settings: Settings, services: Callable[[], Services]) -> DeferredMcp:
    """Route `/mcp` to an MCP server over `services`, built and run by `DeferredMcp.run` in the
    app's lifespan."""
    deferred = DeferredMcp(settings, services)
    app.router.routes.append(Route(MCP_PATH, endpoint=deferred,
                                   methods=["GET", "POST", "DELETE"], include_in_schema=False))
    return deferred
