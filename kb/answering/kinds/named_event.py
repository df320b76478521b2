"""What happened at a named event, asked without a person (大闹野猪林是怎么回事, 智取生辰纲的经过,
野猪林里发生了什么): the scenes whose title or place holds the question's words, in book order —
the event's own records, not every line that happens to hold its place's name."""

from __future__ import annotations

from collections.abc import Sequence

from core.text import to_simplified
from kb.answering.drafting import Ctx, Draft, Writer, record_quote, scene_item, short
from kb.answering.kinds import Kind
from kb.answering.plan import Plan
from kb.knowledge.importance import spread_pick
from kb.knowledge.models import Event

MAX_SCENES = 4
"""Scenes told with their account and quote; the rest are counted."""
SPREAD = 3


def detect(plan: Plan) -> bool:
    return not plan.person_ids and plan.arc is None and plan.told_arc is None \
        and "episode" in plan.roles and plan.asks in ("what", "how") and bool(plan.focus)


def compose(ctx: Ctx) -> Draft | None:
    scenes = _scenes(ctx, ctx.plan.focus)
    if not scenes:
        return None
    picked = [scenes[i] for i in spread_pick(
        [e.chapter for e in scenes], [2.0 * e.turning_point + 2.0 * e.headline for e in scenes],
        MAX_SCENES, SPREAD, 1.0)]
    first = picked[0]
    place = ctx.say("event.place", place=first.place) if first.place else ""
    w = Writer()
    told = short(first.summary, 90)
    w.add(ctx.say("event.lead", title=first.title, chapter=first.chapter, place=place)
          + _who_was_there(ctx, first)
          + (ctx.say("event.told", told=told) if told else ""), record_quote(first))
    for event in picked[1:]:
        w.add(scene_item(ctx, event), record_quote(event))
    if len(scenes) > len(picked):
        w.add(ctx.say("event.more", n=len(scenes) - len(picked)))
    return w.draft()


def _who_was_there(ctx: Ctx, event: Event) -> str:
    """The event's people by their roles (甲（救人者）；乙（被救者）)."""
    by_role: dict[str, list[str]] = {}
    for p in event.participants:
        by_role.setdefault(p.role, []).append(ctx.name(p.person))
    said = ctx.say("sep.items").join(ctx.say("who.role", names=ctx.say("sep.list").join(names),
                                             role=role) for role, names in by_role.items())
    return ctx.say("event.there", said=said) if said else ""


def _scenes(ctx: Ctx, focus: Sequence[str]) -> list[Event]:
    """The curated events whose title or place holds every content word of the question, as the
    reader wrote it or with the book's wording of a part of it (发配沧州 → 刺配沧州), in book
    order."""
    wordings = ctx.book.profile.wordings
    forms = [{word, *(word.replace(key, said) for key, words in wordings.items() if key in word
                      for said in words)} for word in focus]
    return [e for chapter in sorted(ctx.book.chapter_events)
            for e in ctx.book.chapter_events[chapter]
            if ctx.book.told(e) and all(
                any(f in to_simplified(f"{e.title}{e.place or ''}") for f in word_forms)
                for word_forms in forms)]


KIND = Kind("named_event", 65, detect, compose)
