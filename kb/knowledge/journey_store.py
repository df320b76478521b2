"""Journeys decided at load: every person's skeleton built once, so that reading one is one read.

`build_journeys(bundle)` indexes the bundle's events and states by person once (linear in
events + states, plus one sort of each person's records) and calls the journey rule
(`kb.knowledge.journey.journey_of`) for every person; whatever the rule returns is stored as is.
Beside it are kept:

- the default view (`JourneyDigest`): the rule's stages with the events it lists (at most
  `KEY_EVENTS`: a rule that lists more is cut to turning points, then events whose title names
  the person, then the earliest), each without its participant list (`KeyEvent`), every other
  event of the stage counted, and no stage-level quote list (each event carries its own
  sources), so that the journey of a hub character stays small;
- each stage's event ids in book order (`stage_events`), every event of the person exactly once,
  for paging through a stage (`StageEvents`); see `stage_members`.

Providers store these at load (`RelationProvider.load`) and answer `journey`, `journey_digest`
and `stage_events` with one read.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from core.errors import NotFound, QueryRejected
from core.text import to_simplified
from kb.knowledge.journey import journey_of
from kb.knowledge.models import Event, Person, State
from kb.knowledge.views import (
    EventView,
    Journey,
    JourneyStage,
    PersonView,
    SourceView,
    StateView,
    Timeline,
    state_key,
)

if TYPE_CHECKING:
    from kb.knowledge.bundle import KnowledgeBundle

EventReader = Callable[[Sequence[str]], Mapping[str, Event]]
"""Event ids → events, as a provider reads them."""

KEY_EVENTS = 5
"""Events listed per stage in the default journey view; the rest are counted and paged."""
PAGE_LIMIT = 20
MAX_PAGE_LIMIT = 200


class KeyEvent(BaseModel):
    """An event of the default view: everything but its participant list (hub events name a
    dozen people; a page of the stage, or the whole skeleton, lists them)."""

    id: str
    title: str
    chapter: int
    order: int
    place: str | None
    summary: str
    turning_point: bool
    sources: list[SourceView]


class StageDigest(BaseModel):
    title: str
    place: str | None = None
    chapters: list[int] = Field(description="chapters of all the stage's events and states")
    events: list[KeyEvent] = Field(description="its key events, in book order")
    other_events: int = Field(description="events of the stage not listed here (see `stage`)")
    states: list[StateView]


class JourneyDigest(BaseModel):
    """A journey's default view: stages with their key events; the other events counted."""

    person: PersonView
    events: int = Field(description="all events of the person")
    stages: list[StageDigest]


class StageEvents(BaseModel):
    """One page of a stage's events, in book order."""

    person: str = Field(description="person id")
    stage: int = Field(description="1-based stage number")
    title: str
    total: int = Field(description="events of the stage")
    offset: int
    limit: int
    events: list[EventView]


@dataclass(frozen=True)
class StoredJourney:
    """What a provider keeps per person: the rule's journey, its default view, and each stage's
    event ids (all of them, book order)."""

    journey: Journey
    digest: JourneyDigest
    stage_events: list[list[str]]


class BundleTimelines:
    """Every person's timeline, from one pass over the bundle (the rule's `TimelineSource`)."""

    def __init__(self, bundle: KnowledgeBundle) -> None:
        self.people = {p.id: p for p in bundle.people}
        self.events: dict[str, list[Event]] = defaultdict(list)
        self.states: dict[str, list[State]] = defaultdict(list)
        for event in sorted(bundle.events, key=lambda e: e.order):
            for person_id in dict.fromkeys(event.person_ids):
                self.events[person_id].append(event)
        for state in sorted(bundle.states, key=state_key):
            self.states[state.person].append(state)

    def timeline(self, person_id: str) -> Timeline:
        return Timeline(self.people[person_id], list(self.events.get(person_id, ())),
                        list(self.states.get(person_id, ())))


def build_journeys(bundle: KnowledgeBundle) -> dict[str, StoredJourney]:
    """Every person's journey, its default view and its stages' events."""
    timelines = BundleTimelines(bundle)
    return {person.id: store_journey(journey_of(timelines, person.id), person,
                                     timelines.events.get(person.id, []))
            for person in bundle.people}


