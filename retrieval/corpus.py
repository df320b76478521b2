"""A searchable corpus: chapters, blocks and the retriever over them, saved as one store."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.atomic import replace_directory
from ingest.chunking import Block, chunk_chapter
from ingest.corpus import Chapter, read_corpus
from ingest.store import has_store, read_blocks, store_dir, write_blocks
from retrieval.bm25 import BM25Index
from retrieval.retriever import Retriever

log = logging.getLogger(__name__)


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


def save_corpus(corpus: Corpus, directory: Path, manifest: dict[str, object]) -> None:
    """Blocks and indexes replace the old store at once: a reader never sees a half-written one."""
    def write(tmp: Path) -> None:
        write_blocks(tmp, corpus.chapters, corpus.blocks, manifest)
        for name, index in corpus.retriever.indexes.items():
            np.savez(tmp / f"index_{name}.npz", **index.to_arrays())  # type: ignore[arg-type]

    replace_directory(directory, write)


def load_corpus(directory: Path) -> Corpus:
    chapters, blocks = read_blocks(directory)
    indexes = {}
    for path in sorted(directory.glob("index_*.npz")):
        with np.load(path) as arrays:
            indexes[path.stem.removeprefix("index_")] = BM25Index.from_arrays(dict(arrays))
    return Corpus(chapters, Retriever(blocks, indexes))


def open_corpus(data_dir: Path, corpus_name: str, corpus_path: Path, chunk_size: int) -> Corpus:
    """The saved store when there is one, else the corpus chunked and indexed in memory."""
    directory = store_dir(data_dir, corpus_name)
    if has_store(directory):
        return load_corpus(directory)
    log.info("no block store in %s; building in memory from %s", directory, corpus_path)
    return build_corpus(read_corpus(corpus_path), chunk_size)
