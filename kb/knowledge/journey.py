"""A person's journey skeleton: the arcs of their story in book order, decided by the knowledge
base before any LLM call.

The rule, over the person's events in book order (`Event.order`) and states by chapter:

1. **Importance.** An event matters to the person by `event_score`: their name or an alias in its
   title (it is about them) 3, a deed their profile names (`named_in_profile`) 2, an episode its
   chapter's title names (`Event.headline`) 2, a turning point 2, the person listed first among
   the participants 1, a small scene (three people or fewer) 1.
2. **The end.** The person's death (`genre.is_death`: a status state the genre's death words
   tell; the last, when several), else their last `status` or `title` state when it begins at or
   after their last event's chapter, opens the last stage (death, departure, the last office):
   the end of the story is always its own stage, titled by the event that tells the death (of
   its chapter, citing the death's block) and listing it, else listing the person's last event
   (the last act: a journey reaches it, however many stages come before). The dead act no more:
   events after the death's chapter (a ghost, a funeral, a name recalled) are not told; the end
   stage counts them among its other events (so paging a stage still pages every event), and
   its chapters end at the death.
3. **Arcs.** Every other event may open a stage with a strength: a turning point about the person
   6 (a turning point only 2, an event about them only 1); a jump of `CHAPTER_GAP` or more
   chapters since their previous event 2 (of two or more, 1); a `status` or `place` state that
   begins since their previous event 2. Openings of strength ≥ `MIN_OPENING` are taken greedily,
   the strongest first counting a bonus for lying far from the openings already taken (`SPREAD`),
   at most one per chapter, until there are `MAX_STAGES` stages.
   An arc none of whose events is about the person joins the arc before it.
4. **Titles.** A stage is titled by its most important event (ties: the earliest), so it says
   what happens; a stage of states alone by the first state's value. It lists its key events (at
   most `KEY_EVENTS`: the most important, spread over the arc's chapters, in book order) and
   counts the rest.
5. **States** join the stage that holds their chapter (states before the first event join the
   first stage). A stage lists its chapters (of all its events and states), and the source
   quotes of its key events, then of its states, each quote once.

Every step is linear in events + states (the greedy choice looks at each candidate at most
`MAX_STAGES` times).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.text import to_simplified
from kb.knowledge.genre import is_death
from kb.knowledge.importance import named_in_profile, spread_pick
from kb.knowledge.models import Event, Person, SourceRef, State
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

MAX_STAGES = 12
"""A reader follows a life in about a dozen arcs, the busiest hero's included."""
KEY_EVENTS = 5
"""Events listed per stage; the rest are counted."""
TEXT_MAX_STAGES = 16
TEXT_KEY_EVENTS = 12
"""A person discovered from the text alone (origin `extracted`) has many small scene events and
no curated digest: their arcs are longer and list more events, so that the 回目's headline
episodes within an arc are not crowded out by scenes (a curated person keeps the shorter view)."""
TEXT_HEADLINE = 3
"""Added to a text-built person's headline event (an episode its chapter's 回目 names): a scene
extracted from the text is titled by its people (甲、乙同场), so it names the person as a 回目
episode (丙设宴论天下) may not; the 回目 is the book's own choice of what matters."""
CHAPTER_GAP = 5
"""A jump of this many chapters between two of the person's events is a strong opening."""
MIN_OPENING = 2
"""Weaker openings never start a stage."""
ABOUT = 3
"""An event scoring this much names the person in its title: it is about them."""
SPREAD = 20
SPREAD_WEIGHT = 2.0
"""An opening far (up to `SPREAD` chapters) from the stages already chosen gains up to
`SPREAD_WEIGHT`: arcs spread over the whole story instead of crowding its busiest chapters."""
OPENING_KINDS = ("status", "place")
END_KINDS = ("status", "title")


class TimelineSource(Protocol):
    """What `journey_of` needs of a provider (the full `RelationProvider` has it)."""

    def timeline(self, person_id: str) -> Timeline: ...


def _name_keys(person: Person) -> list[str]:
    return [k for k in {to_simplified(n) for n in person.all_names} if len(k) >= 2]


def event_score(event: Event, person_id: str, names: Sequence[str], profile: str = "") -> int:
    """How much an event matters to the person (rule 1)."""
    title = to_simplified(event.title)
    score = 3 if any(n in title for n in names) else 0
    score += 2 if named_in_profile(title, profile) else 0
    score += 2 if event.headline else 0
    score += 2 if event.turning_point else 0
    score += 1 if event.participants and event.participants[0].person == person_id else 0
    score += 1 if len(event.participants) <= 3 else 0
    return score


