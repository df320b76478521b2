"""How it ended for two people (甲和乙的结局): each one's fate state, then their last events."""

from __future__ import annotations

from kb.answering.compose_pair import has_story
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_fate
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.detail.fate \
        and plan.asks in ("relation", "how", "what", "where")


def compose(ctx: Ctx) -> Draft | None:
    return compose_fate(ctx, ctx.plan.person_ids) if has_story(ctx) else None


KIND = Kind("pair_fate", 93, detect, compose)
