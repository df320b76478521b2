"""Cutting chapters into source blocks that follow paragraphs and sentence ends (DESIGN contract)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel

from ingest.corpus import Chapter

SENTENCE_END = re.compile(r"[。！？!?…]+[」』”’）)]*")
CLAUSE_END = re.compile(r"[，；：、,;:]")
WINDOW_LOW, WINDOW_HIGH = 0.5, 1.35
"""A cut is looked for between 0.5× and 1.35× the target size from the block start."""


class Block(BaseModel):
    """A source block: the unit of evidence, cited by its id."""

    id: str
    chapter: int
    index: int
    start: int
    end: int
    text: str

    @property
    def display_text(self) -> str:
        return self.text.strip("\n")


def chunk_id(chapter: int, index: int) -> str:
    return f"ch{chapter:03d}_chunk_{index:03d}"


def _cut_points(text: str) -> tuple[list[int], list[int], list[int]]:
    paragraphs = [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    sentences = [m.end() for m in SENTENCE_END.finditer(text)]
    clauses = [m.end() for m in CLAUSE_END.finditer(text)]
    return paragraphs, sentences, clauses


def _best(points: Iterable[int], lo: int, hi: int, target: int) -> int | None:
    inside = [p for p in points if lo <= p <= hi]
    return min(inside, key=lambda p: (abs(p - target), p)) if inside else None


def _next_end(text: str, start: int, size: int, points: tuple[list[int], ...]) -> int:
    remaining = len(text) - start
    if remaining <= size * WINDOW_HIGH:
        return len(text)
    target = start + size
    lo, hi = start + int(size * WINDOW_LOW), start + int(size * WINDOW_HIGH)
    for kind in points:  # paragraph end, then sentence end, then clause end
        found = _best(kind, lo, hi, target)
        if found is not None:
            return found
    return target


def chunk_chapter(chapter: Chapter, size: int = 600) -> list[Block]:
    """Blocks that tile the chapter body exactly, in order; deterministic for a given size."""
    text = chapter.text
    points = _cut_points(text)
    blocks: list[Block] = []
    start = 0
    while start < len(text):
        end = _next_end(text, start, size, points)
        index = len(blocks) + 1
        blocks.append(Block(id=chunk_id(chapter.number, index), chapter=chapter.number,
                            index=index, start=start, end=end, text=text[start:end]))
        start = end
    return blocks


def chunk_corpus(chapters: Iterable[Chapter], size: int = 600) -> list[Block]:
    return [block for chapter in chapters for block in chunk_chapter(chapter, size)]
