"""What someone did in a named stretch of the story (征某时甲打了哪些仗): their scenes of its
chapters, those of the asked act when the question names one."""

from __future__ import annotations

from kb.answering.compose_person import compose_in_arc
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.arc is not None and len(plan.person_ids) == 1 and plan.asks in ("what", "how")


def compose(ctx: Ctx) -> Draft | None:
    assert ctx.plan.arc is not None
    return compose_in_arc(ctx, ctx.plan.arc, ctx.plan.person_ids[0])


KIND = Kind("in_arc", 230, detect, compose)
