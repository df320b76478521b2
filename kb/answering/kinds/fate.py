"""How it ended for one person (甲的结局, 甲是怎么死的): their last status state, then their last
events."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_fate
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.fate and bool(plan.person_ids) and plan.asks in ("how", "what", "where", "who")


def compose(ctx: Ctx) -> Draft | None:
    return compose_fate(ctx, ctx.plan.person_ids[:1])


KIND = Kind("fate", 190, detect, compose)
