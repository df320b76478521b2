"""One fact asked of two people with content of its own (who, where, when, which chapter, how
many, a name, made of): the fact answer, not the pair's story."""

from __future__ import annotations

from kb.answering.compose_pair import has_story
from kb.answering.drafting import Ctx, Draft
from kb.answering.fact import compose_fact
from kb.answering.kinds import Kind
from kb.answering.plan import Plan

PAIR_FACT_ASKS = frozenset({"who", "where", "when", "chapter", "how_many", "name", "made_of"})


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.asks in PAIR_FACT_ASKS and bool(plan.focus)


def compose(ctx: Ctx) -> Draft | None:
    return compose_fact(ctx) if has_story(ctx) else None


KIND = Kind("pair_fact", 95, detect, compose)
