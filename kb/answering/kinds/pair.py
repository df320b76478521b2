"""What two people are to each other: their relations with the chapter each began in, where their
story began, the shared events that matter, the rest counted."""

from __future__ import annotations

from kb.answering.compose_pair import compose_pair, has_story, with_passages
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "pair"


def compose(ctx: Ctx) -> Draft | None:
    return with_passages(compose_pair(ctx), ctx) if has_story(ctx) else None


KIND = Kind("pair", 97, detect, compose)
