"""The block store on disk: blocks, chapter titles and the channel indexes, written atomically."""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.errors import ConfigError
from ingest.chunking import Block, chunk_chapter
from ingest.corpus import Chapter, read_corpus
from retrieval.bm25 import BM25Index
from retrieval.retriever import Retriever

log = logging.getLogger(__name__)
FORMAT_VERSION = 2
"""Bumped when normalization or the index layout changes: older stores must be rebuilt."""


@dataclass
class Corpus:
    """What the service reads: chapters (titles and bodies), blocks and the retriever."""

    chapters: dict[int, Chapter]
    retriever: Retriever

    @property
    def blocks(self) -> list[Block]:
        return self.retriever.blocks

    def block(self, chunk_id: str) -> Block | None:
        pos = self.retriever.position.get(chunk_id)
        return None if pos is None else self.retriever.blocks[pos]


def build_corpus(chapters: list[Chapter], chunk_size: int) -> Corpus:
    blocks = [b for chapter in chapters for b in chunk_chapter(chapter, chunk_size)]
    return Corpus({c.number: c for c in chapters}, Retriever.build(blocks))


def store_dir(data_dir: Path, corpus_name: str) -> Path:
    """The block store of a corpus, beside (not above) its extracted and merged bundles."""
    return data_dir / corpus_name / "blocks"


def save_corpus(corpus: Corpus, directory: Path, manifest: dict[str, object]) -> None:
    """Write into a temporary sibling, then swap it in: a reader never sees a half-written store."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        with (tmp / "chapters.jsonl").open("w", encoding="utf-8") as out:
            for c in corpus.chapters.values():
                row = {"number": c.number, "title": c.title, "text": c.text}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        with (tmp / "blocks.jsonl").open("w", encoding="utf-8") as out:
            for b in corpus.blocks:
                out.write(b.model_dump_json() + "\n")
        for name, index in corpus.retriever.indexes.items():
            np.savez(tmp / f"index_{name}.npz", **index.to_arrays())  # type: ignore[arg-type]
        meta = {"format": FORMAT_VERSION, "saved_at": time.time(), **manifest}
        (tmp / "manifest.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2))
        old = directory.with_name(f".{directory.name}-old")
        if directory.exists():
            shutil.rmtree(old, ignore_errors=True)
            directory.rename(old)
        tmp.rename(directory)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def load_corpus(directory: Path) -> Corpus:
    manifest_path = directory / "manifest.json"
    if not manifest_path.exists():
        raise ConfigError(f"{directory}: no block store here (run `kbx ingest` first)")
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("format") != FORMAT_VERSION:
        raise ConfigError(f"{directory}: store format {manifest.get('format')} is not "
                          f"{FORMAT_VERSION}; run `kbx ingest` again")
    chapters = {}
    for line in (directory / "chapters.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        chapters[row["number"]] = Chapter(row["number"], row["title"], row["text"])
    blocks = [Block.model_validate_json(line) for line in
              (directory / "blocks.jsonl").read_text(encoding="utf-8").splitlines()]
    indexes = {}
    for path in sorted(directory.glob("index_*.npz")):
        with np.load(path) as arrays:
            indexes[path.stem.removeprefix("index_")] = BM25Index.from_arrays(dict(arrays))
    return Corpus(chapters, Retriever(blocks, indexes))


def manifest_of(directory: Path) -> dict[str, object]:
    path = directory / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else {}


def open_corpus(data_dir: Path, corpus_name: str, corpus_path: Path, chunk_size: int) -> Corpus:
    """The saved store when there is one, else the corpus chunked and indexed in memory."""
    directory = store_dir(data_dir, corpus_name)
    if (directory / "manifest.json").exists():
        return load_corpus(directory)
    log.info("no block store in %s; building in memory from %s", directory, corpus_path)
    return build_corpus(read_corpus(corpus_path), chunk_size)
