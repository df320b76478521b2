"""Which record answers a fact question, by what it asks: for who, the one whose actor did the
asked act (or the relation of the asked type); for a name, the scene where someone else suffered
the act; for where, the one whose headline holds the act; for why, the first time the person did
the asked act; else the record that holds the most of the question."""

from __future__ import annotations

from collections.abc import Sequence

from core.text import to_simplified
from kb.answering.drafting import (
    MIN_RECORD_COVERAGE,
    Ctx,
    asked_acts,
    book_words,
    headline_names,
    role_form_chars,
)
from kb.answering.records import (
    acted_on,
    actor_record,
    close_records,
    headline_holds,
    suffered,
)
from kb.knowledge.models import Event, Record, Relation, State

Top = tuple[float, Record] | None


def chosen_record(ctx: Ctx, weights: dict[str, float], records: Sequence[Record],
                  top: Top) -> Record | None:
    """The record the answer is built on (rules in the module docstring)."""
    plan = ctx.plan
    record = top[1] if top and top[0] >= MIN_RECORD_COVERAGE else None
    if plan.asks == "who" and plan.detail.passive:
        return actor_record(ctx, records) or headlined(ctx, weights, records, top) or record
    if plan.asks == "who" and top is not None and record is not None:
        close = close_records(ctx, weights, records, top[0])
        labeled = sorted((r for r in close if isinstance(r, Relation)
                          and any(f in r.label for f in plan.focus)),
                         key=lambda r: not any(f in r.description for f in plan.focus))
        # 甲和谁私通: the relation of that type, not another whose account mentions it
        return labeled[0] if labeled else actor_record(ctx, close) or record
    if plan.asks == "name" and plan.detail.role and top is not None and record is not None:
        return _suffering_scene(ctx, records, record)
    if plan.asks == "where" and top is not None and record is not None:
        close = close_records(ctx, weights, records, top[0])
        return next((r for r in close if headline_holds(r, plan.focus)), record)
    if plan.asks == "why" and top is not None and record is not None and plan.person_ids:
        return _first_act(ctx, weights, records, top[0]) or record
    if plan.asks == "who" and plan.person_ids:  # 谁杀了甲: nothing to weigh but the act
        return actor_record(ctx, [r for r in records if acted_on(r, set(plan.person_ids))
                                  and not isinstance(r, Relation | State)]) or record
    return record


def _suffering_scene(ctx: Ctx, records: Sequence[Record], record: Record) -> Record:
    """甲痛打的那个强人叫什么: of the events of the scene's chapter, the one where someone else
    suffered the asked act (被打者), not the host of the night before."""
    asked_act = asked_acts(ctx) - role_form_chars()
    chapter = getattr(record, "chapter", None)
    return next((r for r in records if isinstance(r, Event) and r.chapter == chapter
                 and any(p.person not in ctx.plan.person_ids and suffered(p.role, asked_act)
                         for p in r.participants)), record)


def _first_act(ctx: Ctx, weights: dict[str, float], records: Sequence[Record], best: float
               ) -> Record | None:
    """甲为什么上山: the event that is the asked act of the asked person, its first time."""
    names = [n for n in map(to_simplified, ctx.all_names) if len(n) >= 2]
    acts = [r for r in close_records(ctx, weights, records, best) if isinstance(r, Event)
            and headline_holds(r, ctx.plan.focus) and headline_names(r, names)]
    if not acts:  # 离开梁山: the book's word for the act (辞别) may share no bigram with it
        said = book_words(ctx.plan.focus, ctx.book.profile.wordings)
        acts = [r for r in records if isinstance(r, Event) and headline_names(r, names)
                and any(w in r.title for w in said)]
    return min(acts, key=lambda e: e.order) if acts else None


def headlined(ctx: Ctx, weights: dict[str, float], records: Sequence[Record], top: Top
              ) -> Record | None:
    """Among the records that tell the scene about equally well, the first whose headline holds
    the asked thing (连环马被谁破了 → 钩镰枪大破连环马, not a relation that mentions the horses)."""
    if top is None or top[0] < MIN_RECORD_COVERAGE:
        return None
    close = close_records(ctx, weights, records, top[0])
    return next((r for r in close if headline_holds(r, ctx.plan.focus)), None)
