"""One structured log line per request: method, path, status, milliseconds (no query, no headers)."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("kbx.api.access")


class RequestLog:
    """Pure ASGI middleware; the query string and headers are left out, so no key is logged.

    The line is written just before the last body chunk is sent, so it is in the log by the time
    the client has the whole response (or when the app fails without a response)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        logged = False

        def write() -> None:
            nonlocal logged
            logged = True
            log.info("request", extra={"method": scope["method"], "path": scope["path"],
                                       "status": status,
                                       "ms": round((time.perf_counter() - started) * 1000, 1)})

        async def send_logged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                write()
            await send(message)

        try:
            await self.app(scope, receive, send_logged)
        finally:
            if not logged:
                write()
