"""Answers about one person that are lists of their records: their weapons, what they own of the
asked kind, one attribute from their profile, the deeds of an asked act, their scenes at a place,
in a named campaign or after joining a band — each in book order, the ones that matter spread
over the rest when there are many (`scenes_that_matter`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.text import to_simplified
from ingest.chunking import chunk_id as block_id_of
from kb.answering.attributes import NAMELESS, is_roster, telling_clauses
from kb.answering.drafting import (
    Ctx,
    Draft,
    Writer,
    asked_acts,
    headline_names,
    record_quote,
    role_form_chars,
    scene_item,
    short,
)
from kb.answering.joining import joined_at
from kb.answering.quotes import sentence_pairs
from kb.answering.weapons import weapon_states
from kb.knowledge.importance import spread_pick
from kb.knowledge.journey import event_score
from kb.knowledge.language import language
from kb.knowledge.models import Event, Person, State
from kb.knowledge.profile import Arc


def compose_after_band(ctx: Ctx) -> Draft | None:
    """甲上某山以后做了什么: where they joined (`joined_at`), then their scenes after it, the ones
    that matter spread over the rest of the book; None when their records hold no such joining."""
    person_id = ctx.plan.person_ids[0]
    timeline = ctx.g.timelines.get(person_id)
    joined = joined_at(timeline, ctx.plan.detail.after_band or "") if timeline else None
    if timeline is None or joined is None:
        return None
    later = [e for e in timeline.events if ctx.book.told(e) and (
        e.order > joined.order if isinstance(joined, Event) else e.chapter > joined.chapter)]
    if not later:
        return None
    what = joined.value if isinstance(joined, State) else joined.title
    return compose_deeds(ctx, person_id, later,
                         ctx.say("after_band.lead", chapter=joined.chapter, what=what))


def scenes_at_place(ctx: Ctx, person_id: str) -> list[Event]:
    """甲在某地做了什么: the person's events whose place holds every word the question asks
    about (the question's only content is the place), in book order."""
    timeline = ctx.g.timelines.get(person_id)
    focus = ctx.plan.focus
    if timeline is None or not focus:
        return []
    return [e for e in timeline.events if ctx.book.told(e)
            and all(f in to_simplified(e.place or "") for f in focus)]


def asked_deeds(ctx: Ctx, person_id: str) -> list[Event]:
    """甲偷了什么: the question holds only a one-character act; the person's events whose title
    holds it (or the book's word for it: 偷 → 盗) and names the person, else those where the
    person's own role holds it."""
    timeline = ctx.g.timelines.get(person_id)
    acts = asked_acts(ctx) - role_form_chars()
    if timeline is None or not acts:
        return []
    names = [n for n in map(to_simplified, ctx.all_names) if len(n) >= 2]
    titled = [e for e in timeline.events if acts & set(e.title) and headline_names(e, names)]
    return titled or [e for e in timeline.events if any(
        p.person == person_id and acts & set(p.role) for p in e.participants)]


def owned_things(ctx: Ctx, person_id: str) -> list[State]:
    """The person's possessions whose value holds a character of the question's content (马 of
    甲的马叫什么 in 踢雪乌骓马, 法 of 会什么法术 in 甲马（神行法）), in book order, when that content
    is no more than the thing's kind (`MAX_OWNED_CHARS`)."""
    timeline = ctx.g.timelines.get(person_id)
    asked = asked_acts(ctx) - role_form_chars() - frozenset(language().chars.owning)
    if timeline is None or not asked or len(asked) > MAX_OWNED_CHARS:
        return []  # 最喜欢吃什么水果 is no possession of the person
    return [s for s in timeline.states
            if s.kind == "possession" and asked & set(to_simplified(s.value))]


MAX_OWNED_CHARS = 2
"""A question about a possession says little besides the thing's kind (马, 法术)."""


def compose_owned(ctx: Ctx, person_id: str, owned: Sequence[State]) -> Draft:
    """What the person has of the asked kind, each with its chapter, then each state's account."""
    w = Writer()
    said = ctx.say("sep.items").join(ctx.say("owned.one", value=s.value, chapter=s.chapter)
                                     for s in owned)
    w.add(ctx.say("owned.lead", name=ctx.name(person_id), said=said))
    for state in owned:
        w.add(_state_item(ctx, state), record_quote(state))
    return w.draft()


def compose_in_arc(ctx: Ctx, arc: Arc, person_id: str) -> Draft | None:
    """The person's scenes in the campaign the question names, those of the asked act when the
    question holds one (`asked_deeds`); None when the records hold none of theirs there."""
    timeline = ctx.g.timelines.get(person_id)
    events = asked_deeds(ctx, person_id) or (list(timeline.events) if timeline else [])
    if not events:
        return None
    return compose_deeds(ctx, person_id, events,
                         f"{arc.when}，")


def compose_weapons(ctx: Ctx) -> Draft:
    """Each named person's weapons (`weapon_states`) in book order, each with where the book shows
    it; a person without one is said to have none on record."""
    w = Writer()
    missing = []
    for person_id in ctx.plan.person_ids[:2]:
        timeline = ctx.g.timelines.get(person_id)
        arms = weapon_states(timeline.states) if timeline else []
        name = ctx.name(person_id)
        if not arms:
            missing.append(name)
            continue
        said = ctx.say("sep.items").join(ctx.say("owned.one", value=s.value, chapter=s.chapter)
                                         for s in arms)
        w.add(ctx.say("weapon.lead", name=name, said=said))
        for state in arms:
            w.add(_state_item(ctx, state), record_quote(state))
    names = ctx.say("sep.list").join(missing)
    if not w.lines:
        return Draft("insufficient", "", ctx.say("weapon.none", names=names))
    if missing:
        w.add(ctx.say("weapon.missing", names=names))
    return w.draft()


def _state_item(ctx: Ctx, state: State) -> str:
    return ctx.say("state.item", chapter=state.chapter, told=short(state.description, 90))


def compose_deeds(ctx: Ctx, person_id: str, deeds: Sequence[Event], lead: str = "") -> Draft:
    """What the person did of the asked kind (or at the asked place, in the asked campaign: `lead`
    says which), in book order: every time the book tells it, or, beyond `MAX_DEEDS`, the ones
    that matter most spread over them (`scenes_that_matter`) and the rest counted."""
    shown = scenes_that_matter(ctx, person_id, deeds)
    w = Writer()
    said = ctx.say("sep.items").join(ctx.say("scene", chapter=e.chapter, title=e.title)
                                     for e in shown)
    more = ctx.say("deeds.more", n=len(deeds) - len(shown)) if len(deeds) > len(shown) else ""
    w.add(ctx.say("deeds.lead", lead=lead, name=ctx.name(person_id), said=said, more=more))
    for event in shown:
        w.add(scene_item(ctx, event), record_quote(event))
    return w.draft()


def scenes_that_matter(ctx: Ctx, person_id: str, events: Sequence[Event]) -> list[Event]:
    """At most `MAX_DEEDS` of the events, in book order: all of them when few, else the ones that
    matter most to the person (`event_score`, as a journey weighs them) spread over them."""
    if len(events) <= MAX_DEEDS:
        return list(events)
    person = ctx.people.people[person_id]
    names = [n for n in map(to_simplified, person.all_names) if len(n) >= 2]
    picked = spread_pick([e.chapter for e in events],
                         [event_score(e, person_id, names, person.profile) for e in events],
                         MAX_DEEDS, DEEDS_SPREAD, 1.0)
    return [events[i] for i in picked]


DEEDS_SPREAD = 3
"""Chapters apart at which two told scenes no longer crowd each other."""
MAX_DEEDS = 6


def compose_attribute(ctx: Ctx) -> Draft | None:
    """One attribute of a person (kb.answering.attributes): the profile clauses that tell it,
    then the passages the person's record comes from; None when the question asks none or the
    profile does not tell it."""
    attribute = ctx.plan.detail.attribute
    if attribute is None:
        return None
    person = ctx.people.people[ctx.plan.person_ids[0]]
    clauses = telling_clauses([person.profile], attribute, ctx.book.profile.roster_marks)
    introduced = introduction(ctx, person, attribute)
    if not clauses and not introduced:
        return None  # the records and passages may still tell it
    w = Writer()
    if clauses:
        w.add(ctx.say("attribute.lead", name=ctx.name(person.id),
                      clauses=ctx.say("sep.clauses").join(clauses)))
        introduced = introduced[:1]
    else:
        w.add(ctx.say("attribute.said", name=ctx.name(person.id)), introduced[0])
        introduced = introduced[1:]
    for quote in introduced:
        w.add(ctx.say("passage.item"), quote)
    told = [q for q, _ in w.quotes]
    for ref in [r for r in person.sources if r.chunk_id
                and not any(r.quote in t for t in told)][:2 - len(introduced)]:
        w.add(ctx.say("item"), (ref.quote, ref.chunk_id or ""))
    return w.draft()


INTRODUCTION_BLOCKS = (-1, 0, 1)
"""The blocks read for a person's description, around the one that first names them (a man is
often described just before the passage gives his name)."""
DESCRIBED_BEFORE = 14
"""A description that names no one (那官人生得…, often a verse) is theirs when a sentence that
names them follows within this many sentences: the book describes a man, then names him."""


def introduction(ctx: Ctx, person: Person, attribute: str) -> list[tuple[str, str]]:
    """Up to two sentences, in text order, of the passage that introduces the person
    (`INTRODUCTION_BLOCKS` around their first source) that tell the attribute and name them, or,
    for looks, come shortly before one that names them (`DESCRIBED_BEFORE`)."""
    first = next((r for r in person.sources if r.chunk_id), None)
    block = ctx.block_of(first.chunk_id) if first and first.chunk_id else None
    if block is None:
        return []
    said: list[tuple[str, str, str]] = []  # (written, simplified, block id) in text order
    for offset in INTRODUCTION_BLOCKS:
        current = ctx.block_of(block_id_of(block.chapter, block.index + offset))
        if current is not None:
            said += [(w, s, current.id) for w, s in sentence_pairs(current.text)]
    names = [n for n in map(to_simplified, person.all_names) if len(n) >= 2]
    naming = [i for i, (_, s, _) in enumerate(said) if any(n in s for n in names)]
    marks = language().attribute_marks[attribute]
    roster = ctx.book.profile.roster_marks
    found: list[tuple[str, str]] = []
    for i, (written, simplified, chunk) in enumerate(said):
        if not marks.search(simplified) or is_roster(simplified, roster):
            continue
        named_after = [j - i for j in naming if j >= i]
        if i in naming or attribute in NAMELESS and named_after \
                and min(named_after) <= DESCRIBED_BEFORE:
            found.append((written, chunk))
    return found[:2]


