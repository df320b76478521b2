"""The course of a named stretch of the story (三打某庄的经过, 讲讲征某): its turning points and
headline scenes spread over its chapters."""

from __future__ import annotations

from kb.answering.compose_story import compose_arc_story
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.told_arc is not None


def compose(ctx: Ctx) -> Draft | None:
    assert ctx.plan.told_arc is not None
    return compose_arc_story(ctx, ctx.plan.told_arc)


KIND = Kind("arc_story", 60, detect, compose)
