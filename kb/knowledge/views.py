"""What the relation providers answer: typed views of records, pairs, journeys, paths and stats.

Views are the public shapes (CLI `--json`, API); the builders here sort them, so that every
provider gives the same answer for the same bundle.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from pydantic import BaseModel, Field

from kb.knowledge.models import (
    RELATION_TYPES,
    ChapterSummary,
    Event,
    Participant,
    Person,
    Record,
    RecordKind,
    Relation,
    SourceRef,
    State,
    record_kind,
)

KIND_RANK: dict[str, int] = {"person": 0, "event": 1, "relation": 2, "state": 3, "chapter": 4}
NO_CHAPTER = 10_000
"""Sort key for records without a chapter: after every chapter."""


class SourceView(BaseModel):
    chunk_id: str | None
    chapter: int | None
    quote: str

    @classmethod
    def of(cls, ref: SourceRef) -> SourceView:
        return cls(chunk_id=ref.chunk_id, chapter=ref.chapter, quote=ref.quote)


def sources_of(refs: Iterable[SourceRef]) -> list[SourceView]:
    return [SourceView.of(ref) for ref in refs]


class PersonView(BaseModel):
    id: str
    name: str
    aliases: list[str]
    profile: str
    group: str | None
    first_chapter: int | None
    sources: list[SourceView]

    @classmethod
    def of(cls, person: Person) -> PersonView:
        return cls(id=person.id, name=person.name, aliases=person.aliases,
                   profile=person.profile, group=person.group,
                   first_chapter=person.first_chapter, sources=sources_of(person.sources))


class EventView(BaseModel):
    id: str
    title: str
    chapter: int
    order: int
    place: str | None
    participants: list[Participant]
    summary: str
    turning_point: bool
    headline: bool = Field(default=False, description="its chapter's title names it")
    sources: list[SourceView]

    @classmethod
    def of(cls, event: Event) -> EventView:
        return cls(id=event.id, title=event.title, chapter=event.chapter, order=event.order,
                   place=event.place, participants=event.participants, summary=event.summary,
                   turning_point=event.turning_point, headline=event.headline,
                   sources=sources_of(event.sources))


class RelationView(BaseModel):
    id: str
    type: str
    label: str = Field(description="the type's Chinese label")
    directed: bool
    source: str
    target: str
    description: str
    chapters: list[int]
    events: list[str]
    sources: list[SourceView]

    @classmethod
    def of(cls, relation: Relation) -> RelationView:
        return cls(id=relation.id, type=relation.type, label=relation.label,
                   directed=relation.directed, source=relation.source, target=relation.target,
                   description=relation.description, chapters=relation.chapters,
                   events=relation.events, sources=sources_of(relation.sources))


class StateView(BaseModel):
    id: str
    person: str
    kind: str
    value: str
    chapter: int
    until_chapter: int | None
    description: str
    sources: list[SourceView]

    @classmethod
    def of(cls, state: State) -> StateView:
        return cls(id=state.id, person=state.person, kind=state.kind, value=state.value,
                   chapter=state.chapter, until_chapter=state.until_chapter,
                   description=state.description, sources=sources_of(state.sources))


class ChapterView(BaseModel):
    id: str
    chapter: int
    title: str
    summary: str
    sources: list[SourceView]

    @classmethod
    def of(cls, chapter: ChapterSummary) -> ChapterView:
        return cls(id=chapter.id, chapter=chapter.chapter, title=chapter.title,
                   summary=chapter.summary, sources=sources_of(chapter.sources))


AnyView = PersonView | EventView | RelationView | StateView | ChapterView


def view_of(record: Record) -> AnyView:
    if isinstance(record, Person):
        return PersonView.of(record)
    if isinstance(record, Event):
        return EventView.of(record)
    if isinstance(record, Relation):
        return RelationView.of(record)
    if isinstance(record, State):
        return StateView.of(record)
    return ChapterView.of(record)


def kind_of(record: Record) -> RecordKind:
    return record_kind(record)


class Pair(BaseModel):
    """What connects two people: relations both ways, then shared events in book order."""

    a: PersonView
    b: PersonView
    relations: list[RelationView]
    shared_events: list[EventView]
    first_met: SourceView | None = Field(
        default=None, description="the earliest passage of their story together")
    key_events: list[str] = Field(
        default_factory=list,
        description="ids of the shared events that matter (kb.knowledge.pairs), in book order")
    cited_only: list[str] = Field(
        default_factory=list,
        description="ids of the shared events one of the two is not in, there because a "
                    "relation of theirs cites them (甲 acting on 乙's behalf)")

    def scenes_of_both(self) -> set[str]:
        """The shared events both are in."""
        return {e.id for e in self.shared_events} - set(self.cited_only)


class LinkedRecord(BaseModel):
    """A record linked to the one opened, in short: enough to show it and open it."""

    kind: RecordKind
    id: str
    title: str
    chapter: int | None = None
    role: str | None = Field(default=None, description="participant role, or source/target")


class RecordView(BaseModel):
    kind: RecordKind
    record: AnyView
    linked: list[LinkedRecord]
    sources: list[SourceView]


class JourneyStage(BaseModel):
    title: str = Field(description="what happens in this arc: the title of its key event")
    place: str | None = None
    chapters: list[int] = Field(description="chapters of all its events and states, ascending")
    events: list[EventView] = Field(description="its key events, in book order")
    other_events: int = Field(default=0, description="events of the arc not listed")
    states: list[StateView]
    sources: list[SourceView]


class Timeline(NamedTuple):
    """A person with their events in book order and states by chapter: what a journey is built of."""

    person: Person
    events: list[Event]
    states: list[State]


class Journey(BaseModel):
    """A person's skeleton: stages in book order, decided by the knowledge base (kb.knowledge.journey)."""

    person: PersonView
    stages: list[JourneyStage]


