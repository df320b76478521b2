"""The record index's two lexical channels, kept on disk beside the bundle cache.

Building them (every rendered record folded to simplified script, then both channels' postings
sorted) took a tenth of a second of every `kbx ask` and every service start, for a result that
depends only on the rendered records. So the first build writes the channels' arrays to
`<cache>/records-<key>/` (one `.npy` file per array), and a later start with the same records
maps them back (memory-mapped, as the corpus indexes are) in a millisecond or two. The key hashes
the rendered texts themselves and `CACHE_VERSION`: a changed record, name or rendering gives
another key, and so a build. A cache that cannot be read or written is ignored (logged, and an
unreadable one removed) and the index is built as before, never trusted half-way.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from retrieval.bm25 import BM25Index

log = logging.getLogger(__name__)

CACHE_VERSION = 1
"""Bumped when the analyzers, the folding or the index arrays change what a key stands for."""
PREFIX = "records-"
KEEP = 4
"""Cached record indexes kept per cache directory (curated, merged, a test bundle …)."""


def key_for(texts: Sequence[str]) -> str:
    """The key of the rendered records (in their order: documents are addressed by position)."""
    digest = hashlib.blake2b(f"v{CACHE_VERSION}\0{len(texts)}\0".encode(), digest_size=16)
    for text in texts:
        digest.update(text.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _path(directory: Path, key: str) -> Path:
    return directory / f"{PREFIX}{key}"


def read(directory: Path, key: str, channels: Iterable[str]) -> dict[str, BM25Index] | None:
    """The channels saved under `key`, or None (not there, or unreadable: then logged)."""
    path = _path(directory, key)
    if not path.is_dir():
        return None
    try:
        return {channel: BM25Index.from_arrays(
            {file.name.split(".")[1]: np.load(file, mmap_mode="r", allow_pickle=False)
             for file in path.glob(f"{channel}.*.npy")}) for channel in channels}
    except (OSError, ValueError, KeyError) as exc:
        log.warning("unreadable record index cache removed", extra={"path": str(path),
                                                                     "error": str(exc)[:200]})
        shutil.rmtree(path, ignore_errors=True)  # so that the build that follows can write it
        return None


def write(directory: Path, key: str, indexes: Mapping[str, BM25Index]) -> None:
    """Save the channels under `key`, whole or not at all: written into a directory of its own,
    which is then renamed into place (a reader sees every file or none)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=directory, prefix=f".{PREFIX}"))
        try:
            for channel, index in indexes.items():
                for name, array in index.to_arrays().items():
                    np.save(staging / f"{channel}.{name}.npy", array)
                    os.chmod(staging / f"{channel}.{name}.npy", 0o644)
            os.chmod(staging, 0o755)  # like the rest of the store: for every local reader
            os.rename(staging, _path(directory, key))  # fails if another process wrote it first
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        _prune(directory)
    except OSError as exc:
        log.warning("record index cache not written", extra={"path": str(directory),
                                                            "error": str(exc)})


def _prune(directory: Path) -> None:
    cached = sorted((p for p in directory.glob(f"{PREFIX}*") if p.is_dir()),
                    key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in cached[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