def _opening_strength(event: Event, previous: Event | None, about: bool, moved: bool) -> int:
    """How strongly an event opens a new arc (rule 3)."""
    if previous is None:
        return 0
    strength = (6 if event.turning_point and about else 2 if event.turning_point
                else 1 if about else 0)
    gap = event.chapter - previous.chapter
    strength += 2 if gap >= CHAPTER_GAP else 1 if gap >= 2 else 0
    strength += 2 if moved else 0
    return strength


@dataclass
class _Arc:
    events: list[Event] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    told: int | None = None
    """the event that tells the person's death (the end stage's title, always listed)"""
    after: int = 0
    """events after the death, which the end stage counts among its others but does not tell"""

    def view(self, last: bool = False, listed: int = KEY_EVENTS) -> JourneyStage:
        """The stage; the last stage always lists the person's last event (their last act)."""
        chapters = sorted({e.chapter for e in self.events} | {s.chapter for s in self.states})
        ranked = sorted(range(len(self.events)), key=lambda i: (-self.scores[i], i))
        if self.told is not None:
            ranked.insert(0, self.told)
        events = [self.events[i]
                  for i in _key_events(self.events, self.scores, last, self.told, listed)]
        if events:
            top = self.events[ranked[0]]
            title, place = top.title, top.place or next(
                (e.place for e in self.events if e.place), None)
        else:
            first = self.states[0]
            title, place = first.value, first.value if first.kind == "place" else None
        return JourneyStage(title=title, place=place, chapters=chapters,
                            events=[EventView.of(e) for e in events],
                            other_events=len(self.events) - len(events) + self.after,
                            states=[StateView.of(s) for s in self.states],
                            sources=_sources([*events, *self.states]))


def _key_events(events: Sequence[Event], scores: Sequence[int], last: bool = False,
                told: int | None = None, listed: int = KEY_EVENTS) -> list[int]:
    """Indexes of the arc's key events in book order: the most important first, each next one
    gaining up to 1 for lying chapters away from those taken (an arc of ten chapters lists its
    episodes, not five scenes of its first chapter); kept always: the event telling the death
    (`told`), else, for the `last` arc, its last event (the last act)."""
    if len(events) <= listed:
        return list(range(len(events)))
    keep = (told,) if told is not None else (len(events) - 1,) if last else ()
    return spread_pick([e.chapter for e in events], scores, listed, spread=3, weight=1.0,
                       keep=keep)


def _end_chapter(events: Sequence[Event], states: Sequence[State]) -> int | None:
    """The chapter of the person's end (rule 2): their (last) death, else their last status or
    title when it lies at or after their last event."""
    deaths = [s.chapter for s in states if is_death(s)]
    if deaths:
        return max(deaths)
    ends = [s.chapter for s in states if s.kind in END_KINDS]
    if not ends:
        return None
    last = max(ends)
    return last if not events or last >= events[-1].chapter else None


def _openings(events: Sequence[Event], scores: Sequence[int], states: Sequence[State],
              names: Sequence[str], limit: int) -> list[int]:
    """Indexes of the events that open stages (rule 3), the first event always."""
    moves = sorted({s.chapter for s in states if s.kind in OPENING_KINDS})
    candidates = []
    move_at = 0
    for i, event in enumerate(events):
        previous = events[i - 1] if i else None
        moved = False
        while move_at < len(moves) and moves[move_at] <= event.chapter:
            moved = moved or (previous is not None and moves[move_at] > previous.chapter)
            move_at += 1
        about = scores[i] >= 3 and any(n in to_simplified(event.title) for n in names)
        strength = _opening_strength(event, previous, about, moved)
        if strength >= MIN_OPENING:
            gap = event.chapter - previous.chapter if previous else 0
            candidates.append((strength, gap, i))
    chosen: list[int] = [0] if events else []
    used = {events[0].chapter} if events else set()
    left = [c for c in candidates if c[2] not in chosen]
    while left and len(chosen) < limit:
        def spread(c: tuple[int, int, int]) -> tuple[float, int, int]:
            far = min(abs(events[c[2]].chapter - events[j].chapter) for j in chosen)
            return (c[0] + min(far, SPREAD) / SPREAD * SPREAD_WEIGHT, c[1], -c[2])

        best = max(left, key=spread)
        left.remove(best)
        if events[best[2]].chapter not in used:
            chosen.append(best[2])
            used.add(events[best[2]].chapter)
    return sorted(chosen)


