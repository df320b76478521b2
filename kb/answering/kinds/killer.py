"""Who killed someone (甲被谁害死的, 谁杀了甲): the hand in the person's death, not whoever wronged
them once."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft, asked_acts
from kb.answering.kinds import Kind
from kb.answering.life import compose_killer
from kb.answering.plan import Plan
from kb.knowledge.language import language


def detect(plan: Plan) -> bool:
    return plan.asks == "who" and len(plan.person_ids) == 1 and not plan.detail.whom


def compose(ctx: Ctx) -> Draft | None:
    chars = language().chars
    killing = any(word.endswith(chars.dead) for word in ctx.plan.focus) \
        or bool(asked_acts(ctx) & set(chars.killing))
    return compose_killer(ctx, ctx.plan.person_ids[0]) if killing else None


KIND = Kind("killer", 210, detect, compose)
