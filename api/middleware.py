"""One structured log line per request: method, path, status, milliseconds (no query, no headers)."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("kbx.api.access")


class RequestLog:
    """Pure ASGI middleware; the query string and headers are left out, so no key is logged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_logged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_logged)
        finally:
            log.info("request", extra={"method": scope["method"], "path": scope["path"],
                                       "status": status,
                                       "ms": round((time.perf_counter() - started) * 1000, 1)})
