"""How one person came to a band (甲是怎么上某山的, 甲为什么落草): where they joined, then the road
there (kb.answering.joining)."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_joining
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.joining is not None and bool(plan.person_ids)


def compose(ctx: Ctx) -> Draft | None:
    return compose_joining(ctx, ctx.plan.person_ids[0])


KIND = Kind("joining", 100, detect, compose)
