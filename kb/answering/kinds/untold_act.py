"""A question that tells an act between its people and asks why, when, where or how it happened
(甲和乙争风吃醋是在哪一回, 甲为什么要背叛乙), on a book built from its text alone: when a word of
that act is written nowhere in the novel (nor in a wording the language gives it), the act is not
told, so the premise is refused with the words the book lacks, instead of explaining another
scene of the same two people. A curated book's relations decide this (kinds.false_premise)."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.passage_reading import unexplained
from kb.answering.passage_words import reading_weights
from kb.answering.plan import Plan

ASKS = ("why", "chapter", "when", "where", "how")
"""The asks that take the act as given; who / what / relation questions ask what happened."""


def detect(plan: Plan) -> bool:
    return plan.asks in ASKS and len(set(plan.named_ids)) >= 2


def compose(ctx: Ctx) -> Draft | None:
    if ctx.book.curated:
        return None
    weights = reading_weights(ctx)
    untold = unexplained(ctx, weights)
    if not untold:
        return None
    words = ctx.say("sep.words").join(ctx.say("missing.word", word=w) for w in untold)
    subject = ctx.say("missing.subject",
                      names=ctx.say("sep.list").join(ctx.name(p) for p in ctx.plan.person_ids))
    return Draft("insufficient", "", ctx.say("missing.words", words=words, subject=subject))


KIND = Kind("untold_act", 21, detect, compose)