def store_journey(journey: Journey, person: Person, events: Sequence[Event]) -> StoredJourney:
    members = stage_members(journey.stages, events)
    return StoredJourney(journey, digest_of(journey, person, [len(m) for m in members], len(events)),
                         members)


def stage_members(stages: Sequence[JourneyStage], events: Sequence[Event]) -> list[list[str]]:
    """Each stage's event ids in book order, every event of the person in exactly one stage.

    When the stages' counts (listed + `other_events`) add up to the person's events and cutting
    the events in book order by those counts puts every listed event in its own stage, the stages
    are consecutive arcs and that cut is exact. Otherwise (a rule whose stages interleave) an
    event the rule lists goes to the stage listing it; one it does not list to the stage whose
    chapters hold it (the earlier one when two do), else to the stage of the closest listed
    event before it."""
    ordered = sorted(events, key=lambda e: e.order)
    sizes = [len(stage.events) + stage.other_events for stage in stages]
    if sum(sizes) == len(ordered):
        cuts, start = [], 0
        for size in sizes:
            cuts.append([e.id for e in ordered[start:start + size]])
            start += size
        if all({e.id for e in stage.events} <= set(ids) for stage, ids in zip(stages, cuts,
                                                                                 strict=True)):
            return cuts
    members: list[list[str]] = [[] for _ in stages]
    if not stages:
        return members
    listed = {e.id: number for number, stage in enumerate(stages) for e in stage.events}
    chapters = [set(stage.chapters) for stage in stages]
    orders = sorted((e.order, listed[e.id]) for e in ordered if e.id in listed)
    for event in ordered:
        number = listed.get(event.id)
        if number is None:
            holding = [n for n, held in enumerate(chapters) if event.chapter in held]
            if holding:
                number = holding[0]
            else:
                before = bisect_right(orders, (event.order, len(stages))) - 1
                number = orders[before][1] if before >= 0 else 0
        members[number].append(event.id)
    return members


def key_events(events: Sequence[EventView], person: Person,
               limit: int = KEY_EVENTS) -> list[EventView]:
    """The stage's events as the rule lists them, or, when it lists more than `limit`, the
    turning points and the chapter titles' episodes, then those whose title names the person,
    then the earliest (book order)."""
    if len(events) <= limit:
        return list(events)
    names = [key for key in (to_simplified(n) for n in person.all_names) if len(key) >= 2]

    def importance(event: EventView) -> int:
        title = to_simplified(event.title)
        return 2 * event.turning_point + 2 * event.headline + any(name in title for name in names)

    ranked = sorted(events, key=lambda e: (-importance(e), e.order))
    return sorted(ranked[:limit], key=lambda e: e.order)


def digest_of(journey: Journey, person: Person, stage_sizes: Sequence[int], events: int
              ) -> JourneyDigest:
    """The default view: the rule's stages with their key events (the rule's own views, shared)."""
    stages = []
    for stage, size in zip(journey.stages, stage_sizes, strict=True):
        shown = key_events(stage.events, person)
        stages.append(StageDigest(
            title=stage.title, place=stage.place, chapters=stage.chapters,
            events=[KeyEvent.model_validate(e, from_attributes=True) for e in shown],
            other_events=size - len(shown), states=stage.states))
    return JourneyDigest(person=journey.person, events=events, stages=stages)


def page_of(person_id: str, journey: JourneyDigest, stage_events: Sequence[Sequence[str]],
            stage: int, offset: int, limit: int, read: EventReader) -> StageEvents:
    """A page of stage `stage` (1-based): `read` turns event ids into events."""
    if not 1 <= stage <= len(stage_events):
        raise NotFound(f"stage {stage} of {person_id!r}: the journey has "
                       f"{len(stage_events)} stages", [])
    if offset < 0 or not 1 <= limit <= MAX_PAGE_LIMIT:
        raise QueryRejected(f"offset must be ≥ 0 and limit between 1 and {MAX_PAGE_LIMIT}")
    ids = stage_events[stage - 1]
    chosen = list(ids[offset:offset + limit])
    found = read(chosen)
    return StageEvents(person=person_id, stage=stage, title=journey.stages[stage - 1].title,
                       total=len(ids), offset=offset, limit=limit,
                       events=[EventView.of(found[i]) for i in chosen if i in found])

