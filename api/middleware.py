"""ASGI middleware: one structured log line per request (method, path, status, milliseconds; no
query, no headers), and the request-body limit."""

from __future__ import annotations

import json
import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import BodyTooLarge

log = logging.getLogger("kbx.api.access")


class RequestLog:
    """Pure ASGI middleware; the query string and headers are left out, so no key is logged.

    The line is written just before the last body chunk is sent, so it is in the log by the time
    the client has the whole response (or when the app fails without a response)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)  # `--no-access-log`: no wrapper per request
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


class BodyLimit:
    """Request bodies over `limit` bytes get 413 without being read whole.

    A declared `Content-Length` over the limit is refused before a byte of the body is read;
    a body sent without one (chunked) is counted as the app reads it, and reading stops at the
    first chunk that crosses the limit. Either way the service holds at most `limit` bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"request body larger than {self.limit} bytes",
                           "suggestions": [], "errors": []}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
