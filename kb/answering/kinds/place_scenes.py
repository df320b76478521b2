"""What someone did at a place (甲在某地做了什么): their scenes there, in book order."""

from __future__ import annotations

from kb.answering.compose_person import compose_deeds, scenes_at_place
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.asks == "what" and len(plan.person_ids) == 1


def compose(ctx: Ctx) -> Draft | None:
    person_id = ctx.plan.person_ids[0]
    there = scenes_at_place(ctx, person_id)
    return compose_deeds(ctx, person_id, there) if there else None


KIND = Kind("place_scenes", 240, detect, compose)