def build_journey(person: Person, events: Sequence[Event], states: Sequence[State]) -> Journey:
    """Stages in book order for one person (see the module docstring for the rule)."""
    ordered_states = sorted(states, key=state_key)
    death = _death(ordered_states)
    everything = sorted(events, key=lambda e: e.order)
    ordered = [e for e in everything if death is None or e.chapter <= death.chapter]
    posthumous = len(everything) - len(ordered)  # the dead act no more: counted, not told
    names = _name_keys(person)
    end = _end_chapter(ordered, ordered_states)
    body = [e for e in ordered if end is None or e.chapter < end]
    tail = [e for e in ordered if end is not None and e.chapter >= end]
    profile = to_simplified(person.profile)
    text_built = person.origin == "extracted"
    bonus = TEXT_HEADLINE if text_built else 0
    scores = [event_score(e, person.id, names, profile) + bonus * e.headline for e in body]
    stages, listed = (TEXT_MAX_STAGES, TEXT_KEY_EVENTS) if text_built else (MAX_STAGES, KEY_EVENTS)
    arcs: list[_Arc] = []
    if body:
        starts = _openings(body, scores, ordered_states, names,
                           stages - (1 if end is not None else 0))
        bounds = [*starts, len(body)]
        arcs = _fold_strays([_Arc(body[a:b], scores[a:b])
                             for a, b in zip(bounds, bounds[1:], strict=False)])
    if end is not None:
        arcs.append(_Arc(tail, [event_score(e, person.id, names, profile) + bonus * e.headline
                                for e in tail],
                         told=_telling(tail, death), after=posthumous))
    _place_states(arcs, ordered_states, end)
    kept = [arc for arc in arcs if arc.events or arc.states]
    return Journey(person=PersonView.of(person),
                   stages=[arc.view(last=n == len(kept) - 1, listed=listed)
                           for n, arc in enumerate(kept)])


def _death(states: Sequence[State]) -> State | None:
    """The person's (last) death, if the records tell one."""
    deaths = [s for s in states if is_death(s)]
    return deaths[-1] if deaths else None


def _telling(events: Sequence[Event], death: State | None) -> int | None:
    """Index of the event that tells the death: of the death's chapter, one citing a block the
    death's quote is in — the one whose quote overlaps the death's first, then a headline —,
    else None."""
    if death is None:
        return None
    blocks = {ref.chunk_id for ref in death.sources if ref.chunk_id}
    telling = [i for i, e in enumerate(events) if e.chapter == death.chapter
               and blocks & {ref.chunk_id for ref in e.sources}]

    def rank(i: int) -> tuple[bool, bool, int]:
        same = any(_overlaps(a, b) for a in events[i].sources for b in death.sources)
        return (not same, not events[i].headline, i)

    return min(telling, key=rank) if telling else None


def _overlaps(a: SourceRef, b: SourceRef) -> bool:
    if a.chunk_id != b.chunk_id:
        return False
    if None not in (a.start, a.end, b.start, b.end):
        return a.start < b.end and b.start < a.end  # type: ignore[operator]
    x, y = to_simplified(a.quote), to_simplified(b.quote)
    return x in y or y in x


def _fold_strays(arcs: list[_Arc]) -> list[_Arc]:
    """An arc none of whose events is about the person (their name in no title) says nothing of
    their story: it joins the arc before it."""
    folded: list[_Arc] = []
    for arc in arcs:
        if folded and max(arc.scores, default=0) < ABOUT:
            folded[-1].events += arc.events
            folded[-1].scores += arc.scores
        else:
            folded.append(arc)
    return folded


def _place_states(arcs: list[_Arc], states: Sequence[State], end: int | None) -> None:
    """Each state joins the stage holding its chapter (rule 5)."""
    if not arcs:
        if states:
            arcs.append(_Arc(states=list(states)))
        return
    firsts = [min((e.chapter for e in a.events), default=end or 0) for a in arcs]
    for state in states:
        at = 0
        for i, first in enumerate(firsts):
            if first <= state.chapter:
                at = i
        if end is not None and state.chapter >= end:
            at = len(arcs) - 1
        arcs[at].states.append(state)


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



def journey_of(provider: TimelineSource, person_id: str) -> Journey:
    """The journey of a person held by a provider: one read, then the rule above."""
    return build_journey(*provider.timeline(person_id))
