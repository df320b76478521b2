"""Replacing a whole directory at once: readers see the old contents or the new, never a mix."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from core.oserrors import naming


def replace_directory(directory: Path, write: Callable[[Path], None],
                      keep: Sequence[str] = ()) -> None:
    """Call `write` on a temporary sibling, then rename it into place.

    Entries named in `keep` (e.g. a cache subdirectory) move from the old directory into the new
    one. On any failure the temporary directory is removed, kept entries go back, and the old
    directory stays as it was; an I/O error (a full disk) is raised naming `directory` when it
    names no path of its own.
    """
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    old = directory.with_name(f".{directory.name}-old")
    try:
        tmp.chmod(0o755)  # mkdtemp makes it private; the stores are for every local reader
        write(tmp)
        for name in keep:
            if (directory / name).exists():
                (directory / name).rename(tmp / name)
        shutil.rmtree(old, ignore_errors=True)
        if directory.exists():
            directory.rename(old)
        tmp.rename(directory)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        for name in keep:
            if (tmp / name).exists() and not (directory / name).exists():
                (tmp / name).rename(directory / name)
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError) and exc.filename is None:
            raise naming(exc, directory) from exc  # a write that failed after its open
        raise


def write_text(path: Path, text: str, temporary: Path | None = None) -> None:
    """Replace `path` by `text` at once (a temporary sibling, then a rename). On a failure (a
    full disk) the temporary file is removed, `path` stays as it was, and the error names
    `path` when it names no file of its own."""
    temporary = temporary or path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        if exc.filename is None or exc.filename == str(temporary):
            raise naming(OSError(exc.errno, exc.strerror), path) from exc
        raise
