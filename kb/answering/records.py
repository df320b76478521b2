"""Readings of one record that several answers make: who was acted on in it, whether a role is
the one suffered, its headline and place, the record as one line, the records as good as the
best, the event in which someone did the asked act, the events before it."""

from __future__ import annotations

from collections.abc import Sequence

from kb.answering.compose_pair import CAUSE_CHAPTERS, CAUSE_EVENTS
from kb.answering.coverage import Coverage, _forms
from kb.answering.drafting import Ctx, asked_acts, bigrams, short
from kb.knowledge.language import language
from kb.knowledge.models import Event, Record, Relation, State

LINE_CHARS = 45
"""How much of a record's account a supporting line tells."""


def acted_on(record: Record, about: set[str]) -> bool:
    """The named people are the ones acted on in the record (for 被谁 questions): the target of
    a directed relation, a participant with a patient role; other records are not excluded."""
    if isinstance(record, Relation) and record.directed:
        return record.target in about
    if isinstance(record, Event):
        return any(is_patient(p.role) for p in record.participants if p.person in about)
    return True


def is_patient(role: str) -> bool:
    """A participant role of someone acted on (被擒者, 受害者, 受伤者, 败者, 败逃者, 死者)."""
    lang = language()
    return role.startswith(lang.words_of("patient_start")) or role.endswith(
        lang.words_of("patient_end"))


def suffered(role: str, acts: set[str]) -> bool:
    """The participant is the one the act was done to: a kill's dead (死者, 阵亡者), else a
    patient whose role names the act (被救者 for 救), not whoever else was in the scene."""
    lang = language()
    if acts & set(lang.chars.killing):
        return any(m in role for m in lang.words_of("dead_role"))
    return is_patient(role) and bool(acts & set(role))


def record_line(ctx: Ctx, record: Record, chars: int = 0) -> str:
    """The record as one line; `chars` of its account (a supporting line's `LINE_CHARS` unless
    told)."""
    chars = chars or LINE_CHARS
    if isinstance(record, Event):
        place = ctx.say("line.place", place=record.place) if record.place else ""
        return ctx.say("line.event", chapter=record.chapter, title=record.title, place=place,
                       told=short(record.summary, chars))
    if isinstance(record, Relation):
        arrow = ctx.say("arrow.directed" if record.directed else "arrow.both")
        return ctx.say("line.relation", source=ctx.name(record.source), arrow=arrow,
                       target=ctx.name(record.target), label=ctx.label(record.type, record.label),
                       told=short(record.description, chars))
    if isinstance(record, State):
        return ctx.say("line.state", name=ctx.name(record.person), chapter=record.chapter,
                       value=record.value, told=short(record.description, chars))
    return short(ctx.render(record), chars)


def headline_holds(record: Record, focus: Sequence[str]) -> bool:
    """The record's headline (an event's title, a state's value, a relation's label) holds a
    content word of the question (a bigram of it: 刺配到 → 刺配): the record is about that act,
    not a mention of it."""
    headline = (record.title if isinstance(record, Event) else record.value
                if isinstance(record, State) else record.label if isinstance(record, Relation)
                else "")
    return any(b in headline for b in bigrams(focus))


def place_of(record: Record | None) -> str | None:
    if isinstance(record, Event):
        return record.place
    if isinstance(record, State) and record.kind == "place":
        return record.value
    return None


CLOSE_COVERAGE = 0.8
"""Records within this share of the best coverage are equally good accounts of the scene."""


def close_records(ctx: Ctx, weights: dict[str, float], records: Sequence[Record],
                   best: float) -> list[Record]:
    """The records that cover the question almost as well as the best one, in their order."""
    covered = Coverage(weights, {t: _forms(t, ctx.book.profile.wordings) for t in weights})
    return [r for r in records if covered(ctx.render(r)) >= CLOSE_COVERAGE * best]


def actor_record(ctx: Ctx, records: Sequence[Record]) -> Event | None:
    """For 甲被谁V: the event in which the named person is acted on and someone else's role
    names the asked act (被谁射死 → 射箭者, 被谁活捉 → 活捉者); for 谁V了X, among the records
    that tell the scene about equally well, the one whose actor's role names the act (打虎者,
    not the 离去者 of the walk up the hill). The book and the records word the
    outcome differently (中箭, 身亡), the actor's role keeps the verb; the record that covers the
    question's words best may name no one acting (the dying man's last words)."""
    acts = asked_acts(ctx)
    named = set(ctx.plan.person_ids)
    if not acts or (ctx.plan.detail.passive and not named):
        return None
    for record in records:
        if isinstance(record, Event) and any(
                p.person not in named and not is_patient(p.role) and acts & set(p.role)
                for p in record.participants):
            return record
    return None


def events_before(ctx: Ctx, record: Record) -> list[Event]:
    """The named people's events just before the asked one (within `CAUSE_CHAPTERS`)."""
    if not isinstance(record, Event):
        return []
    before: dict[str, Event] = {}
    for timeline in ctx.g.timelines.values():
        for event in timeline.events:
            if event.order < record.order and record.chapter - event.chapter <= CAUSE_CHAPTERS:
                before[event.id] = event
    ordered = sorted(before.values(), key=lambda e: e.order)
    return ordered[-CAUSE_EVENTS:]