class PathHop(BaseModel):
    source: str
    target: str
    relations: list[RelationView] = Field(description="every relation between the two, sorted")


class PathResult(BaseModel):
    """The shortest chain of relations between two people (relations read both ways).

    Among several shortest chains, the one whose person ids are lexicographically smallest.
    """

    source: PersonView
    target: PersonView
    max_hops: int
    found: bool
    people: list[PersonView]
    hops: list[PathHop]


class Neighbor(BaseModel):
    person: PersonView
    relations: list[RelationView]


class Stats(BaseModel):
    people: int
    events: int
    relations: int
    states: int
    chapters: int
    names: int = Field(description="distinct normalized names and aliases")
    sources: int = Field(description="source references over all records")
    relation_types: dict[str, int]
    backend: str
    graph: str


class LoadReport(BaseModel):
    backend: str
    graph: str
    people: int
    events: int
    relations: int
    states: int
    chapters: int
    seconds: float
    persistence: list[str] = Field(default_factory=list, description=(
        "what the store could not write after the load (a full disk: the compaction of its "
        "log); the graph itself is loaded"))


def natural_key(record_id: str) -> tuple[tuple[int, int | str], ...]:
    """Ids compared with their digit runs as numbers: st_lin_chong_4 before st_lin_chong_10."""
    parts = re.split(r"(\d+)", record_id)
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts if p)


def state_key(state: State) -> tuple[int, tuple[tuple[int, int | str], ...]]:
    return (state.chapter, natural_key(state.id))


def relation_key(relation: Relation) -> tuple[int, str]:
    """Relations sort by the first chapter they are known from, then id."""
    chapters = relation.chapters + [r.chapter for r in relation.sources if r.chapter is not None]
    return (min(chapters) if chapters else NO_CHAPTER, relation.id)


def linked_record(record: Record, names: Mapping[str, str], role: str | None = None
                  ) -> LinkedRecord:
    """The short form of a record; `names` maps person ids to names for titles."""
    if isinstance(record, Person):
        title, chapter = record.name, record.first_chapter
    elif isinstance(record, Event):
        title, chapter = record.title, record.chapter
    elif isinstance(record, Relation):
        title = (f"{names.get(record.source, record.source)}—"
                 f"{names.get(record.target, record.target)} {RELATION_TYPES[record.type]}")
        first = relation_key(record)[0]
        chapter = None if first == NO_CHAPTER else first
    elif isinstance(record, State):
        title = f"{names.get(record.person, record.person)} {record.kind}: {record.value}"
        chapter = record.chapter
    else:
        title, chapter = record.title, record.chapter
    return LinkedRecord(kind=kind_of(record), id=record.id, title=title, chapter=chapter,
                        role=role)


def sort_linked(items: Iterable[LinkedRecord]) -> list[LinkedRecord]:
    return sorted(items, key=lambda x: (KIND_RANK[x.kind], -1 if x.chapter is None else x.chapter,
                                        x.id, x.role or ""))


def build_neighbors(groups: Iterable[tuple[Person, list[Relation]]]) -> list[Neighbor]:
    """Neighbors with the most relations first, then by person id."""
    ordered = sorted(groups, key=lambda g: (-len(g[1]), g[0].id))
    return [Neighbor(person=PersonView.of(p),
                     relations=[RelationView.of(r) for r in sorted(rels, key=relation_key)])
            for p, rels in ordered]
