"""Where, when or in which chapter two people met (甲在哪里遇到乙): their first meeting, the place
or chapter first, then their story and the passages that answer."""

from __future__ import annotations

from kb.answering.compose_pair import compose_pair, has_story, with_passages
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.detail.meeting and plan.asks in ("where", "when", "chapter")


def compose(ctx: Ctx) -> Draft | None:
    return with_passages(compose_pair(ctx, began=True), ctx) if has_story(ctx) else None


KIND = Kind("pair_meeting", 90, detect, compose)
