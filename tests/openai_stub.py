"""A real HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions protocol, scripted per test.

Replies come from a queue (`script(...)`) and, when the queue is empty, from an optional
`responder(request) -> Reply` function; with neither, the server answers 500. Every request
is recorded (path, headers, JSON body) in `requests`.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: a status, headers, a body and an optional delay before answering."""

    status: int = 200
    content: str | None = None
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    prompt_tokens: int = 11
    completion_tokens: int = 7

    @classmethod
    def json(cls, data: Any, **kw: Any) -> Reply:
        """A chat completion whose message content is `data` as JSON text."""
        return cls(content=json.dumps(data, ensure_ascii=False), **kw)

    @classmethod
    def text(cls, content: str, **kw: Any) -> Reply:
        """A chat completion with this exact message content (e.g. malformed JSON)."""
        return cls(content=content, **kw)

    @classmethod
    def error(cls, status: int, message: str = "scripted error", **kw: Any) -> Reply:
        return cls(status=status, body={"error": {"message": message, "type": "stub_error",
                                                  "code": str(status)}}, **kw)

    @classmethod
    def rate_limited(cls, retry_after: float = 0.1) -> Reply:
        return cls.error(429, "rate limited", headers={"Retry-After": f"{retry_after:g}"})

    @classmethod
    def slow(cls, seconds: float, then: Reply | None = None) -> Reply:
        """Wait `seconds` before answering (longer than the client timeout → a client timeout)."""
        reply = then or cls.json({})
        reply.delay = seconds
        return reply


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def prompt(self) -> str:
        """All message contents joined, for matching in responders."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


Responder = Callable[[Recorded], Reply]


class OpenAIStub:
    """Start with `start()`, stop with `stop()`; `url` is the base URL to give the client (…/v1)."""

    def __init__(self) -> None:
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.responder: Responder | None = None
        self.requests: list[Recorded] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="openai-stub", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> OpenAIStub:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def script(self, *replies: Reply) -> OpenAIStub:
        """Queue replies, answered in order, one per request."""
        with self._lock:
            self._queue.extend(replies)
        return self

    def respond_with(self, responder: Responder | None) -> OpenAIStub:
        """Answer with `responder(request)` whenever the queue is empty."""
        self.responder = responder
        return self

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()
        self.responder = None

    @property
    def pending(self) -> int:
        return len(self._queue)

    def _next(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(request)
        return Reply.error(500, "stub: no scripted reply left")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                request = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(Reply.error(404, f"stub: no route {self.path}"), body)
                self._send(stub._next(request), body)

            def _send(self, reply: Reply, body: dict[str, Any]) -> None:
                if reply.delay and stub._stopping.wait(reply.delay):
                    return
                payload = reply.body if reply.body is not None or reply.status != 200 else \
                    _completion(reply, str(body.get("model", "stub-model")))
                data = json.dumps(payload or {}, ensure_ascii=False).encode("utf-8")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        return Handler


def _completion(reply: Reply, model: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-stub-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": reply.content}}],
        "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                  "total_tokens": reply.prompt_tokens + reply.completion_tokens},
    }
