"""Replacing a whole directory at once: readers see the old contents or the new, never a mix."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path


def replace_directory(directory: Path, write: Callable[[Path], None],
                      keep: Sequence[str] = ()) -> None:
    """Call `write` on a temporary sibling, then rename it into place.

    Entries named in `keep` (e.g. a cache subdirectory) move from the old directory into the new
    one. On any failure the temporary directory is removed, kept entries go back, and the old
    directory stays as it was.
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
    except BaseException:
        for name in keep:
            if (tmp / name).exists() and not (directory / name).exists():
                (tmp / name).rename(directory / name)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
