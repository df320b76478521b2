"""An operating system's I/O error (disk full, permission, read-only) as one line naming the path.

Python's own message names no path when a write fails after the file was opened ("[Errno 28] No
space left on device"): the writers that know what they write (`core.atomic.replace_directory`,
the embedded store's files) raise it again naming the path, and the entry points (the CLI's
commands, the API's errors) print `describe` of it, never a traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path

HINTS = {
    errno.ENOSPC: "no space left on the device: free some, or set KBX_DATA_DIR to another disk",
    errno.EDQUOT: "disk quota exceeded: free some space, or set KBX_DATA_DIR to another disk",
    errno.EACCES: "permission denied: the user running kbx cannot write (or read) there",
    errno.EPERM: "operation not permitted for the user running kbx",
    errno.EROFS: "read-only file system: set KBX_DATA_DIR to a writable directory",
    errno.EFBIG: "file too large for the process's file size limit (ulimit -f)",
    errno.EIO: "input/output error: the disk may be failing",
}


def describe(exc: OSError, fallback: Path | str | None = None) -> str:
    """`path: what went wrong`, in one line; the path is the one the error names, else
    `fallback` (where the command was writing), else the error's own words alone."""
    if exc.errno is None:  # numpy's own short write ("16869 requested and 16352 written")
        reason = f"a write stopped short ({exc}): the disk is full or a file size limit reached"
    else:
        reason = HINTS.get(exc.errno) or (exc.strerror or str(exc) or type(exc).__name__)
    path = exc.filename if exc.filename is not None else fallback
    if path is None:
        return reason
    second = f" -> {exc.filename2}" if exc.filename2 is not None else ""
    return f"{path}{second}: {reason}"


def naming(exc: OSError, path: Path | str) -> OSError:
    """The same error naming `path` when it names none (a failed write after the open)."""
    if exc.filename is not None:
        return exc
    return type(exc)(exc.errno, exc.strerror or str(exc), str(path))
