"""Who died in a named stretch of the story (征某时谁死了): the death states of its chapters, the
heroes the reader follows first."""

from __future__ import annotations

from kb.answering.compose_story import compose_deaths_in_arc
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.arc is not None and not plan.person_ids and plan.asks == "who" \
        and "death" in plan.roles


def compose(ctx: Ctx) -> Draft | None:
    assert ctx.plan.arc is not None
    return compose_deaths_in_arc(ctx, ctx.plan.arc)


KIND = Kind("arc_deaths", 50, detect, compose)
