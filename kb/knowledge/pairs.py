"""What a reader wants first of two people: where they met, and the shared events that matter.

The rule, over the pair's relations and shared events (book order). The shared events are the
scenes both are in and the scenes a relation of theirs cites (`Relation.events`) though one of
them is not on stage: 甲 beats 丙 on 乙's behalf — the relation's writer says it is part of their
story (`cited_events`).

- **First met**: the earliest of the relations' first sources and the first sources of the scenes
  both are in (by chapter, then the event's order): the passage where their story together
  begins. While the two share an event, a relation that is not a meeting does not count
  (`NOT_A_MEETING`): a tie that was there before the story (kin, a teacher, an old friend) is
  first *mentioned* chapters before the two are on stage together, a plan to recruit someone
  comes before the recruiter ever sees him, and comrades of one band (`ally`) are so from where
  the later of them joins it, a roster line, not a meeting. A hostility does count: a war or a
  persecution begins where it is declared, and the first scene the two share can be far later.
- **Key shared events** (at most `KEY_SHARED`): each event scores by `shared_score` — both named in
  its title 3 (one of them 1, neither −3: `UNNAMED`), an event that one of their relations cites
  (`Relation.events`) 3 (a cited scene one of them is not in, none: the citation brought it
  in), an event one of their profiles names (a clause of its title in the profile: the deeds
  the profile's writer chose to tell the person by) 3, an episode its chapter's
  title names (`headline`) 2, a turning point 2, a small scene (four people or fewer) 1. The first
  and the last shared event (how it began, how it ended) are always kept; the rest are taken
  greedily, the highest score first with a bonus for lying far (up to `SPREAD` chapters) from the
  events already kept, so that they spread over the book. They are listed in book order and the
  rest counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from core.text import to_simplified
from kb.knowledge.importance import named_in_profile, spread_pick
from kb.knowledge.models import Event, Person, Relation
from kb.knowledge.views import EventView, Pair, PersonView, RelationView, SourceView, relation_key

KEY_SHARED = 10
TEXT_KEY_SHARED = 16
TEXT_HEADLINE = 3
"""Two people discovered from the text alone (origin `extracted`) share many scenes titled by
their people (甲、乙同场), each naming both: their key events are more, and an episode the
chapter's 回目 names weighs this much more, the book's own choice of what matters (a curated
pair keeps the shorter listing)."""
SPREAD = 20
SPREAD_WEIGHT = 2.0
UNNAMED = -3
"""An event whose title names neither of the two and that no relation of theirs cites is a scene
they were both in (a battle, an assembly), not something between them: it is kept only when
nothing about them is left (two leaders share a hundred events; a third man's rescue is not one
of theirs)."""
NOT_A_MEETING = frozenset({"recruited", "ally", "parent_child", "siblings", "family", "in_law",
                           "father_in_law", "spouse", "master_disciple", "friend"})


def _names(person: Person) -> list[str]:
    return [k for k in {to_simplified(n) for n in person.all_names} if len(k) >= 2]


def shared_score(event: EventView, a: Sequence[str], b: Sequence[str],
                 linked: frozenset[str] = frozenset(), profiles: str = "") -> int:
    title = to_simplified(event.title)
    named = sum(1 for names in (a, b) if any(n in title for n in names))
    score = 3 if named == 2 else named if named else UNNAMED
    score += 3 if event.id in linked else 0
    score += 3 if named_in_profile(title, profiles) else 0
    score += 2 if event.turning_point else 0
    score += 2 if event.headline else 0
    score += 1 if len(event.participants) <= 4 else 0
    return score


def key_shared_events(events: Sequence[EventView], a: Person, b: Person,
                      relations: Sequence[RelationView] = (), limit: int = KEY_SHARED,
                      absent: frozenset[str] = frozenset()) -> list[EventView]:
    """The shared events that matter, spread over the book (rule in the module docstring);
    `absent`: the cited events one of them is not in, which the citation brought in and so
    does not weigh again."""
    text_built = a.origin == b.origin == "extracted"
    limit = max(limit, TEXT_KEY_SHARED) if text_built else limit
    if len(events) <= limit:
        return list(events)
    names_a, names_b = _names(a), _names(b)
    linked = frozenset(eid for r in relations for eid in r.events) - absent
    profiles = to_simplified(f"{a.profile}\n{b.profile}")
    bonus = TEXT_HEADLINE if text_built else 0
    scores = [shared_score(e, names_a, names_b, linked, profiles) + bonus * e.headline
              for e in events]
    chosen = spread_pick([e.chapter for e in events], scores, limit, SPREAD, SPREAD_WEIGHT,
                         keep=(0, len(events) - 1))
    return [events[i] for i in chosen]


def first_met(relations: Sequence[RelationView], events: Sequence[EventView]
              ) -> SourceView | None:
    """The earliest passage of the pair's story: a relation's first source or a shared event's
    (a tie that is not a meeting only when they share no event)."""
    candidates: list[tuple[int, int, SourceView]] = []
    for r in relations:
        if events and r.type in NOT_A_MEETING:
            continue
        if r.sources and r.sources[0].chapter is not None:
            candidates.append((r.sources[0].chapter, 0, r.sources[0]))
    for e in events:
        if e.sources:
            candidates.append((e.chapter, e.order, e.sources[0]))
    return min(candidates, key=lambda c: (c[0], c[1]))[2] if candidates else None


def cited_events(relations: Iterable[Relation], event: Callable[[str], Event | None]
                 ) -> list[Event]:
    """The events a pair's relations cite (`Relation.events`): 甲 beats 丙 on 乙's behalf, 甲 pays
    乙's debt to 丙 — the relation's writer says the scene is theirs, though 乙 is not on stage."""
    found = {eid: e for r in relations for eid in r.events if (e := event(eid)) is not None}
    return list(found.values())


def build_pair(a: Person, b: Person, relations: Iterable[Relation], events: Iterable[Event],
               cited: Iterable[Event] = ()) -> Pair:
    """The pair view every provider answers: relations by first chapter, shared events in book
    order — those both are in and those their relations cite (`cited_events`) —, where they met
    (a scene both are in) and the key shared events."""
    rels = [RelationView.of(r) for r in sorted(relations, key=relation_key)]
    both = {e.id: e for e in events}
    story = {**{e.id: e for e in cited}, **both}
    shared = [EventView.of(e) for e in sorted(story.values(), key=lambda e: e.order)]
    absent = frozenset(story) - frozenset(both)
    return Pair(a=PersonView.of(a), b=PersonView.of(b), relations=rels, shared_events=shared,
                first_met=first_met(rels, [e for e in shared if e.id in both]),
                key_events=[e.id for e in key_shared_events(shared, a, b, rels, absent=absent)],
                cited_only=[e.id for e in shared if e.id in absent])
