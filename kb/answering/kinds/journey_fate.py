"""How a person's story ended, asked as a course of life (甲最后怎么样了): the fate state first.
Asked how they died (甲后来是怎么死的) when the knowledge holds no end of theirs, the book does not
tell it: the answer says so, with their last scene."""

from __future__ import annotations

from core.text import to_simplified
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_fate, last_status
from kb.answering.plan import Plan
from kb.knowledge.language import language


def detect(plan: Plan) -> bool:
    return plan.kind == "journey" and plan.detail.fate


def compose(ctx: Ctx) -> Draft | None:
    if ctx.g.journey is None:
        return None
    person = ctx.plan.person_ids[0]
    status, last = last_status(ctx, person)
    dead = language().chars.dead
    if status is None and any(ch in to_simplified(ctx.plan.question) for ch in dead):
        name = ctx.name(person)
        reason = ctx.say("missing.death", who=name)
        if last:
            reason += ctx.say("sep.items") + ctx.say("fate.last_event", name=name,
                                                     chapter=last[-1].chapter,
                                                     title=last[-1].title)
        return Draft("insufficient", "", reason)
    return compose_fate(ctx, ctx.plan.person_ids[:1])


KIND = Kind("journey_fate", 120, detect, compose)
