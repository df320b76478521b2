"""The validated bundle, kept on disk so that a process starts without placing every quote again.

Validating the whole-book bundle reads thousands of records and places each quote in its chapter;
the result depends only on the bundle's files and on the blocks. So the first load writes the
resolved records (chunk ids and offsets filled in) to `<data>/<corpus>/cache/bundle-<key>.json`,
and a later load with the same key reads them back in one pass of pydantic's JSON parser. The key
hashes every file of the bundle directory (path, size, modification time), the blocks (ids, spans
and text) or, without blocks, the corpus files and chunk size, and `CACHE_VERSION`. A changed
file, corpus or chunking gives another key, and so a full validation; a cache that cannot be read
or written is ignored (logged), never trusted half-way.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ValidationError

from ingest.chunking import Block
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import ChapterSummary, Event, Person, Relation, State
from kb.knowledge.profile import CorpusProfile

log = logging.getLogger(__name__)

CACHE_VERSION = 3
"""Bumped when the models or the quote locator change what a resolved record holds (3: a bundle
is cached only once its manifest was checked, so an entry cached before that is validated
again; a cache hit is then a bundle whose every file has the size and time it had when checked)."""
KEEP = 4
"""Cached bundles kept per data directory (curated, merged, a test bundle …), newest first."""


class _Cached(BaseModel):
    people: list[Person]
    events: list[Event]
    relations: list[Relation]
    states: list[State]
    chapters: list[ChapterSummary]
    profile: CorpusProfile


def _files_digest(directory: Path, digest: hashlib.blake2b) -> None:
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(directory)}\0{stat.st_size}\0{stat.st_mtime_ns}\n"
                      .encode())


def key_for_blocks(bundle_dir: Path, blocks: Sequence[Block]) -> str:
    """The key of a bundle directory validated against these blocks."""
    digest = hashlib.blake2b(f"v{CACHE_VERSION}\0blocks\0{bundle_dir.resolve()}\n".encode(),
                             digest_size=16)
    _files_digest(bundle_dir, digest)
    for block in blocks:
        digest.update(f"{block.id}\0{block.start}\0{block.end}\0".encode())
        digest.update(block.text.encode())
    return digest.hexdigest()


def key_for_corpus(bundle_dir: Path, corpus: Path, chunk_size: int) -> str:
    """The key of a bundle directory validated against a corpus chunked at `chunk_size`."""
    digest = hashlib.blake2b(f"v{CACHE_VERSION}\0corpus\0{bundle_dir.resolve()}\0{chunk_size}\0"
                             f"{corpus.resolve()}\n".encode(), digest_size=16)
    _files_digest(bundle_dir, digest)
    if corpus.is_dir():
        _files_digest(corpus, digest)
    elif corpus.exists():
        stat = corpus.stat()
        digest.update(f"{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


class BundleCache:
    """Resolved bundles by key in one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / f"bundle-{key}.json"

    def get(self, key: str) -> KnowledgeBundle | None:
        path = self._path(key)
        try:
            data = _Cached.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValidationError, ValueError) as exc:
            log.warning("unreadable bundle cache ignored", extra={"path": str(path),
                                                                   "error": str(exc)[:200]})
            return None
        return KnowledgeBundle(people=data.people, events=data.events,
                               relations=data.relations, states=data.states,
                               chapters=data.chapters, profile=data.profile)

    def put(self, key: str, bundle: KnowledgeBundle) -> None:
        data = _Cached(people=bundle.people, events=bundle.events, relations=bundle.relations,
                       states=bundle.states, chapters=bundle.chapters, profile=bundle.profile)
        written: str | None = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("wb", dir=self.directory, prefix=".bundle-",
                                             delete=False) as out:
                written = out.name
                out.write(data.model_dump_json().encode())
            os.chmod(out.name, 0o644)  # like the rest of the store: for every local reader
            os.replace(out.name, self._path(key))
            self._prune()
        except OSError as exc:  # a cache only: the next load validates again (info, not a
            # warning: on a full or read-only disk the command's own error says so, in one line)
            if written is not None:
                Path(written).unlink(missing_ok=True)
            log.info("bundle cache not written", extra={"path": str(self.directory),
                                                        "error": str(exc)})

    def _prune(self) -> None:
        cached = sorted(self.directory.glob("bundle-*.json"), key=lambda p: p.stat().st_mtime_ns,
                        reverse=True)
        for old in cached[KEEP:]:
            old.unlink(missing_ok=True)
