"""A person's journey skeleton, decided by the knowledge base before any LLM call.

The rule. Walk the person's events in book order (`Event.order`). An event opens a new stage when
1. it is the first event, or a turning point (`turning_point`): a turning point's stage is titled
   with the event's title;
2. else a `place` or `status` state of the person begins after the previous event's chapter and
   no later than this event's chapter: the stage is titled with that state's value (a place
   state before a status state, then by chapter and id); an extracted state whose value already
   opened a stage of the person opens none.
The first stage, unless it opens on a turning point, is titled like rule 2 with the states begun
by its chapter, else with the event's place, else its title. Places of single events (a tavern,
a temple) do not open stages: the knowledge base marks moves with place states and turning points.
A state opens stages when it is curated, or extracted with confidence ≥ `STAGE_CONFIDENCE` (the
offline extractor gives a place reached 0.6 and a place merely named 0.45).
3. else the story jumps: `CHAPTER_GAP` or more chapters lie between this event and the previous one,
   or the current stage has run `MAX_SPAN` chapters and this event starts a new chapter; the stage
   is titled with the event's place, else its title.
Then, so that stages stay meaningful on extracted data: a stage holding a single event that no
turning point or curated state opened merges into the stage before it (the first stage into the
next), and while there are more than `MAX_STAGES`, the smallest such stage merges likewise.
A stage's place is the value of the place state that opened it, else its first event's place.
Each state joins the stage holding the first event at or after the state's chapter; a
`status`/`place` state that begins after every event opens a last stage of its own; any other
late state joins the last stage. A stage lists its chapters (of events and states, ascending),
its events, its states and its source quotes (events' then states', each quote once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kb.knowledge.models import Event, Person, SourceRef, State
from kb.knowledge.views import (
    EventView,
    Journey,
    JourneyStage,
    PersonView,
    SourceView,
    StateView,
    Timeline,
    natural_key,
    state_key,
)

STAGE_KINDS = ("status", "place")
"""State kinds that can open a stage."""
STAGE_CONFIDENCE = 0.55
"""An extracted state opens a stage only from this confidence on."""
CHAPTER_GAP = 5
"""A jump of this many chapters between two events of the person opens a stage."""
MAX_SPAN = 10
"""A stage that has run this many chapters ends at the next chapter change (宋江's 祝家庄 stage
would otherwise run from chapter 47 to 76)."""
MAX_STAGES = 20
"""More stages than this are merged (smallest first): a reader follows about 5–20 stages."""



class TimelineSource(Protocol):
    """What `journey_of` needs of a provider (the full `RelationProvider` has it)."""

    def timeline(self, person_id: str) -> Timeline: ...


@dataclass
class _Stage:
    title: str
    place: str | None
    events: list[Event] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    firm: bool = False
    """opened by a turning point or a curated state: never merged away"""

    def absorb(self, other: _Stage) -> None:
        self.events = sorted([*self.events, *other.events], key=lambda e: e.order)
        self.states = [*self.states, *other.states]
        self.place = self.place or other.place

    def view(self) -> JourneyStage:
        chapters = sorted({e.chapter for e in self.events} | {s.chapter for s in self.states})
        return JourneyStage(title=self.title, place=self.place, chapters=chapters,
                            events=[EventView.of(e) for e in self.events],
                            states=[StateView.of(s) for s in self.states],
                            sources=_sources([*self.events, *self.states]))


def _sources(records: Sequence[Event | State]) -> list[SourceView]:
    seen: set[tuple[str | None, int | None, str]] = set()
    views = []
    for ref in (ref for record in records for ref in record.sources):
        key = _ref_key(ref)
        if key not in seen:
            seen.add(key)
            views.append(SourceView.of(ref))
    return views


def _ref_key(ref: SourceRef) -> tuple[str | None, int | None, str]:
    return (ref.chunk_id, ref.chapter, ref.quote)


def _opens(state: State) -> bool:
    return state.kind in STAGE_KINDS and (state.origin == "curated" or
                                          state.confidence >= STAGE_CONFIDENCE)


def _opening_state(states: Sequence[State], after: int, upto: int) -> State | None:
    opening = [s for s in states if _opens(s) and after < s.chapter <= upto]
    return min(opening, key=lambda s: (s.chapter, s.kind != "place", natural_key(s.id)),
               default=None)


def _stage_for(event: Event, opening: State | None) -> _Stage:
    if event.turning_point or opening is None:
        return _Stage(event.title if event.turning_point or not event.place else event.place,
                      event.place, firm=event.turning_point)
    return _Stage(opening.value, opening.value if opening.kind == "place" else event.place,
                  firm=opening.origin == "curated")


def _stages_from_events(events: Sequence[Event], states: Sequence[State]) -> list[_Stage]:
    stages: list[_Stage] = []
    previous_chapter = -1
    opened: set[str] = set()
    for event in events:
        opening = _opening_state(states, previous_chapter, event.chapter)
        if opening is not None and opening.origin != "curated" and opening.value in opened:
            opening = None  # 落草入伙 said again is no new stage
        if opening is not None:
            opened.add(opening.value)
        jump = previous_chapter >= 0 and event.chapter - previous_chapter >= CHAPTER_GAP
        long = bool(stages) and event.chapter != previous_chapter and \
            event.chapter - stages[-1].events[0].chapter >= MAX_SPAN
        if not stages or event.turning_point or opening is not None or jump or long:
            stages.append(_stage_for(event, opening))
        stage = stages[-1]
        stage.place = stage.place or event.place
        stage.events.append(event)
        previous_chapter = event.chapter
    return stages


def _place_state(state: State, stages: list[_Stage]) -> None:
    for stage in stages:
        if any(e.chapter >= state.chapter for e in stage.events):
            stage.states.append(state)
            return
    if _opens(state) or not stages:
        place = state.value if state.kind == "place" else None
        stages.append(_Stage(state.value, place, states=[state], firm=state.origin == "curated"))
    else:
        stages[-1].states.append(state)


def _merge_small(stages: list[_Stage]) -> list[_Stage]:
    """Single-event stages, then the smallest, merge into a neighbour (firm stages stay)."""
    stages = list(stages)
    while len(stages) > 1:
        loose = [i for i, s in enumerate(stages) if not s.firm]
        single = [i for i in loose if len(stages[i].events) <= 1]
        if single:
            index = single[0]
        elif len(stages) > MAX_STAGES and loose:
            index = min(loose, key=lambda i: (len(stages[i].events), i))
        else:
            break
        into = index - 1 if index > 0 else 1
        if into > index and not stages[into].firm:
            stages[into].title, stages[into].place = stages[index].title, stages[index].place
        stages[into].absorb(stages[index])
        del stages[index]
    return stages


def build_journey(person: Person, events: Sequence[Event], states: Sequence[State]) -> Journey:
    """Stages in book order for one person (see the module docstring for the rule)."""
    ordered_events = sorted(events, key=lambda e: e.order)
    ordered_states = sorted(states, key=state_key)
    stages = _stages_from_events(ordered_events, ordered_states)
    stages = _merge_small(stages)
    for state in ordered_states:
        _place_state(state, stages)
    return Journey(person=PersonView.of(person), stages=[stage.view() for stage in stages])


def journey_of(provider: TimelineSource, person_id: str) -> Journey:
    """The journey of a person held by a provider: one read, then the rule above."""
    return build_journey(*provider.timeline(person_id))
