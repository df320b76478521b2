"""The keeper of the embedded FalkorDB: a small process that runs the server and ends it.

Started by `EmbeddedServer` (`python -S -m providers.keeper …`: the standard library and this
repository only, no site-packages, so it starts in tens of milliseconds); it forks once and the
first process exits, so the keeper belongs to no user of the server and nothing is left for them
to reap. The keeper then

- starts redis-server (umask 077, so every file it writes is 0600) and waits until it answers;
  the server is told to terminate if the keeper dies (Linux parent-death signal);
- writes `server.json` (port, server pid, keeper pid), or `start.failed` with the reason;
- reaps the server when it exits (no zombie) and removes `server.json` if it still names it;
- shuts the server down (SIGTERM: redis flushes the append-only file and exits) once no lease
  in `leases/` belongs to a live process for its idle grace (`--idle-grace`, default
  `IDLE_GRACE` seconds), under the start lock, so a process that is taking a lease at that
  moment is never left without a server. A command-line read leaves the server to this grace
  (`EmbeddedServer(linger=True)`): the next command within it finds the server running.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from providers.embedded import (
    FAILED_FILE,
    HOST,
    PASSWORD_FILE,
    STATE_FILE,
    STDERR_FILE,
    live_leases,
    read_state,
    start_lock,
    write_private,
)

log = logging.getLogger("kbx.keeper")

IDLE_GRACE = 1.0
"""Seconds without a live lease before the server is shut down, unless `--idle-grace` says."""
POLL = 0.2
PR_SET_PDEATHSIG = 1


class _Json(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return json.dumps({"ts": round(record.created, 3), "level": record.levelname.lower(),
                           "logger": record.name, "msg": record.getMessage(),
                           "pid": os.getpid()}, ensure_ascii=False)


def _command(*words: str) -> bytes:
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def answers(port: int, password: str, timeout: float = 2.0) -> bool:
    """Whether the server takes our password and answers PING (not while it loads its data).

    Spoken in the protocol's own few bytes rather than with the redis client: the keeper runs
    without site-packages (`python -S`), so it starts in a few tens of milliseconds and starts
    the server before a user of it has finished importing its own client."""
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as conn:
            conn.settimeout(timeout)
            conn.sendall(_command("AUTH", password) + _command("PING"))
            reply = b""
            while reply.count(b"\r\n") < 2:
                chunk = conn.recv(4096)
                if not chunk:
                    return False
                reply += chunk
    except OSError:
        return False
    return reply.split(b"\r\n")[:2] == [b"+OK", b"+PONG"]


def _die_with_parent() -> None:
    """In the server's process before exec: SIGTERM when the keeper goes (Linux only)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Keeper:
    def __init__(self, directory: Path, server: str, config: Path, port: int,
                 startup_timeout: float, idle_grace: float = IDLE_GRACE) -> None:
        self.directory = directory
        self.port = port
        self.startup_timeout = startup_timeout
        self.idle_grace = idle_grace
        self.password = (directory / PASSWORD_FILE).read_text(encoding="utf-8").strip()
        self.stopping = False
        descriptor = os.open(directory / STDERR_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                             0o600)
        with os.fdopen(descriptor, "wb") as stderr:
            self.process = subprocess.Popen(
                [server, str(config)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=stderr, cwd=directory, umask=0o077, preexec_fn=_die_with_parent)

    def _fail(self, reason: str) -> None:
        log.error("embedded FalkorDB did not start: %s", reason)
        write_private(self.directory / FAILED_FILE, reason + "\n")

    def await_ready(self) -> bool:
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                self._fail(f"exited with code {code}")
                return False
            if answers(self.port, self.password):
                return True
            time.sleep(0.005)  # the user of the server is waiting for it: poll often
        self._terminate()
        self._fail("did not answer in time")
        return False

    def publish(self) -> None:
        state = {"pid": self.process.pid, "port": self.port, "keeper": os.getpid()}
        write_private(self.directory / STATE_FILE, json.dumps(state))
        log.info("embedded FalkorDB running (pid %s)", self.process.pid)

    def _terminate(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def _forget(self) -> None:
        """Remove `server.json` if it still names this keeper's server (call under the lock)."""
        state = read_state(self.directory)
        if state is not None and state.pid == self.process.pid:
            (self.directory / STATE_FILE).unlink(missing_ok=True)

    def watch(self) -> None:
        idle_since: float | None = None
        while True:
            code = self.process.poll()
            if code is not None:
                with start_lock(self.directory):
                    self._forget()
                log.warning("embedded FalkorDB exited (code %s)", code)
                return
            if self.stopping:
                with start_lock(self.directory):
                    self._terminate()
                    self._forget()
                log.info("embedded FalkorDB stopped (keeper signalled)")
                return
            if live_leases(self.directory, prune=True):
                idle_since = None
            else:
                idle_since = idle_since if idle_since is not None else time.monotonic()
                if time.monotonic() - idle_since >= self.idle_grace:
                    with start_lock(self.directory):
                        if not live_leases(self.directory):
                            self._terminate()
                            self._forget()
                            log.info("embedded FalkorDB stopped: no process uses it")
                            return
                    idle_since = None
            time.sleep(POLL)

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--startup-timeout", type=float, default=20.0)
    parser.add_argument("--idle-grace", type=float, default=IDLE_GRACE)
    args = parser.parse_args(argv)
    if os.fork() > 0:  # the starter reaps this parent at once; the keeper lives on detached
        os._exit(0)
    os.setsid()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Json())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    try:
        keeper = Keeper(args.dir, args.server, args.config, args.port, args.startup_timeout,
                        args.idle_grace)
    except OSError as exc:
        write_private(args.dir / FAILED_FILE, f"cannot run redis-server: {exc}\n")
        return 1
    signal.signal(signal.SIGTERM, keeper.request_stop)
    signal.signal(signal.SIGINT, keeper.request_stop)
    if not keeper.await_ready():
        return 1
    keeper.publish()
    keeper.watch()
    return 0


if __name__ == "__main__":
    sys.exit(main())
