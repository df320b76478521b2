"""A question that cannot be looked up at all: no Chinese, a 他 pointing nowhere, a reader's
judgement the book never makes (谁的武艺最高). Refused with the reason, before anything else."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan
from kb.answering.refusals import refusal_reason


def detect(plan: Plan) -> bool:
    return plan.refusal is not None


def compose(ctx: Ctx) -> Draft | None:
    reason = refusal_reason(ctx.plan, ctx.book.profile.book)
    return Draft("insufficient", "", reason) if reason else None


KIND = Kind("refusal", 10, detect, compose)
