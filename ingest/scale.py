"""A bigger corpus made from a real one, for measuring how the system scales: the chapters repeated
with new numbers (copy k of chapter c is chapter c + k·(last + 1)), so every block, term and
posting grows N times while the text stays the novel's own."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ingest.corpus import Chapter


def scaled_chapters(chapters: Sequence[Chapter], times: int) -> list[Chapter]:
    """The chapters `times` times over; the first copy keeps its numbers (bundles still place
    their quotes), later copies are numbered after the last chapter of the copy before."""
    if times < 1:
        raise ValueError(f"scale must be at least 1, not {times}")
    span = max((c.number for c in chapters), default=0) + 1
    return [Chapter(c.number + copy * span, c.title if copy == 0 else f"{c.title}（{copy + 1}）",
                    c.text)
            for copy in range(times) for c in chapters]


def write_chapters(chapters: Sequence[Chapter], directory: Path) -> None:
    """A chapter directory `kbx ingest --corpus` reads: `NNN.txt`, the title on the first line."""
    directory.mkdir(parents=True, exist_ok=True)
    for chapter in chapters:
        (directory / f"{chapter.number:03d}.txt").write_text(
            f"{chapter.title}\n{chapter.text}\n", encoding="utf-8")
