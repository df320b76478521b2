"""How a person's story ended, asked as a course of life (甲最后怎么样了): the fate state first."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_fate
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "journey" and plan.detail.fate


def compose(ctx: Ctx) -> Draft | None:
    return compose_fate(ctx, ctx.plan.person_ids[:1]) if ctx.g.journey is not None else None


KIND = Kind("journey_fate", 120, detect, compose)
