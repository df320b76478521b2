"""In which chapter (某某倒拔垂杨柳是在第几回): the chapter whose title (回目) matches the question,
with the sentence of that chapter that holds the most of it."""

from __future__ import annotations

from kb.answering.compose_story import compose_chapter
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.asks == "chapter"


def compose(ctx: Ctx) -> Draft | None:
    return compose_chapter(ctx) if ctx.g.chapter is not None else None


KIND = Kind("chapter", 170, detect, compose)
