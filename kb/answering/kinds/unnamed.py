"""A person's own name is asked (某教头的全名) and the book knows them only by a title: the book
gives no name, and the answer says so."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan
from kb.answering.refusals import unknown_name


def detect(plan: Plan) -> bool:
    return plan.asks == "name"


def compose(ctx: Ctx) -> Draft | None:
    problem = unknown_name(ctx.plan, ctx.plan.named_ids, ctx.people, ctx.book.profile.titles)
    return Draft("insufficient", "", ctx.say("end", text=problem)) if problem else None


KIND = Kind("unnamed", 30, detect, compose)
