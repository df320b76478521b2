"""What someone said or wrote just before they died (甲死前说了什么): the speech before the passage
of the death, then the death."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.life import compose_last_words
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.last_words


def compose(ctx: Ctx) -> Draft | None:
    return compose_last_words(ctx, ctx.plan.person_ids[0])


KIND = Kind("last_words", 150, detect, compose)
