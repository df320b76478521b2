"""What a person has of the asked kind (甲的马叫什么, 甲会什么法术): their possessions, only when the
question says no more than the thing's kind — and not 甲的管家叫什么, where the relative the plan
found is the answer."""

from __future__ import annotations

from kb.answering.compose_person import compose_owned, owned_things
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    detail = plan.detail
    return plan.asks in ("name", "what") and len(plan.person_ids) == 1 and not detail.whom \
        and not detail.relative and detail.attribute is None


def compose(ctx: Ctx) -> Draft | None:
    person_id = ctx.plan.person_ids[0]
    owned = owned_things(ctx, person_id)
    return compose_owned(ctx, person_id, owned) if owned else None


KIND = Kind("owned", 130, detect, compose)
