"""Who someone is (甲是什么人, 某绰号叫什么名字, 甲的妻子叫什么名字): the person the plan resolved,
by their record — names, profile, the passages it comes from; the nickname first when asked."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan
from kb.answering.profile_answer import compose_profile


def detect(plan: Plan) -> bool:
    return (plan.asks == "identity" or plan.asks == "name" and not plan.focus) \
        and len(plan.person_ids) == 1


def compose(ctx: Ctx) -> Draft | None:
    return compose_profile(ctx, ctx.people.people[ctx.plan.person_ids[0]],
                           "nickname_asked" in ctx.plan.roles)


KIND = Kind("identity", 140, detect, compose)
