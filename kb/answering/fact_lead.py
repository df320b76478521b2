"""The first sentence of a fact answer, which says what was asked: who → the names (an event's
participants by role, else the people a sentence names); where → the place; when / which chapter
→ 第N回; how many → the number as the book gives it; a name → the name beside the role; made of
→ the sentence that says it; why → the cause, the record's own account; else the record."""

from __future__ import annotations

from collections.abc import Sequence

from kb.answering.counting import number_answer
from kb.answering.drafting import Ctx, Lead, account_of, asked_acts, record_quote, short
from kb.answering.records import is_patient, place_of, record_line
from kb.answering.refusals import asks_person, kind_of_name, made_of_in
from kb.answering.short_names import people_in
from kb.knowledge.models import Event, Record, Relation, State

LEAD_CHARS = 90
"""How much of the answering record's account the first sentence tells."""


def opening(ctx: Ctx, record: Record | None, best: Sequence[tuple[float, str, str]]
          ) -> Lead | None:
    """The sentence that answers what the plan asks (module docstring)."""
    plan = ctx.plan
    sentence = (best[0][1], best[0][2]) if best else None
    quote = record_quote(record) if record else sentence
    where = ctx.say("fact.scene", chapter=record.chapter, title=record.title) \
        if isinstance(record, Event) else ""
    if plan.asks == "who":
        names = who_answers(ctx, record, best)
        if names:
            return ctx.say("fact.who", names=names, where=where), quote, False
    if plan.asks == "where":
        place = place_of(record) or place_then(ctx, record)
        if place and isinstance(record, State):
            return ctx.say("fact.at_state", place=place, chapter=record.chapter,
                           value=record.value), quote, False
        if place and isinstance(record, Event):
            return ctx.say("fact.at_event", place=place, where=where,
                           told=short(record.summary)), quote, True
        if place:
            return ctx.say("fact.at", place=place), quote, False
    if plan.asks in ("when", "chapter") and isinstance(record, Event | State):
        title = record.title if isinstance(record, Event) else record.value
        return ctx.say("fact.in", chapter=record.chapter, title=title), quote, False
    if plan.asks in ("when", "chapter") and isinstance(record, Relation) and record.sources \
            and record.sources[0].chapter is not None:  # where the relation (the act) begins
        return ctx.say("fact.in_relation", chapter=record.sources[0].chapter,
                       line=record_line(ctx, record)), quote, True
    if plan.asks == "how_many":
        return number_answer(ctx, record, best)
    if plan.asks == "name":
        texts = ([ctx.render(record)] if record is not None else []) + [s for _, s, _ in best]
        kind = kind_of_name(plan, texts)
        if kind:
            who = ctx.say("sep.list").join(ctx.name(p) for p in plan.person_ids)
            return ctx.say("fact.kind_name", who=who, role=plan.detail.role, name=kind,
                           where=where), quote, False
        found = who_answers(ctx, record, best) if record is not None and asks_person(plan) \
            else names_beside(ctx, best)
        if found:
            return ctx.say("fact.who", names=found, where=where), \
                quote if record is not None else sentence, False
    if plan.asks == "made_of":
        said = next(((s, c) for _, s, c in best if made_of_in(s, plan)), None)
        if said:
            return ctx.say("fact.said"), said, False
    if plan.asks == "why" and record is not None:
        return ctx.say("fact.why", account=account_of(ctx, record)), quote, True
    if record is not None:
        return record_line(ctx, record, LEAD_CHARS), quote, True
    if sentence:
        return ctx.say("fact.said"), sentence, False
    return None


def who_answers(ctx: Ctx, record: Record | None, best: Sequence[tuple[float, str, str]]) -> str:
    """The people a who-question asks for: the record's participants by role (the question's
    own people left out), else the people the best sentence names."""
    named = set(ctx.plan.person_ids)
    if ctx.plan.arc is not None and ctx.plan.arc.person:  # 甲死后谁…: the dead man is no answer
        named.add(ctx.plan.arc.person)
    passive = ctx.plan.detail.passive
    if isinstance(record, Event):
        by_role: dict[str, list[str]] = {}
        for p in record.participants:
            if p.person not in named and not (passive and is_patient(p.role)):
                by_role.setdefault(p.role, []).append(ctx.name(p.person))
        acting = {r: ns for r, ns in by_role.items() if asked_acts(ctx) & set(r)}
        by_role = acting or by_role  # 被谁射死: the archer, not the men who carried him off
        if by_role:
            return ctx.say("sep.items").join(
                ctx.say("who.role", names=ctx.say("sep.list").join(ns), role=role)
                for role, ns in by_role.items())
    if isinstance(record, Relation):
        other = [p for p in (record.source, record.target) if p not in named]
        if other:
            return ctx.say("who.role", names=ctx.say("sep.list").join(ctx.name(p) for p in other),
                           role=ctx.label(record.type, record.label))
    if isinstance(record, State) and record.person not in named and not passive:
        # 谁当了寨主: the one who holds it
        return ctx.say("who.role", names=ctx.name(record.person), role=record.value)
    if isinstance(record, State):
        told = [pid for pid, _ in ctx.people.find(record.value + record.description)
                if pid not in named]
        if told:  # the first named is the one who acted (被甲活捉，送…交乙收管)
            return ctx.say("who.role", names=ctx.name(told[0]), role=record.value)
    if passive and record is not None:
        return ""  # the record that answers names no one acting: no guess from a sentence
    return names_beside(ctx, best, named)


def place_then(ctx: Ctx, record: Record | None) -> str | None:
    """Where the person of a state was when it began, when the state itself names that place
    (出家为僧, 在五台山文殊院剃度 → the place state 五台山文殊院 of that chapter)."""
    if not isinstance(record, State):
        return None
    timeline = ctx.g.timelines.get(record.person)
    if timeline is None:
        return None
    told = record.value + record.description  # only a place the record itself names
    places = [s for s in timeline.states if s.kind == "place" and s.chapter <= record.chapter
              <= (s.until_chapter or s.chapter) and s.value in told]
    return places[-1].value if places else None


def names_beside(ctx: Ctx, best: Sequence[tuple[float, str, str]],
                 named: set[str] | None = None) -> str:
    """The people the best sentence naming anyone names besides the question's own: by full
    name, or by the given name alone once its block names them in full (恢曰 of 李恢)."""
    named = set(ctx.plan.person_ids) if named is None else named
    for _, sentence, chunk_id in best:
        block = ctx.block_of(chunk_id)
        found = [pid for _, pid in people_in(sentence, block.text if block else None, ctx.people)
                 if pid not in named]
        if found:
            return ctx.say("sep.list").join(dict.fromkeys(ctx.name(p) for p in found))
    return ""
