"""Helpers of the hardening tests: a service over chapters 7–12 and the small hand-made bundle,
the embedded server's processes, raw HTTP for oversize requests, a bigger bundle for loads."""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from api_support import offline_settings, serve
from kb_fixtures import KB_MINI

from api.app import create_app
from core.settings import Settings
from providers import liveness
from providers.embedded import read_state
from retrieval.corpus import Corpus


def hardened_settings(data_dir: Path, **overrides: Any) -> Settings:
    """Offline settings over the small bundle (chapters 7–11), short graph timeouts."""
    values: dict[str, Any] = {"bundle": KB_MINI, "corpus_name": "hard", "graph_timeout": 1.0,
                              "graph_connect_timeout": 0.5}
    return offline_settings(data_dir, **{**values, **overrides})


@contextmanager
def service(settings: Settings, corpus: Corpus) -> Iterator[httpx.Client]:
    """The whole service (lifespan, supervisor, graph pool) under uvicorn on loopback. The
    start is bounded generously: a loaded CI machine once took over 30 s to open it."""
    with serve(create_app(settings, corpus=corpus), startup_timeout=120) as url, \
            httpx.Client(base_url=url, timeout=30) as http:
        yield http


def server_pid(data_dir: Path) -> int:
    """The pid of the embedded redis-server of this data dir (from server.json)."""
    state = read_state(data_dir / "falkordb")
    assert state is not None, "no embedded server is recorded"
    return state.pid


def wait_for(condition: Callable[[], bool], timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def zombie_children(pid: int | None = None) -> list[int]:
    """Children of this (or that) process that exited and were never reaped."""
    parent = os.getpid() if pid is None else pid
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if fields[0] == "Z" and int(fields[1]) == parent:
            found.append(int(entry.name))
    return found


def processes_of(directory: Path) -> list[int]:
    """Live redis-server and keeper processes whose command line names this data dir."""
    needle = str(directory.resolve())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if needle in command and liveness.alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def raw_request(port: int, head: bytes, body: bytes = b"", timeout: float = 10.0) -> bytes:
    """Send bytes as they are (a head that promises more body than is sent, say) and read the
    response until the server closes or `timeout`."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head + body)
        chunks: list[bytes] = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and _complete(b"".join(chunks)):
                    break
        except (TimeoutError, ConnectionResetError):
            pass
    return b"".join(chunks)


def _complete(data: bytes) -> bool:
    head, _, body = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":", 1)[1])
    return False


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def grown_bundle(target: Path, copies: int) -> Path:
    """The small bundle with every event copied `copies` times (new ids and orders, the same
    verbatim quotes): enough writes for a load to take a while."""
    shutil.copytree(KB_MINI, target)
    events = [json.loads(line) for line in (KB_MINI / "events.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    with (target / "events.jsonl").open("a", encoding="utf-8") as handle:
        for k in range(1, copies + 1):
            for event in events:
                copy = {**event, "id": f"{event['id']}_{k:04d}",
                        "order": event["order"] * 10_000 + k, "turning_point": False}
                handle.write(json.dumps(copy, ensure_ascii=False) + "\n")
    return target


def reset_peak_memory() -> None:
    """Start measuring this process's peak resident memory afresh (Linux `clear_refs`)."""
    Path("/proc/self/clear_refs").write_text("5")


def peak_memory_mb() -> float:
    """Peak resident memory of this process since the last reset (VmHWM), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")
