"""甲用什么兵器: the person's weapon states, never a stray battle line that names the word."""

from __future__ import annotations

from kb.answering.compose_person import compose_weapons
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.weapon


def compose(ctx: Ctx) -> Draft | None:
    return compose_weapons(ctx)


KIND = Kind("weapon", 70, detect, compose)
