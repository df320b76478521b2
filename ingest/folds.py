"""Folded chapter texts: each chapter normalized once (script, punctuation) with the offset of every
folded character in the original text — what quotes are matched against.

Folding the whole book takes a fraction of a second with numpy, but every process that placed
quotes used to do it at start (character by character), so `kbx ingest` computes the folds once
and saves them beside the blocks: `folded.jsonl` (one chapter a line) and `folded_offsets.npy`
(the offsets of all chapters, concatenated, int32), which is read memory-mapped. A store written
before folds existed, or a corpus built in memory, folds a chapter on first use.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.text import fold_with_offsets
from ingest.corpus import Chapter

TEXTS_FILE = "folded.jsonl"
OFFSETS_FILE = "folded_offsets.npy"

OffsetArray = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Fold:
    """One chapter folded: the text quotes are matched in, and each character's original offset."""

    text: str
    offsets: OffsetArray

    def span(self, at: int, length: int) -> tuple[int, int]:
        """Original [start, end) of the folded characters [at, at + length)."""
        return int(self.offsets[at]), int(self.offsets[at + length - 1]) + 1

    def folded_range(self, start: int, end: int) -> tuple[int, int]:
        """The folded characters that lie in the original span [start, end)."""
        lo, hi = np.searchsorted(self.offsets, (start, end))
        return int(lo), int(hi)


def fold_chapter(text: str) -> Fold:
    folded, offsets = fold_with_offsets(text)
    return Fold(folded, offsets.astype(np.int32))


@dataclass
class ChapterFolds:
    """Folds by chapter number: the saved ones, else computed from the chapter text on first use."""

    texts: Mapping[int, str] = field(default_factory=dict)
    """chapter → original text, for chapters folded on demand"""
    _folds: dict[int, Fold] = field(default_factory=dict)

    def get(self, chapter: int) -> Fold | None:
        fold = self._folds.get(chapter)
        if fold is None and chapter in self.texts:
            fold = self._folds[chapter] = fold_chapter(self.texts[chapter])
        return fold

    @classmethod
    def compute(cls, chapters: Iterable[Chapter]) -> ChapterFolds:
        return cls(_folds={c.number: fold_chapter(c.text) for c in chapters})

    def write(self, directory: Path, order: Iterable[int]) -> None:
        """Save the folds of the chapters in `order` (computing any not folded yet)."""
        numbers = list(order)
        folds = [self.get(n) for n in numbers]
        with (directory / TEXTS_FILE).open("w", encoding="utf-8") as out:
            for number, fold in zip(numbers, folds, strict=True):
                assert fold is not None, f"chapter {number} has no text to fold"
                out.write(json.dumps({"number": number, "text": fold.text}, ensure_ascii=False)
                          + "\n")
        offsets = [f.offsets for f in folds if f is not None]
        np.save(directory / OFFSETS_FILE,
                np.concatenate(offsets) if offsets else np.empty(0, dtype=np.int32))

    @classmethod
    def read(cls, directory: Path, texts: Mapping[int, str] | None = None) -> ChapterFolds:
        """The saved folds (offsets memory-mapped); without saved folds, folds made on demand."""
        if not (directory / TEXTS_FILE).exists() or not (directory / OFFSETS_FILE).exists():
            return cls(texts=texts or {})
        offsets = np.load(directory / OFFSETS_FILE, mmap_mode="r")
        folds: dict[int, Fold] = {}
        position = 0
        with (directory / TEXTS_FILE).open(encoding="utf-8") as lines:
            rows = [json.loads(line) for line in lines]
        for row in rows:
            text = row["text"]
            folds[int(row["number"])] = Fold(text, offsets[position:position + len(text)])
            position += len(text)
        return cls(texts=texts or {}, _folds=folds)
