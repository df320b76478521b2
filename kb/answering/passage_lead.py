"""The asked slot, stated from the sentence the passage reader chose (kb.answering.passage_reading):
a reader asking who, which chapter or how many wants the name, the 第N回 or the number before the
quote that proves it. Only what the sentence itself gives is stated: the people it names besides
the question's own, the chapter its block stands in, the first quantity of the asked unit."""

from __future__ import annotations

from core.text import to_simplified
from kb.answering.drafting import Ctx
from kb.answering.dying import kill_words
from kb.answering.passage_reading import Reading
from kb.answering.quantities import quantity_in
from kb.answering.short_names import people_in

MAX_NAMED = 3
"""A who answer names at most this many people (a list of a dozen generals answers nothing)."""


def slot_of(ctx: Ctx, reading: Reading) -> str | None:
    """The asked slot as the sentence gives it, in the question's language, or None."""
    asks = ctx.plan.asks
    if asks in ("chapter", "when"):
        block = ctx.block_of(reading.chunk_id)
        return ctx.say("chapter.one", n=block.chapter) if block is not None else None
    if asks == "who":
        return _others(ctx, reading)
    if asks == "how_many":
        return quantity_in(to_simplified(reading.sentence), ctx.plan, ctx.people)
    return None


def _others(ctx: Ctx, reading: Reading) -> str | None:
    """The people the sentence names besides the question's own, in the order it names them, a
    person it names by the given name alone among them (乙 … 杀丁: 甲乙, `short_names`); of a
    question who did an act to its person (被谁), those named before the act's word."""
    own = {*ctx.plan.person_ids, *(pid for pid, _ in ctx.plan.named)}  # 丁原 of 杀了丁原投奔了谁
    text = to_simplified(reading.sentence)
    block = ctx.block_of(reading.chunk_id)
    at = [(pos, pid) for pos, pid in people_in(reading.sentence, block.text if block else None,
                                               ctx.people) if pid not in own]
    if ctx.plan.detail.passive:  # 甲被谁杀了: the doer stands before the act (乙…杀甲, 引丙来见)
        acts = [text.find(w) for w in kill_words()]
        first = min((a for a in acts if a >= 0), default=-1)
        before = [(pos, pid) for pos, pid in at if 0 <= pos < first]
        at = before or at
    named = list(dict.fromkeys(pid for _, pid in at))
    if not named or len(named) > MAX_NAMED:
        return None
    return ctx.say("sep.list").join(ctx.name(pid) for pid in named)
