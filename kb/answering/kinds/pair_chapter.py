"""In which chapter something between two people happened (their first meeting is
`pair_meeting`'s): the chapter whose title matches."""

from __future__ import annotations

from kb.answering.compose_pair import has_story
from kb.answering.compose_story import compose_chapter
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.asks == "chapter" and plan.moment != "began"


def compose(ctx: Ctx) -> Draft | None:
    return compose_chapter(ctx) if has_story(ctx) and ctx.g.chapter is not None else None


KIND = Kind("pair_chapter", 91, detect, compose)
