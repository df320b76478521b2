"""A person's journey (甲的经历, 按阶段讲讲): one paragraph per stage, in book order; a follow-up
continues after the chapter the last answer reached."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_journey
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "journey"


def compose(ctx: Ctx) -> Draft | None:
    return compose_journey(ctx) if ctx.g.journey is not None else None


KIND = Kind("journey", 121, detect, compose)
