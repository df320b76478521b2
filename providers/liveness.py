"""Is a process still there? A pid alone is not enough (pids are reused), so a process is named by
its pid and its start time (`/proc/<pid>/stat`, field 22), which no later process can share.

Leases on the embedded server and the names of staging graphs carry this identity, so that a
process killed with `kill -9` is known to be gone without it saying so.
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path

PROC = Path("/proc")


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of `/proc/<pid>/stat` after the command name (which may hold spaces)."""
    try:
        text = (PROC / str(pid) / "stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def start_time(pid: int) -> str:
    """Clock ticks after boot at which the process started; "0" where /proc is not available."""
    fields = _stat_fields(pid)
    return fields[19] if fields and len(fields) > 19 else "0"


def identity(pid: int | None = None) -> str:
    """`<pid>-<start time>` of this (or that) process."""
    pid = os.getpid() if pid is None else pid
    return f"{pid}-{start_time(pid)}"


def alive(pid: int, started: str = "0") -> bool:
    """True while the process runs (a zombie does not count); `started` guards against reuse."""
    if pid <= 0:
        return False
    if PROC.is_dir():
        fields = _stat_fields(pid)
        if fields is None or fields[0] in ("Z", "X"):
            return False
        return started in ("0", fields[19] if len(fields) > 19 else "0")
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def identity_alive(ident: str) -> bool:
    """`alive` for an identity written by `identity`; an unreadable one is not alive."""
    pid, _, started = ident.partition("-")
    with contextlib.suppress(ValueError):
        return alive(int(pid), started or "0")
    return False


def host() -> str:
    """This machine's name, safe inside a graph name (no colons or spaces)."""
    name = socket.gethostname() or "localhost"
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:64]
