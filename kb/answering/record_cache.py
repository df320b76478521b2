"""The record index's two lexical channels, kept on disk beside the bundle cache.

Building them (every rendered record folded to simplified script, then both channels' postings
sorted) took a tenth of a second of every `kbx ask` and every service start, for a result that
depends only on the rendered records. So the first build writes the channels' arrays to
`<cache>/records-<key>.npz`, and a later start with the same records reads them back in a few
milliseconds. The key hashes the rendered texts themselves and `CACHE_VERSION`: a changed record,
name or rendering gives another key, and so a build. A file that cannot be read or written is
ignored (logged) and the index is built as before, never trusted half-way.
"""

from __future__ import annotations

import hashlib
import logging
import os
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
    return directory / f"{PREFIX}{key}.npz"


def read(directory: Path, key: str, channels: Iterable[str]) -> dict[str, BM25Index] | None:
    """The channels saved under `key`, or None (not there, or unreadable: then logged)."""
    path = _path(directory, key)
    try:
        with np.load(path, allow_pickle=False) as saved:
            arrays = {name: saved[name] for name in saved.files}
        return {channel: BM25Index.from_arrays(
            {name.split(".", 1)[1]: array for name, array in arrays.items()
             if name.split(".", 1)[0] == channel}) for channel in channels}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError) as exc:
        log.warning("unreadable record index cache ignored", extra={"path": str(path),
                                                                     "error": str(exc)[:200]})
        return None


def write(directory: Path, key: str, indexes: Mapping[str, BM25Index]) -> None:
    """Save the channels under `key` (atomically: a reader sees the whole file or none)."""
    arrays = {f"{channel}.{name}": array for channel, index in indexes.items()
              for name, array in index.to_arrays().items()}
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=directory, prefix=f".{PREFIX}", suffix=".npz",
                                         delete=False) as out:
            np.savez(out, **arrays)  # type: ignore[arg-type]
        os.chmod(out.name, 0o644)  # like the rest of the store: for every local reader
        os.replace(out.name, _path(directory, key))
        _prune(directory)
    except OSError as exc:
        log.warning("record index cache not written", extra={"path": str(directory),
                                                            "error": str(exc)})


def _prune(directory: Path) -> None:
    cached = sorted(directory.glob(f"{PREFIX}*.npz"), key=lambda p: p.stat().st_mtime_ns,
                    reverse=True)
    for old in cached[KEEP:]:
        old.unlink(missing_ok=True)
