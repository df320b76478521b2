"""Whom someone did the asked act to (甲杀了谁, 甲在某处杀了哪些人): each one, with where, in book
order."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_done_to, done_to
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.whom


def compose(ctx: Ctx) -> Draft | None:
    person_id = ctx.plan.person_ids[0]
    done = done_to(ctx, person_id)
    return compose_done_to(ctx, person_id, done) if done else None


KIND = Kind("whom", 220, detect, compose)
