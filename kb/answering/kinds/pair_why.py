"""Why one of two people acted on the other: the cause before the act (a third person's plan, a
wrong done, an order), then the act, then their relations."""

from __future__ import annotations

from kb.answering.compose_pair import compose_pair_why, has_story, with_passages
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.asks == "why"


def compose(ctx: Ctx) -> Draft | None:
    return with_passages(compose_pair_why(ctx), ctx) if has_story(ctx) else None


KIND = Kind("pair_why", 92, detect, compose)
