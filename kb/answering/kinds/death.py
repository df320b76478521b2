"""When or in which chapter someone died (甲是什么时候死的): the chapter of the fate state, not a
chapter title that names them."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_fate
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.death


def compose(ctx: Ctx) -> Draft | None:
    return compose_fate(ctx, ctx.plan.person_ids)


KIND = Kind("death", 160, detect, compose)
