"""A rank (甲排第几位): the 第N位 the person's profile gives beside a word of the question."""

from __future__ import annotations

from kb.answering.counting import rank_answer
from kb.answering.drafting import Ctx, Draft, Writer
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.ordinal


def compose(ctx: Ctx) -> Draft | None:
    ranked = rank_answer(ctx)
    if ranked is None:
        return None
    w = Writer()
    w.add(ranked[0], ranked[1])
    return w.draft()


KIND = Kind("rank", 180, detect, compose)
