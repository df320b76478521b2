"""How someone's story began (甲最初是做什么的, 第一次出场): their earliest events in book order."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_temporal
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.moment == "began" and plan.asks in ("how", "what")


def compose(ctx: Ctx) -> Draft | None:
    return compose_temporal(ctx) if ctx.g.temporal else None


KIND = Kind("began", 200, detect, compose)
