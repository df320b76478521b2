"""Helpers of the API and `kbx ask` tests: offline settings, a closed port, a live uvicorn server."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from core.settings import Settings

API_CHAPTERS = set(range(7, 13))
"""Every source of the curated bundle lies in chapters 7–12."""


def offline_settings(data_dir: Path, **overrides: Any) -> Settings:
    """Settings that reach no LLM and no outside store, whatever the environment says."""
    values: dict[str, Any] = {
        "data_dir": data_dir, "corpus_name": "shuihu", "provider": "falkordb",
        "falkordb_url": None, "openai_api_key": None, "openai_base_url": None, "api_key": None,
    }
    return Settings(**{**values, **overrides})


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _opened(port: int) -> bool:
    """Whether the service's parts are open (or failed to): `/health` no longer says loading."""
    try:
        body = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()
    except httpx.HTTPError:
        return False
    return bool(body["ready"] or body["status"] == "degraded")


@contextmanager
def serve(app: FastAPI, startup_timeout: float = 30.0, opened: bool = True) -> Iterator[str]:
    """Run the app under uvicorn on a free loopback port in a thread; yields its base URL once
    its services are open (`opened`; the app serves before: see `api.startup`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=False, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started or (opened and not _opened(port)):
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the API server did not start (see the log above)")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
