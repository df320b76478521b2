"""Text spans for extraction: segments (sentences and quoted speech), clause windows, unique quotes.

Extraction works on a block's simplified text (`to_simplified` keeps every offset), so a span found
there slices the original block text into a verbatim quote. A quote must be unique in its chapter
after normalization, because on disk a SourceRef gives only the chapter and the quote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.text import normalize, normalize_with_offsets
from ingest.chunking import Block

SEGMENT_BREAK = re.compile(r"[。！？；!?;\n「」『』“”‘’]")
"""Sentence ends and speech marks: a speaker (甲道：) and the speech are separate segments."""
CLAUSE_BREAK = re.compile(r"[，、：,:]")
MAX_QUOTE = 60
MIN_QUOTE = 6


@dataclass(frozen=True, order=True)
class Span:
    """A half-open character range of a block's text."""

    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start

    def covers(self, start: int, end: int) -> bool:
        return self.start <= start and end <= self.end


def segments(text: str) -> list[Span]:
    """Non-empty runs between sentence ends and speech marks, stripped of spaces and commas."""
    spans: list[Span] = []
    start = 0
    for match in [*SEGMENT_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        span = _strip(text, start, end)
        if span is not None:
            spans.append(span)
        if match:
            start = match.end()
    return spans


def _strip(text: str, start: int, end: int) -> Span | None:
    while start < end and (text[start].isspace() or CLAUSE_BREAK.match(text[start])):
        start += 1
    while end > start and (text[end - 1].isspace() or CLAUSE_BREAK.match(text[end - 1])):
        end -= 1
    return Span(start, end) if end > start else None


def clauses(text: str, segment: Span) -> list[Span]:
    """The clauses of a segment (split at ，、：), in order."""
    spans: list[Span] = []
    start = segment.start
    for match in CLAUSE_BREAK.finditer(text, segment.start, segment.end):
        span = _strip(text, start, match.start())
        if span is not None:
            spans.append(span)
        start = match.end()
    last = _strip(text, start, segment.end)
    if last is not None:
        spans.append(last)
    return spans


def window(text: str, segment: Span, start: int, end: int, limit: int = MAX_QUOTE) -> Span | None:
    """The whole segment when short enough, else the fewest clauses covering [start, end)."""
    if len(segment) <= limit:
        return segment
    parts = [c for c in clauses(text, segment) if c.end > start and c.start < end]
    if not parts:
        return None
    span = Span(parts[0].start, parts[-1].end)
    return span if len(span) <= limit else None


def widen(text: str, segment: Span, span: Span, limit: int = MAX_QUOTE) -> Iterable[Span]:
    """The span, then ever wider clause windows inside the segment, each at most `limit` long."""
    yield span
    parts = clauses(text, segment)
    lo = next((i for i, c in enumerate(parts) if c.end > span.start), 0)
    hi = max((i for i, c in enumerate(parts) if c.start < span.end), default=len(parts) - 1)
    while lo > 0 or hi < len(parts) - 1:
        if hi < len(parts) - 1:
            hi += 1
        elif lo > 0:
            lo -= 1
        wider = Span(min(parts[lo].start, span.start), max(parts[hi].end, span.end))
        if len(wider) > limit:
            return
        yield wider


def locate(text: str, quote: str) -> Span | None:
    """Where a quote lies in a text, compared after normalization (script, punctuation)."""
    needle = normalize(quote)
    if len(needle) < 2:
        return None
    folded, offsets = normalize_with_offsets(text)
    at = folded.find(needle)
    if at < 0:
        return None
    return Span(offsets[at], offsets[at + len(needle) - 1] + 1)


def segment_of(text: str, span: Span) -> Span:
    """The segment that holds the span, or the span itself when it crosses segments."""
    return next((s for s in segments(text) if s.covers(span.start, span.end)), span)


class ChapterTexts:
    """Normalized chapter texts, built from blocks, to check that a quote is unique in its chapter;
    and the chapters' title lines (the 回目), when the corpus gave them."""

    def __init__(self, blocks: Iterable[Block], titles: Mapping[int, str] | None = None) -> None:
        self.titles: dict[int, str] = dict(titles or {})
        by_chapter: dict[int, list[Block]] = {}
        for block in blocks:
            by_chapter.setdefault(block.chapter, []).append(block)
        self._blocks = {n: sorted(bs, key=lambda b: b.start) for n, bs in by_chapter.items()}
        self._normalized: dict[int, str] = {}

    def chapters(self) -> list[int]:
        """The chapter numbers, in order."""
        return sorted(self._blocks)

    def original(self, chapter: int) -> str:
        """The chapter's text as written (its blocks joined): what a verbatim quote is cut from."""
        return "".join(b.text for b in self._blocks.get(chapter, []))

    def normalized(self, chapter: int) -> str:
        text = self._normalized.get(chapter)
        if text is None:
            text = normalize("".join(b.text for b in self._blocks.get(chapter, [])))
            self._normalized[chapter] = text
        return text

    def is_unique(self, chapter: int, quote: str) -> bool:
        needle = normalize(quote)
        if len(needle) < 2:
            return False
        text = self.normalized(chapter)
        at = text.find(needle)
        return at >= 0 and text.find(needle, at + 1) < 0

    def unique_quote(self, block: Block, segment: Span, span: Span,
                     limit: int = MAX_QUOTE) -> str | None:
        """The narrowest widening of `span` (inside its segment) that occurs once in the chapter."""
        shortest = min(MIN_QUOTE, len(normalize(block.text[segment.start:segment.end])))
        for candidate in widen(block.text, segment, span, limit):
            quote = block.text[candidate.start:candidate.end]
            if len(normalize(quote)) >= shortest and self.is_unique(block.chapter, quote):
                return quote
        return None
