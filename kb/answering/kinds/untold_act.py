"""A question that tells an act between its people and asks why, when, where or how it happened
(甲和乙争风吃醋是在哪一回, 甲为什么要背叛乙), on a book built from its text alone: when a word of
that act is written nowhere in the novel (nor in a wording the language gives it), the act is not
told, so the premise is refused with the words the book lacks, instead of explaining another
scene of the same two people. A curated book's relations decide this (kinds.false_premise)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.text import normalize
from kb.answering.coverage import UNSEEN_WEIGHT, _forms
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.passage_reading import neighbour_ids, unexplained
from kb.answering.passage_words import book_wordings, reading_weights
from kb.answering.plan import Plan
from kb.answering.quotes import normalized_block
from retrieval.analyzers import FUNCTION_CHARS
from retrieval.bm25 import lucene_idf

ASKS = ("why", "chapter", "when", "where", "how")
"""The asks that take the act as given; who / what / relation questions ask what happened."""


def detect(plan: Plan) -> bool:
    return plan.asks in ASKS and len(set(plan.named_ids)) >= 2


def compose(ctx: Ctx) -> Draft | None:
    if ctx.book.curated:
        return None
    weights = reading_weights(ctx)
    names = ctx.say("sep.list").join(ctx.name(p) for p in ctx.plan.person_ids)
    unwritten = unexplained(ctx, weights)
    of_others = [] if unwritten else _told_of_others(ctx, weights)
    if not unwritten and not of_others:
        return None
    words = ctx.say("sep.words").join(ctx.say("missing.word", word=w)
                                      for w in unwritten or of_others)
    reason = (ctx.say("missing.words", words=words, subject=ctx.say("missing.subject", names=names))
              if unwritten else ctx.say("premise.untold", words=words, names=names))
    return Draft("insufficient", "", reason)


def _told_of_others(ctx: Ctx, weights: Mapping[str, float]) -> list[str]:
    """The act's words the book writes in one block only (weighed as unseen), found among the
    ranked blocks in none that (with the one before it) names every one of the question's
    people: the book tells that act once, and of others (背叛 once, of another man than 甲)."""
    unseen = lucene_idf(1, ctx.passages.n_docs) * UNSEEN_WEIGHT
    wordings = book_wordings(ctx)
    cores = {t.strip("".join(FUNCTION_CHARS)) for t, w in weights.items() if w >= unseen - 1e-9}
    rare = [c for c in cores if len(c) >= 2 and ctx.passages.document_frequency(c) > 0
            and len(_forms(c, wordings)) == 1]  # a reader's word with the book's: not rare
    people = [[k for k in {normalize(n) for n in ctx.people.people[p].all_names} if len(k) >= 2]
              for p in dict.fromkeys(ctx.plan.person_ids)]
    blocks = list(dict.fromkeys([*ctx.g.packed, *ctx.g.ranking]))  # every block the words reach
    untold = []
    for core in rare:
        holding = [c for c in blocks if (b := ctx.block_of(c)) and core in normalized_block(b.text)]
        if holding and not any(_names_all(ctx, c, people) for c in holding):
            untold.append(core)
    return untold


def _names_all(ctx: Ctx, chunk_id: str, people: Sequence[Sequence[str]]) -> bool:
    text = "".join(normalized_block(b.text) for n in neighbour_ids(chunk_id, 1)[:2]
                   if (b := ctx.block_of(n)) is not None)
    return all(any(k in text for k in names) for names in people)


KIND = Kind("untold_act", 21, detect, compose)
