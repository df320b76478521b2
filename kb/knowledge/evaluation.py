"""Measuring pairs and journeys against a reader's expectations (eval/kb/*.jsonl).

A pair is right when all three hold:
- **relation**: a relation between the two has one of the expected types;
- **begins**: the pair's `first_met` passage, or the first source of a relation of an expected
  type, lies in the expected chapter;
- **shared event**: a key shared event (the ones `kbx pair` lists without `--all`) lies in the
  expected chapter and its title or place holds one of the expected words, or one of its sources sits in
  the block of the expected quote.

A key stage of a journey is found when a stage spans its chapter and the stage's title or one of
its listed events' titles or places holds one of the expected words, or one of the stage's sources sits in
the block of the expected quote. Recall = found key stages / expected key stages. A journey
**ends** at the death or last act when its last stage spans the chapter of its last key stage.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import QuestionFileError
from core.text import to_simplified
from core.utf8 import read_utf8
from kb.knowledge.views import EventView, Journey, Pair, SourceView

T = TypeVar("T", bound=BaseModel)
BlockOf = Callable[[int, str], str | None]
"""(chapter, quote) → the id of the block that holds the quote, or None."""


class _Line(BaseModel):
    model_config = ConfigDict(extra="ignore")


class SharedEvent(_Line):
    chapter: int
    quote: str = ""
    words: list[str] = Field(default_factory=list)


class PairCase(_Line):
    id: str
    a: str
    b: str
    relation_types: list[str] = Field(min_length=1)
    begins_chapter: int
    begins_quote: str = ""
    shared_event: SharedEvent


class KeyStage(_Line):
    label: str
    chapter: int
    quote: str = ""
    words: list[str] = Field(default_factory=list)


class JourneyCase(_Line):
    id: str
    person: str
    stages: list[KeyStage] = Field(min_length=1)


class PairVerdict(BaseModel):
    id: str
    relation: bool
    begins: bool
    shared_event: bool
    note: str | None = None
    """Why the pair could not be judged (a name that resolves to no one, or to several)."""

    @classmethod
    def unresolved(cls, case_id: str, reason: str) -> PairVerdict:
        """A pair the store cannot name, or names as one person, is wrong on every count, with the reason."""
        return cls(id=case_id, relation=False, begins=False, shared_event=False, note=reason)

    @property
    def right(self) -> bool:
        return self.relation and self.begins and self.shared_event


class JourneyVerdict(BaseModel):
    id: str
    found: list[str]
    missed: list[str]
    ends: bool = Field(default=False, description="the journey's last stage spans the chapter of "
                       "the last key stage (the death or last act): the journey reaches the end")


def read_cases(path: Path, model: type[T]) -> list[T]:
    """The file's cases; a QuestionFileError names the line of a bad one."""
    cases: list[T] = []
    for number, line in enumerate(read_utf8(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            cases.append(model.model_validate(json.loads(line)))
        except (ValueError, ValidationError) as exc:
            raise QuestionFileError(f"{path}:{number}: {exc}".splitlines()[0]) from exc
    return cases


def _has_word(text: str, words: Sequence[str]) -> bool:
    simplified = to_simplified(text)
    return any(to_simplified(w) in simplified for w in words if w)


def _in_block(sources: Sequence[SourceView], block: str | None) -> bool:
    return block is not None and any(s.chunk_id == block for s in sources)


def judge_pair(case: PairCase, pair: Pair, block_of: BlockOf) -> PairVerdict:
    wanted = [r for r in pair.relations if r.type in case.relation_types]
    begins = {r.sources[0].chapter for r in wanted if r.sources}
    if pair.first_met is not None:
        begins.add(pair.first_met.chapter)
    key = set(pair.key_events)
    shown: list[EventView] = [e for e in pair.shared_events if e.id in key]
    expected = case.shared_event
    block = block_of(expected.chapter, expected.quote) if expected.quote else None
    shared = any(e.chapter == expected.chapter and (_has_word(f"{e.title} {e.place or ''}",
                                                              expected.words)
                                                    or _in_block(e.sources, block))
                 for e in shown)
    return PairVerdict(id=case.id, relation=bool(wanted), begins=case.begins_chapter in begins,
                       shared_event=shared)


def judge_journey(case: JourneyCase, journey: Journey, block_of: BlockOf) -> JourneyVerdict:
    found: list[str] = []
    missed: list[str] = []
    for key in case.stages:
        block = block_of(key.chapter, key.quote) if key.quote else None
        hit = False
        for stage in journey.stages:
            if not stage.chapters or not stage.chapters[0] <= key.chapter <= stage.chapters[-1]:
                continue
            titles = [stage.title, *(e.title for e in stage.events),
                      *(e.place for e in stage.events if e.place)]
            if any(_has_word(t, key.words) for t in titles) or _in_block(stage.sources, block) \
                    or any(_in_block(e.sources, block) for e in stage.events):
                hit = True
                break
        (found if hit else missed).append(key.label)
    last = journey.stages[-1].chapters if journey.stages else []
    ends = bool(last) and last[0] <= case.stages[-1].chapter <= last[-1]
    return JourneyVerdict(id=case.id, found=found, missed=missed, ends=ends)
