"""第N回讲了什么: the story of a chapter named by its number — its summary and its scenes."""

from __future__ import annotations

from kb.answering.compose_story import compose_chapter_story
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.chapter_told is not None


def compose(ctx: Ctx) -> Draft | None:
    assert ctx.plan.detail.chapter_told is not None
    return compose_chapter_story(ctx, ctx.plan.detail.chapter_told)


KIND = Kind("chapter_story", 40, detect, compose)
