"""Anything else: the record and the sentences that hold the most of the question, checked for the
asked thing, the answer first (kb.answering.fact). It takes every plan, so it comes last."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.fact import compose_fact
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return True


def compose(ctx: Ctx) -> Draft | None:
    return compose_fact(ctx)


KIND = Kind("fact", 1000, detect, compose)
