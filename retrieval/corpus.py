"""A searchable corpus: chapters, blocks and the retriever over them, saved as one store.

Each index is saved as plain `.npy` arrays in `index_<channel>/` and opened memory-mapped, so the
processes of a service (uvicorn workers, `kbx ask` beside `kbx serve`) share one copy in the page
cache instead of each holding its own."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.atomic import replace_directory
from ingest.chunking import Block, chunk_chapter
from ingest.corpus import Chapter, read_corpus
from ingest.folds import ChapterFolds
from ingest.store import has_store, read_blocks, store_dir, write_blocks
from retrieval.bm25 import BM25Index
from retrieval.retriever import Retriever

log = logging.getLogger(__name__)


@dataclass
class Corpus:
    """What the service reads: chapters (titles and bodies), blocks and the retriever."""

    chapters: dict[int, Chapter]
    retriever: Retriever
    directory: Path | None = None
    """the store it was read from (None: built in memory)"""
    _folds: ChapterFolds | None = None

    @property
    def blocks(self) -> list[Block]:
        return self.retriever.blocks

    def block(self, chunk_id: str) -> Block | None:
        pos = self.retriever.position.get(chunk_id)
        return None if pos is None else self.retriever.blocks[pos]

    @property
    def folds(self) -> ChapterFolds:
        """Folded chapter texts for placing quotes: saved by `kbx ingest`, read on first use."""
        if self._folds is None:
            texts = {n: c.text for n, c in self.chapters.items()}
            self._folds = (ChapterFolds.read(self.directory, texts) if self.directory is not None
                           else ChapterFolds(texts=texts))
        return self._folds


def build_corpus(chapters: list[Chapter], chunk_size: int) -> Corpus:
    blocks = [b for chapter in chapters for b in chunk_chapter(chapter, chunk_size)]
    return Corpus({c.number: c for c in chapters}, Retriever.build(blocks))


def save_corpus(corpus: Corpus, directory: Path, manifest: dict[str, object]) -> None:
    """Blocks, folds and indexes replace the old store at once: a reader never sees a half-written
    one."""
    def write(tmp: Path) -> None:
        write_blocks(tmp, corpus.chapters, corpus.blocks, manifest)
        corpus.folds.write(tmp, corpus.chapters)
        for name, index in whole_indexes(corpus.retriever).items():
            save_index(index.to_arrays(), tmp / f"index_{name}")

    replace_directory(directory, write)


def whole_indexes(retriever: Retriever) -> dict[str, BM25Index]:
    """The retriever's own indexes: a chapter window (`Retriever.subset`) is never saved."""
    indexes = {}
    for name, index in retriever.indexes.items():
        if not isinstance(index, BM25Index):
            raise TypeError(f"index {name!r} is a chapter window, not an index of its own")
        indexes[name] = index
    return indexes


def save_index(arrays: dict[str, np.ndarray], directory: Path) -> None:
    directory.mkdir()
    for key, array in arrays.items():
        np.save(directory / f"{key}.npy", array)


def load_index(directory: Path) -> BM25Index:
    """An index whose arrays are memory-mapped from the store."""
    return BM25Index.from_arrays({path.stem: np.load(path, mmap_mode="r")
                                  for path in directory.glob("*.npy")})


def load_corpus(directory: Path) -> Corpus:
    chapters, blocks = read_blocks(directory)
    indexes = {path.name.removeprefix("index_"): load_index(path)
               for path in sorted(directory.glob("index_*")) if path.is_dir()}
    return Corpus(chapters, Retriever(blocks, indexes), directory)


def open_corpus(data_dir: Path, corpus_name: str, corpus_path: Path, chunk_size: int) -> Corpus:
    """The saved store when there is one, else the corpus chunked and indexed in memory."""
    directory = store_dir(data_dir, corpus_name)
    if has_store(directory):
        return load_corpus(directory)
    log.info("no block store in %s; building in memory from %s", directory, corpus_path)
    return build_corpus(read_corpus(corpus_path), chunk_size)
