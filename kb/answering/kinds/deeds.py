"""What someone did of one act (甲偷了什么): their events whose title holds it; or, for a question of
one-character words the person's profile holds (甲开的是什么店), the profile."""

from __future__ import annotations

from kb.answering.compose_person import asked_deeds, compose_deeds
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan
from kb.answering.profile_answer import compose_profile, profile_tells


def detect(plan: Plan) -> bool:
    return plan.asks == "what" and not plan.focus and len(plan.person_ids) == 1


def compose(ctx: Ctx) -> Draft | None:
    person_id = ctx.plan.person_ids[0]
    deeds = asked_deeds(ctx, person_id)
    if deeds:
        return compose_deeds(ctx, person_id, deeds)
    person = ctx.people.people[person_id]
    if not profile_tells(ctx, person):
        return None
    return compose_profile(ctx, person, "nickname_asked" in ctx.plan.roles)


KIND = Kind("deeds", 250, detect, compose)
