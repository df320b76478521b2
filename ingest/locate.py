"""Locating quotes in source blocks: normalized matching, offsets back to the original chapter text.

A quote is compared after `normalize` (script and punctuation folding), so a simplified quote is
found in the traditional text. Its offsets are those of the first and last matched original
characters, so leading or trailing punctuation of the quote is not part of the span.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.text import normalize, normalize_with_offsets
from ingest.chunking import Block

if TYPE_CHECKING:  # numpy loads when a chapter is folded, not with every bundle reader
    from ingest.folds import ChapterFolds, Fold


class QuoteError(ValueError):
    """A quote cannot be located; the bundle loader adds the file, line and record id."""


@dataclass(frozen=True)
class Located:
    """Where a quote lies: its block and its original character span in the chapter."""

    chunk_id: str
    chapter: int
    start: int
    end: int


@dataclass(frozen=True)
class _ChapterIndex:
    blocks: list[Block]
    block_starts: list[int]
    fold: Fold
    """the normalized chapter text and, for each of its characters, its original offset"""

    @property
    def text(self) -> str:
        return self.fold.text

    def span(self, at: int, length: int) -> tuple[int, int]:
        return self.fold.span(at, length)

    def block_at(self, offset: int) -> Block:
        return self.blocks[bisect_right(self.block_starts, offset) - 1]

    def normalized_range(self, block: Block) -> tuple[int, int]:
        return self.fold.folded_range(block.start, block.end)


def _short(quote: str, limit: int = 24) -> str:
    return quote if len(quote) <= limit else quote[:limit] + "…"


class QuoteLocator:
    """Finds quotes in a set of blocks; each chapter is normalized once, on first use, unless
    `folds` (saved by `kbx ingest`) already hold it. A quote must lie within one block unless
    `across_blocks`."""

    def __init__(self, blocks: Iterable[Block], folds: ChapterFolds | None = None,
                 across_blocks: bool = False) -> None:
        self._folds = folds
        self._across_blocks = across_blocks
        """A quote spanning two blocks is cited to the block it begins in, not refused (blocks
        cut at another length than the bundle was curated at)."""
        self._by_id: dict[str, Block] = {}
        self._by_chapter: dict[int, list[Block]] = {}
        for block in blocks:
            self._by_id[block.id] = block
            self._by_chapter.setdefault(block.chapter, []).append(block)
        self._indexes: dict[int, _ChapterIndex] = {}

    @property
    def chapters(self) -> list[int]:
        return sorted(self._by_chapter)

    def block(self, chunk_id: str) -> Block | None:
        return self._by_id.get(chunk_id)

    def _index(self, chapter: int) -> _ChapterIndex:
        index = self._indexes.get(chapter)
        if index is None:
            index = self._indexes[chapter] = self._build(chapter)
        return index

    def _build(self, chapter: int) -> _ChapterIndex:
        blocks = sorted(self._by_chapter[chapter], key=lambda b: b.start)
        position = 0
        for block in blocks:
            if block.start != position or block.end - block.start != len(block.text):
                raise QuoteError(f"the blocks of chapter {chapter} do not tile its text "
                                 f"(gap or overlap at {block.id})")
            position = block.end
        from ingest.folds import fold_chapter

        fold = self._folds.get(chapter) if self._folds is not None else None
        if fold is None or (len(fold.offsets) and int(fold.offsets[-1]) >= position):
            fold = fold_chapter("".join(b.text for b in blocks))
        return _ChapterIndex(blocks, [b.start for b in blocks], fold)

    def locate(self, quote: str, chapter: int | None = None,
               chunk_id: str | None = None) -> Located:
        """The quote's block and span; a QuoteError says why it cannot be placed."""
        needle = normalize(quote)
        if len(needle) < 2:
            raise QuoteError(f"quote {quote!r} has fewer than two characters to match")
        if chunk_id is not None:
            return self._in_block(needle, quote, chunk_id, chapter)
        if chapter is not None:
            return self._in_chapter(needle, quote, chapter)
        return self._in_book(needle, quote)

    def _in_block(self, needle: str, quote: str, chunk_id: str, chapter: int | None) -> Located:
        block = self._by_id.get(chunk_id)
        if block is None:
            raise QuoteError(f"unknown chunk id {chunk_id!r}")
        if chapter is not None and chapter != block.chapter:
            raise QuoteError(f"chunk {chunk_id} is in chapter {block.chapter}, not {chapter}")
        index = self._index(block.chapter)
        lo, hi = index.normalized_range(block)
        at = index.text.find(needle, lo, hi)
        if at < 0:
            raise QuoteError(f"quote {_short(quote)!r} not found in {chunk_id}")
        start, end = index.span(at, len(needle))
        return Located(chunk_id, block.chapter, start, end)

    def _in_chapter(self, needle: str, quote: str, chapter: int) -> Located:
        if chapter not in self._by_chapter:
            raise QuoteError(f"chapter {chapter} is not in the corpus")
        index = self._index(chapter)
        at = index.text.find(needle)
        if at < 0:
            raise QuoteError(f"quote {_short(quote)!r} not found in chapter {chapter}")
        if index.text.find(needle, at + 1) >= 0:
            raise QuoteError(f"quote {_short(quote)!r} occurs more than once in chapter "
                             f"{chapter}; lengthen it")
        start, end = index.span(at, len(needle))
        block = index.block_at(start)
        if end > block.end and not self._across_blocks:
            following = index.block_at(end - 1)
            raise QuoteError(f"quote {_short(quote)!r} spans blocks {block.id} and "
                             f"{following.id}; shorten it to lie within one block")
        return Located(block.id, chapter, start, end)

    def _in_book(self, needle: str, quote: str) -> Located:
        found = [c for c in self.chapters if needle in self._index(c).text]
        if len(found) != 1:
            where = "not found in the corpus" if not found else (
                f"found in chapters {', '.join(map(str, found))}; give the chapter")
            raise QuoteError(f"quote {_short(quote)!r} {where}")
        return self._in_chapter(needle, quote, found[0])


def spans_in(text: str, quote: str) -> list[tuple[int, int]]:
    """Every place the quote occurs in `text`, compared after normalization, as [start, end)
    offsets of `text` itself: what a reader's view highlights (a simplified quote lights up the
    traditional text; the quote's own leading or trailing punctuation is not part of a span)."""
    needle = normalize(quote)
    if not needle:
        return []
    folded, offsets = normalize_with_offsets(text)
    spans: list[tuple[int, int]] = []
    at = folded.find(needle)
    while at >= 0:
        spans.append((offsets[at], offsets[at + len(needle) - 1] + 1))
        at = folded.find(needle, at + len(needle))
    return spans
