"""Where or when an act between two people happened (甲在哪里杀了乙): the scene of their relation of
that act, its place and chapter."""

from __future__ import annotations

from kb.answering.compose_pair import compose_pair_act, has_story, pair_act_event
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan

PLACE_TIME_ASKS = frozenset({"where", "when", "chapter"})


def detect(plan: Plan) -> bool:
    return plan.kind == "pair" and plan.asks in PLACE_TIME_ASKS and not plan.focus


def compose(ctx: Ctx) -> Draft | None:
    act = pair_act_event(ctx) if has_story(ctx) else None
    return compose_pair_act(ctx, act) if act is not None else None


KIND = Kind("pair_act", 94, detect, compose)
