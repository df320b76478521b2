"""On a book built from its text alone, the asked slot read from the sentences themselves
(kb.answering.passage_reading): its records seldom hold it, its passages do. A curated book's
records answer (this kind does not detect on them: it needs the book, so it decides in compose).
The first line states the asked slot when the best sentence gives it (kb.answering.passage_lead),
then quotes it."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft, Writer
from kb.answering.kinds import Kind
from kb.answering.passage_lead import slot_of
from kb.answering.passage_reading import Reading, death_subject, readings
from kb.answering.plan import Plan
from kb.answering.quantities import has_quantity
from kb.answering.record_search import participants
from kb.answering.short_names import short_names
from kb.knowledge.genre import is_death

MIN_SCORE = 0.8
"""The best sentence must hold this much: the words, the people and the slot's cue together."""
SHOWN = 3
MAX_QUOTE = 90
ASKS = ("who", "where", "why", "how", "how_many", "what", "when", "relation", "chapter")


def detect(plan: Plan) -> bool:
    return plan.asks in ASKS or plan.detail.weapon


def compose(ctx: Ctx) -> Draft | None:
    if ctx.book.curated:
        return None
    best = readings(ctx)
    if ctx.plan.asks == "how_many":  # a count is read only where a number of the unit stands
        best = [r for r in best if has_quantity(r.sentence, ctx.plan, ctx.people)
                or has_quantity(r.following, ctx.plan, ctx.people)]
    if not best and (whose := death_subject(ctx)) and not _death_recorded(ctx, whose):
        name = ctx.people.people[whose].name
        return Draft("insufficient", "", ctx.say("end", text=ctx.say("missing.death", who=name)))
    if not best or best[0].score < MIN_SCORE:
        return None
    w = Writer()
    shown: set[str] = set()
    quoted = [r for r in best[:SHOWN] if len(r.sentence) <= MAX_QUOTE]
    slots = [slot_of(ctx, r) for r in quoted]
    top = quoted[0].score if quoted else 0.0
    first = next((i for i, slot in enumerate(slots)  # of the equally best, one that says it
                  if slot and quoted[i].score >= top - 1e-9), 0)
    for r, slot in [(quoted[first], slots[first]) if quoted else (best[0], None),
                    *((q, None) for i, q in enumerate(quoted) if i != first)]:
        if r.sentence in shown or len(r.sentence) > MAX_QUOTE:
            continue
        slot = slot if not w.lines else None
        line = (ctx.say("passage.item") if w.lines else ctx.say("passage.lead", slot=slot)
                if slot else ctx.say("fact.said"))
        w.add(line, (r.sentence, r.chunk_id))
        _gloss(ctx, w, r)
        shown.add(r.sentence)
        if w.quotes[1:]:
            continue
        for near, chunk in ((r.preceding, r.preceding_chunk or r.chunk_id),
                            (r.following, r.chunk_id)):  # the first sentence's cause or count
            if near and near not in shown and len(near) <= MAX_QUOTE:
                w.add(ctx.say("passage.item"), (near, chunk))
                shown.add(near)
    return w.draft() if w.lines else None


def _gloss(ctx: Ctx, w: Writer, r: Reading) -> None:
    """After the quote, who its one-character names are (乙 is 甲乙): `short_names`."""
    block = ctx.block_of(r.chunk_id)
    named = short_names(r.sentence, block.text, ctx.people) if block is not None else []
    if named:
        sep = ctx.say("sep.list")
        w.lines[-1] += ctx.say("passage.short", names=sep.join(
            ctx.say("passage.short_one", short=short, name=ctx.name(pid)) for short, pid in named))


def _death_recorded(ctx: Ctx, person: str) -> bool:
    """A fate of the person is among the book's records (the fate kind tells it)."""
    return any(is_death(state) and person in participants(state)
               for timeline in ctx.g.timelines.values() for state in timeline.states)


KIND = Kind("passages_read", 25, detect, compose)
