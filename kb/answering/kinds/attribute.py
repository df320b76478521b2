"""One attribute of a person (甲是哪里人, 甲有什么本事, 甲长什么样): the profile's clauses that tell
it, or the introduction's; else the records and passages as a fact — never a list of deeds whose
titles share a character."""

from __future__ import annotations

from kb.answering.compose_person import compose_attribute
from kb.answering.drafting import Ctx, Draft
from kb.answering.fact import compose_fact
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return len(plan.person_ids) == 1 and plan.kind == "open" and plan.detail.attribute is not None \
        and plan.asks not in NOT_ATTRIBUTE_ASKS


NOT_ATTRIBUTE_ASKS = frozenset({"who", "how_many", "chapter", "when"})
"""甲的水性是跟谁学的 asks who taught it, not how good it is."""


def compose(ctx: Ctx) -> Draft | None:
    return compose_attribute(ctx) or compose_fact(ctx)


KIND = Kind("attribute", 80, detect, compose)
