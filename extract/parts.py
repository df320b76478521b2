"""One chapter's extraction result (a part), stored on its own so a chapter can be redone alone."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from core.atomic import write_text
from kb.knowledge.models import ChapterSummary, Event, Person, Relation, SourceRef, State

PART_VERSION = 3
"""2: names come from the lexicon alone (no curated people); 3: headline events of the 回目,
fates, the chapter's extractive summary. Older parts are skipped until their chapters are
extracted again."""


class ChapterPart(BaseModel):
    """Everything extracted from one chapter, before merging across chapters and with curated data."""

    chapter: int
    method: str = Field(description="offline | llm")
    version: int = PART_VERSION
    mentions: dict[str, dict[str, int]] = Field(default_factory=dict,
                                                description="block id → person id → mentions")
    person_refs: dict[str, SourceRef] = Field(default_factory=dict,
                                              description="person id → a quote naming them here")
    new_people: list[Person] = Field(default_factory=list, description="people outside the roster")
    events: list[Event] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    states: list[State] = Field(default_factory=list)
    summary: ChapterSummary | None = Field(default=None, description="the extractive summary")
    counters: dict[str, int] = Field(default_factory=dict, description="kept / dropped tallies")


def part_path(directory: Path, chapter: int) -> Path:
    return directory / f"ch{chapter:03d}.json"


def save_part(part: ChapterPart, directory: Path) -> None:
    """Write one part atomically (temporary file, then rename)."""
    directory.mkdir(parents=True, exist_ok=True)
    target = part_path(directory, part.chapter)
    write_text(target, part.model_dump_json(exclude_none=True), target.with_suffix(".json.tmp"))


def load_parts(directory: Path, chapters: Iterable[int] | None = None) -> list[ChapterPart]:
    """The saved parts in chapter order (only `chapters` when given); stale versions are skipped."""
    if not directory.is_dir():
        return []
    wanted = None if chapters is None else set(chapters)
    parts = []
    for path in sorted(directory.glob("ch*.json")):
        part = ChapterPart.model_validate(json.loads(path.read_text(encoding="utf-8")))
        if part.version == PART_VERSION and (wanted is None or part.chapter in wanted):
            parts.append(part)
    return parts
