"""The fact answer: a question that wants one fact, or an account — the record and the sentences
that hold the most of the question, checked for the asked thing (`refusals`), the answer first
(`fact_lead`), then the record, the other records that hold some of the question, and the
passages. Every question kind that finds nothing of its own falls back to it."""

from __future__ import annotations

from collections.abc import Sequence

from core.text import normalize
from kb.answering.counting import SUPPORT_SENTENCES, counted_first
from kb.answering.coverage import Coverage, _forms, best_sentences, best_window, unseen_terms
from kb.answering.drafting import (
    MIN_RECORD_COVERAGE,
    BlockOf,
    Ctx,
    Draft,
    Writer,
    best_record,
    record_quote,
    short,
)
from kb.answering.fact_choice import chosen_record
from kb.answering.fact_lead import opening
from kb.answering.quotes import normalized_block
from kb.answering.record_search import participants
from kb.answering.records import acted_on, events_before, record_line
from kb.answering.refusals import asked_missing, missing_part, normalized, not_covered
from kb.knowledge.models import Event, Record, Relation, State

SUPPORT_RECORDS = 3
MAX_PASSAGE = 60
"""A supporting passage longer than this (a roster, a verse, a recital of a whole story) is not
quoted beside the records."""
Sentences = list[tuple[float, str, str]]
"""(coverage, sentence, block id), best first."""


def compose_fact(ctx: Ctx) -> Draft:
    """The fact answer (module docstring)."""
    plan = ctx.plan
    weights = ctx.weights()
    about = about_people(ctx.g.packed, ctx.block_of, ctx.all_names)
    best = best_sentences(about, ctx.block_of, weights, ctx.book.profile.wordings,
                          limit=SUPPORT_SENTENCES + 1)
    records = candidates(ctx)
    top = best_record(ctx, weights, records)
    record = chosen_record(ctx, weights, records, top)
    top_sentence = best[0][0] if best else 0.0
    if plan.asks == "how_many":  # the sentences that give a number come first
        best, top_sentence = counted_first(ctx, about, weights, best, top_sentence,
                                           SUPPORT_SENTENCES)
    texts = [s for _, s, _ in best] + ([ctx.render(record)] if record else [])
    unseen = unseen_terms(weights, ctx.passages.n_docs)
    known = {t: w for t, w in weights.items() if t not in unseen}
    wordings = ctx.book.profile.wordings
    held = normalized(texts)
    reason = not_covered(plan, weights, max(top_sentence, top[0] if top else 0.0) if weights
                         else (1.0 if best or record else 0.0), held,
                         best_window(about, ctx.block_of, known, wordings),
                         asked_missing(plan, {t: _forms(t, wordings) for t in weights}, held))
    if reason:
        return Draft("insufficient", "", ctx.say("end", text=reason))
    record_people = participants(record) if record else set()
    lacking = missing_part(plan, [s for _, s, _ in best], record_people, ctx.people,
                           [ctx.render(record)] if record else [])
    if lacking:
        return Draft("insufficient", "", ctx.say("end", text=lacking))
    return _written(ctx, record, best, records, weights)


def _written(ctx: Ctx, record: Record | None, best: Sentences, records: Sequence[Record],
             weights: dict[str, float]) -> Draft:
    """The answer first, then the events before it (why), the record, the other records that
    hold some of the question, and the passages of the record's scene."""
    w = Writer()
    lead = opening(ctx, record, best)
    if lead:
        w.add(lead[0], lead[1])
    shown = {record.id} if record else set()
    item = ctx.say("item")
    if record is not None and ctx.plan.asks == "why":
        for event in events_before(ctx, record):
            w.add(ctx.say("why.before", chapter=event.chapter, title=event.title,
                          summary=short(event.summary)), record_quote(event))
            shown.add(event.id)
    if record is not None and not (lead and lead[2]):
        w.add(f"{item}{record_line(ctx, record)}", record_quote(record))
    for other in supporting(ctx, records, weights, shown):
        w.add(f"{item}{record_line(ctx, other)}", record_quote(other))
    quoted = {q[0] for q in w.quotes}
    for score, sentence, chunk_id in best[:SUPPORT_SENTENCES]:
        if (score > 0 or not weights) and sentence not in quoted and len(sentence) <= MAX_PASSAGE \
                and same_scene(ctx, record, chunk_id):
            w.add(ctx.say("passage.item"), (sentence, chunk_id))
    return w.draft()


def candidates(ctx: Ctx) -> list[Record]:
    """Records that may answer: the knowledge hits and the named people's own events, about the
    named people when the question names any (extracted scene events only say who was
    together: they point to evidence, never answer)."""
    about = set(ctx.plan.person_ids)
    dead = ctx.plan.arc.person if ctx.plan.arc is not None else None
    records: list[Record] = [h.record for h in ctx.g.knowledge
                             if isinstance(h.record, Event | Relation | State)]
    for timeline in ctx.g.timelines.values():
        records += [*timeline.events, *timeline.states]
    seen: set[str] = set()
    out = []
    for record in records:
        if record.id in seen or (about and not participants(record) & about):
            continue
        if isinstance(record, Event) and not ctx.book.told(record):
            continue
        if isinstance(record, State) and record.kind == "place" and ctx.plan.asks != "where":
            continue  # a stay somewhere holds the place's name, not what happened there
        if ctx.plan.detail.passive and not acted_on(record, about):
            continue  # 甲被谁活捉: the captures 甲 made do not answer
        if dead is not None and participants(record) <= {dead}:
            continue  # 甲死后…: 甲's own death does not answer what came after it
        seen.add(record.id)
        out.append(record)
    return out


def about_people(packed: Sequence[str], block_of: BlockOf, names: Sequence[str]) -> list[str]:
    """The packed blocks that mention the question's people (all blocks when it names none): an
    answer about one person is quoted from passages about them, not from a similar sentence on
    another."""
    if not names:
        return list(packed)
    keys = [k for k in {normalize(n) for n in names} if len(k) >= 2]
    return [c for c in packed
            if (b := block_of(c)) and any(k in normalized_block(b.text) for k in keys)]


def same_scene(ctx: Ctx, record: Record | None, chunk_id: str) -> bool:
    """A passage shown beside an event's account comes from the event's chapter: one sharing a
    word with the question elsewhere (the word in a poem chapters away) is not its source."""
    if not isinstance(record, Event):
        return True
    block = ctx.block_of(chunk_id)
    return block is None or block.chapter == record.chapter


def supporting(ctx: Ctx, records: Sequence[Record], weights: dict[str, float],
               shown: set[str]) -> list[Record]:
    """Up to `SUPPORT_RECORDS` more records that hold some of the question's words."""
    if not weights:
        return []
    covered = Coverage(weights, {t: _forms(t, ctx.book.profile.wordings) for t in weights})
    scored = [(covered(ctx.render(r)), i, r)
              for i, r in enumerate(records) if r.id not in shown]
    scored = [s for s in scored if s[0] >= MIN_RECORD_COVERAGE]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [r for _, _, r in scored[:SUPPORT_RECORDS]]
