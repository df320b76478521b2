"""A question that says an act happened between its people (甲为什么要杀乙): when neither the
records nor one passage hold that act between them, the premise may be false, and the answer
says so instead of explaining something that did not happen."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.passage_reading import ranked_blocks
from kb.answering.plan import Plan
from kb.answering.quotes import sentences
from kb.answering.refusals import premise_problem


def detect(plan: Plan) -> bool:
    return bool(plan.detail.premises) and len(set(plan.named_ids)) >= 2


def compose(ctx: Ctx) -> Draft | None:
    """A book built from its text has records that miss acts: the passages read are the lexical
    ranking's best too, not only the packed ones."""
    read = ctx.g.packed if ctx.book.curated else ranked_blocks(ctx)
    evidence = [s for c in read if (b := ctx.block_of(c)) for s in sentences(b.text)]
    problem = premise_problem(ctx.plan, ctx.g.relation_types, evidence, ctx.people)
    return Draft("insufficient", "", ctx.say("end", text=problem)) if problem else None


KIND = Kind("false_premise", 20, detect, compose)
