"""Whether something passed between two people (甲有没有娶乙为妻): answered only when one of their
records holds it."""

from __future__ import annotations

from kb.answering.compose_pair import compose_whether, has_story
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.asks == "whether"


def compose(ctx: Ctx) -> Draft | None:
    return compose_whether(ctx) if has_story(ctx) else None


KIND = Kind("pair_whether", 96, detect, compose)
