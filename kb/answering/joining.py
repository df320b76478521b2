"""How someone came to a band (甲是怎么上某山的, 甲为什么落草): where they joined and the road there.

- **Where they joined**: the person's first status state whose value says so (`join_marks`:
  入伙, 落草, 归顺 …) and, when the question names the band's place (某山, 某泊), names it too; else
  the first event of theirs whose title says so. A question naming a place that none of their
  records joins is not answered this way (上某山出家 is not joining a band).
- **The road**: up to `MAX_STEPS` of the turning points and chapter-title episodes they are in
  before it (not the joining's own scene), scored as a journey scores them (`event_score`) with
  a bonus near the joining, the last always kept (what brought them there in the end), the rest
  spread over the road (`spread_pick`): the first wrong done to them as well as the last push.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.text import to_simplified
from kb.knowledge.importance import spread_pick
from kb.knowledge.journey import event_score
from kb.knowledge.language import language
from kb.knowledge.models import Event, State
from kb.knowledge.views import Timeline

MAX_STEPS = 6
RECENT = 2
RECENT_BONUS = 2
"""Steps within `RECENT` chapters of the joining weigh more: the last push is what a reader asks
about first (the rescue just before 甲 goes up the mountain); the first wrong, chapters before
(the killing that set him on the road), is kept by the spread."""
SPREAD = 10
SPREAD_WEIGHT = 2.0


def _says_joining(text: str) -> bool:
    """The (simplified) value or title says someone joined a band (入伙, 落草, 归顺 …)."""
    return any(m in text for m in language().words_of("join_marks"))


def _place_key(place: str) -> str:
    """The place as records write it: 某山泊 is also written 某山."""
    return place.rstrip(language().chars.band_place_ends) if len(place) > 2 else place


def _names_place(text: str, place: str) -> bool:
    return not place or _place_key(place) in to_simplified(text)


@dataclass(frozen=True)
class Road:
    joined: State | Event
    steps: list[Event]


def joined_at(timeline: Timeline, place: str) -> State | Event | None:
    """Where the person joined the asked band (rule in the module docstring)."""
    for state in sorted(timeline.states, key=lambda s: s.chapter):
        value = to_simplified(state.value)
        if state.kind == "status" and _says_joining(value) \
                and _names_place(f"{state.value}{state.description}", place):
            return state
    for event in timeline.events:
        title = to_simplified(event.title)
        if _says_joining(title) and _names_place(event.title, place):
            return event
    return None


def _is_the_joining(event: Event, joined: State | Event, place: str) -> bool:
    """The event that tells the joining itself (甲上某山坐第二位): not a step towards it."""
    title = to_simplified(event.title)
    key = _place_key(place)
    return event.chapter == joined.chapter and (
        _says_joining(title) or bool(key) and f"{language().chars.go_up}{key}" in title)


def road_to_band(timeline: Timeline, place: str) -> Road | None:
    """Where they joined and the events that led there, in book order."""
    joined = joined_at(timeline, place)
    if joined is None:
        return None
    person = timeline.person
    names = [k for k in {to_simplified(n) for n in person.all_names} if len(k) >= 2]
    profile = to_simplified(person.profile)
    quotes = {s.quote for s in joined.sources}
    before = [e for e in timeline.events
              if (e.order < joined.order if isinstance(joined, Event) else
                  e.chapter <= joined.chapter)
              and (e.turning_point or e.headline)
              and not quotes & {s.quote for s in e.sources}
              and not _is_the_joining(e, joined, place)]
    if not before:
        return Road(joined, [])
    scores = [event_score(e, person.id, names, profile)
              + (RECENT_BONUS if joined.chapter - e.chapter <= RECENT else 0) for e in before]
    picked = spread_pick([e.chapter for e in before], scores, MAX_STEPS, SPREAD, SPREAD_WEIGHT,
                         keep=(len(before) - 1,))
    return Road(joined, [before[i] for i in picked])
