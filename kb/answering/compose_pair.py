"""Answers about two people: what they are to each other and where it began, with the shared events
that matter (`compose_pair`); why one acted on the other, the cause before the act and a third
person's plan where one sent them (`compose_pair_why`); where or when an act between them happened
(`compose_pair_act`); whether something passed between them (`compose_whether`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.text import normalize, to_simplified
from kb.answering.coverage import Coverage, _forms, best_sentences
from kb.answering.drafting import (
    MIN_RECORD_COVERAGE,
    Ctx,
    Draft,
    Writer,
    account_of,
    asked_acts,
    best_record,
    cite,
    first_quote,
    record_quote,
    role_form_chars,
    short,
)
from kb.answering.refusals import not_stated
from kb.knowledge.importance import spread_pick
from kb.knowledge.language import language
from kb.knowledge.models import Event, Record, Relation
from kb.knowledge.views import EventView, Pair, RelationView

CAUSE_EVENTS = 2
CAUSE_CHAPTERS = 8
"""Why: the events of the same people at most this many chapters before the asked one."""
MAX_PAIR_RELATIONS = 3
MAX_PAIR_EVENTS = 3
"""A pair answer lists its most specific relations and the shared events that matter most, spread
over the book (the last included); the rest are counted."""
RELATION_CHARS = 50
GENERIC_TYPES = frozenset({"acquaintance", "colleague", "ally"})
"""Relation types that say little; listed after the specific ones."""
KIN_TYPES = frozenset({"parent_child", "spouse", "siblings", "sworn_brothers", "family",
                       "in_law", "father_in_law"})
"""Ties of blood, marriage and oath: what two people are to each other before any post or
deed (a foster son before an officer), so listed first in a book built from its text alone,
where relations come in no reader's order (a curated book keeps its records' order)."""


def has_story(ctx: Ctx) -> bool:
    """The two have relations or shared events on record: else no pair answer is given."""
    pair = ctx.g.pair
    return pair is not None and bool(pair.relations or pair.shared_events)


def relation_line(ctx: Ctx, pair: Pair, rel: RelationView) -> tuple[str, tuple[str, str] | None]:
    arrow = ctx.say("arrow.directed" if rel.directed else "arrow.both")
    began = rel.sources[0].chapter if rel.sources and rel.sources[0].chapter is not None else None
    since = ctx.say("relation.since", chapter=began) if began is not None else ""
    return (ctx.say("relation.line", source=ctx.name(rel.source), arrow=arrow,
                    target=ctx.name(rel.target), label=ctx.label(rel.type, rel.label), since=since,
                    told=short(rel.description, RELATION_CHARS)), first_quote(rel.sources))


def ordered_relations(pair: Pair, chosen: set[str], kin_first: bool = False) -> list[RelationView]:
    """The chosen relations (else all), the specific before the generic (stable: by first
    chapter); `kin_first`: ties of kin before the other specific ones (`KIN_TYPES`)."""
    relations = [r for r in pair.relations if r.id in chosen] or list(pair.relations)
    return sorted(relations, key=lambda r: (r.type in GENERIC_TYPES,
                                            kin_first and r.type not in KIN_TYPES))


def first_event(pair: Pair) -> EventView | None:
    """The shared event where their story begins: the one that holds the pair's first-met
    passage, else the first one quoting the same block (a relation's first source and the
    event of that scene quote different lines of it); None when no shared event tells that
    passage (an old friendship named chapters before they meet on the page: the story begins
    there, not at the later event)."""
    met = pair.first_met
    if met is not None:
        for event in pair.shared_events:
            if any(s.chunk_id == met.chunk_id and s.quote == met.quote for s in event.sources):
                return event
        return next((e for e in pair.shared_events if met.chunk_id is not None
                     and any(s.chunk_id == met.chunk_id for s in e.sources)), None)
    return pair.shared_events[0] if pair.shared_events else None


def compose_pair(ctx: Ctx, began: bool = False) -> Draft:
    """What the two are to each other and where it began; then the relations, each with the
    chapter it began in; then the shared events that matter, in book order, the rest counted.
    `began`: asked where or when they met, that comes first."""
    g = ctx.g
    pair = g.pair
    assert pair is not None
    a, b = ctx.name(pair.a.id), ctx.name(pair.b.id)
    chosen = {r.id for r in g.plan_records}
    relations = ordered_relations(pair, chosen, not ctx.book.curated)[:MAX_PAIR_RELATIONS]
    labels = ctx.say("sep.list").join(dict.fromkeys(ctx.label(r.type, r.label) for r in relations))
    first = first_event(pair)
    w = Writer()
    scene = asked_scene(ctx, pair)
    asked = asked_relation(ctx, relations) if scene is None else None
    if scene is not None:  # 甲和乙是怎么占了某山的: the scene of that answers first
        w.add(ctx.say("pair.scene", chapter=scene.chapter, title=scene.title,
                      told=short(scene.summary, SCENE_CHARS)), first_quote(scene.sources))
    if asked is not None:  # 甲和乙是怎么成亲的: that relation (with its first quote) answers first
        line, quote = relation_line(ctx, pair, asked)
        w.add(line.removeprefix(ctx.say("item")), quote)
    lead = ctx.say("pair.lead", a=a, b=b, labels=labels) if labels else ctx.say("pair.lead_bare", a=a, b=b)
    met = pair.first_met
    start = first.chapter if first is not None else met.chapter if met is not None else None
    asked_start = began or ctx.plan.moment == "began"
    if ctx.plan.asks == "where" and asked_start and first is not None and first.place:
        lead = ctx.say("pair.met_at", place=first.place, chapter=first.chapter) + lead  # 在哪里遇到
    elif ctx.plan.asks in ("chapter", "when", "where") and asked_start and start is not None:
        lead = ctx.say("pair.met_in", chapter=start) + lead  # 第一次见面是在哪一回: the chapter first
    if first is not None:
        place = ctx.say("pair.began_place", place=first.place) if first.place else ""
        lead += ctx.say("pair.began", chapter=first.chapter, place=place, title=first.title)
    elif met is not None and met.chapter is not None:
        lead += ctx.say("pair.began_bare", chapter=met.chapter)
    if asked_start and first is not None:
        lead += short(first.summary, 90)
        w.add(lead, first_quote(first.sources))
    elif asked_start and met is not None:
        w.add(lead, first_quote([met]))
    elif ctx.plan.moment == "ended" and pair.shared_events:
        last = pair.shared_events[-1]
        lead += ctx.say("pair.ended", chapter=last.chapter, title=last.title,
                        told=short(last.summary, 90))
        w.add(lead, first_quote(last.sources))
    else:
        w.add(lead)
    for rel in relations:
        if rel is not asked:
            line, quote = relation_line(ctx, pair, rel)
            w.add(line, quote)
    events = key_events(ctx, pair)
    if events:
        w.add(ctx.say("pair.key_events"))
    for event in events:
        turn = ctx.say("pair.turn") if event.turning_point else ""
        w.add(ctx.say("pair.event", chapter=event.chapter, title=event.title, turn=turn,
                      told=short(event.summary)), first_quote(event.sources))
    _left(ctx, w, pair, len(events), len(relations))
    return w.draft()


def _left(ctx: Ctx, w: Writer, pair: Pair, events: int, relations: int) -> None:
    """What the pair answer leaves out, counted, with the command that shows it all."""
    left_events = len(pair.shared_events) - events
    left_relations = len(pair.relations) - relations
    left = [ctx.say("pair.left_events", n=left_events) if left_events else "",
            ctx.say("pair.left_relations", n=left_relations) if left_relations else ""]
    if left_events or left_relations:
        w.add(ctx.say("pair.left", left=ctx.say("sep.list").join(x for x in left if x),
                      a=pair.a.name, b=pair.b.name))


def key_events(ctx: Ctx, pair: Pair) -> list[EventView]:
    """At most `MAX_PAIR_EVENTS` shared events, in book order: those that hold the question's own
    words first (甲和乙是怎么占了某山的: the scenes of that), then the pair's key events (the
    store chose them, spread over the book): the first, the last, the turning points between."""
    weights = ctx.weights()
    covered = Coverage(weights, {t: _forms(t, ctx.book.profile.wordings) for t in weights})
    asked = sorted((e for e in pair.shared_events
                    if weights and covered(to_simplified(f"{e.title}{e.place or ''}{e.summary}"))
                    >= MIN_RECORD_COVERAGE),
                   key=lambda e: -covered(to_simplified(f"{e.title}{e.place or ''}{e.summary}")))
    key = set(pair.key_events)
    events = [e for e in pair.shared_events if e.id in key] or pair.shared_events[:1]
    if len(events) > MAX_PAIR_EVENTS:  # the first, the last, the turning points far from them
        picked = spread_pick([e.chapter for e in events],
                             [2.0 * e.turning_point + 1.0 * e.headline for e in events],
                             MAX_PAIR_EVENTS, EVENTS_SPREAD, 2.0, keep=(0, len(events) - 1))
        events = [events[i] for i in sorted(picked)]
    last = pair.shared_events[-1:]  # where their story ends is always told
    chosen = list({e.id: e for e in [*asked[:MAX_PAIR_EVENTS - 1], *last, *events]}.values())
    return sorted(chosen[:MAX_PAIR_EVENTS], key=lambda e: e.order)


EVENTS_SPREAD = 20
"""Chapters apart at which two of a pair's key events no longer crowd each other."""
SCENE_CHARS = 90
SCENE_COVERAGE = 0.6
"""A shared scene answers a pair question first when it holds this share of the question's own
words (title, place and account)."""


def asked_scene(ctx: Ctx, pair: Pair) -> EventView | None:
    """The shared event a pair question asks about by its content words, when one holds most of
    them (the best one; ties: the earliest)."""
    if not ctx.plan.focus or ctx.plan.asks not in ("how", "what", "relation"):
        return None
    weights = ctx.weights()
    covered = Coverage(weights, {t: _forms(t, ctx.book.profile.wordings) for t in weights})
    scored = [(covered(to_simplified(f"{e.title}{e.place or ''}{e.summary}")), -e.order, e)
              for e in pair.shared_events]
    best = max(scored, key=lambda s: (s[0], s[1]), default=None)
    return best[2] if best is not None and best[0] >= SCENE_COVERAGE else None


def asked_relation(ctx: Ctx, relations: Sequence[RelationView]) -> RelationView | None:
    """The relation a pair question asks about by its content words (成亲 → 夫妻): the first
    whose label or account holds a focus word or the novel's wording of one."""
    words = [w for f in ctx.plan.focus for w in _forms(f, ctx.book.profile.wordings) if len(w) >= 2]
    if not words:
        return None
    return next((r for r in relations
                 if any(w in r.label or w in r.description for w in words)), None)




def compose_pair_why(ctx: Ctx) -> Draft:
    """Why, of two people: the pair's record that holds the most of the question. When its
    account gives a reason (`CAUSE_MARKS`) it is the answer, the events before it follow; when
    it tells only the act, the events that led there (`causes_of`) come first, the earliest as the
    answer, then the act. Then the relations."""
    g = ctx.g
    pair = g.pair
    assert pair is not None
    weights = ctx.weights()
    records: list[Record] = [r for r in g.plan_records if isinstance(r, Event | Relation)]
    top = best_record(ctx, weights, records)
    record = top[1] if top is not None and top[0] >= MIN_RECORD_COVERAGE else named_act(ctx, records)
    if record is None:
        return compose_pair(ctx)
    w = Writer()
    anchor = act_event(ctx, record, weights)
    causes = causes_of(ctx, pair, record, anchor) if anchor is not None else []
    account = account_of(ctx, record)
    # the language's cause marks: a record's account gives a reason, not only the act (要挟)
    if causes and not any(mark in account for mark in language().words_of("cause_marks")):
        # the record tells the act only: the cause first, then what followed, then the act
        first, *rest = causes
        w.add(ctx.say("why.cause", chapter=first.chapter, title=first.title,
                      told=short(first.summary, 90)), record_quote(first))
        for event in rest:
            w.add(ctx.say("why.then", chapter=event.chapter, title=event.title,
                          summary=short(event.summary)),
                  record_quote(event))
        w.add(ctx.say("why.so", account=account), record_quote(record))
    else:
        w.add(ctx.say("why.because", account=account), record_quote(record))
        for event in causes:
            w.add(ctx.say("why.before", chapter=event.chapter, title=event.title,
                          summary=short(event.summary)),
                  record_quote(event))
    for rel in ordered_relations(pair, {r.id for r in g.plan_records}):
        if rel.id != record.id and rel.type not in GENERIC_TYPES:
            line, quote = relation_line(ctx, pair, rel)
            w.add(line, quote)
    return w.draft()


def pair_act_event(ctx: Ctx) -> Event | None:
    """The scene of the one-character act a pair question asks where or when of (甲在哪里杀了乙):
    of the scenes their relation whose label holds the act (杀死, 救命) cites, the one that tells
    the relation's first quote (the act itself), else the first whose title holds the act, else
    the first; without such a relation, their first shared event whose title holds it."""
    acts = asked_acts(ctx) - role_form_chars()
    if not acts:
        return None
    records = ctx.g.plan_records
    by_id = {r.id: r for r in records if isinstance(r, Event)}
    for relation in (r for r in records if isinstance(r, Relation) and acts & set(r.label)):
        cited = sorted((by_id[e] for e in relation.events if e in by_id), key=lambda e: e.order)
        first = relation.sources[0].chunk_id if relation.sources else None
        told = [e for e in cited if any(s.chunk_id == first for s in e.sources)]
        titled = [e for e in cited if acts & set(e.title)]
        if told or titled or cited:
            return (told or titled or cited)[0]
    return next((e for e in records if isinstance(e, Event) and acts & set(e.title)), None)


def compose_pair_act(ctx: Ctx, act: Event) -> Draft:
    """Where or when the asked act between the two happened: the scene's place and chapter, its
    account, then the pair's relations."""
    w = Writer()
    place = ctx.say("act.at", place=act.place, chapter=act.chapter, title=act.title) \
        if act.place else ""
    lead = place if ctx.plan.asks == "where" and place else ctx.say(
        "act.in", chapter=act.chapter, title=act.title)
    w.add(f"{lead}{short(act.summary, 90)}", record_quote(act))
    pair = ctx.g.pair
    if pair is not None:
        for rel in ordered_relations(pair, {r.id for r in ctx.g.plan_records}):
            if rel.type not in GENERIC_TYPES:
                line, quote = relation_line(ctx, pair, rel)
                w.add(line, quote)
    return w.draft()


def act_event(ctx: Ctx, record: Record, weights: dict[str, float]) -> Event | None:
    """The event of the asked act: the record itself, or among the events a relation cites, the
    one that holds the most of the question (the last one when none holds any)."""
    if isinstance(record, Event):
        return record
    if not isinstance(record, Relation):
        return None
    by_id = {r.id: r for r in ctx.g.plan_records if isinstance(r, Event)}
    cited: list[Record] = [by_id[e] for e in record.events if e in by_id]
    both = ctx.g.pair.scenes_of_both() if ctx.g.pair is not None else set()
    cited = [e for e in cited if e.id in both] or cited  # the act itself, not its aftermath
    top = best_record(ctx, weights, cited)
    if top is not None and top[0] > 0 and isinstance(top[1], Event):
        return top[1]
    events = [e for e in cited if isinstance(e, Event)]
    return max(events, key=lambda e: e.order) if events else None


def causes_of(ctx: Ctx, pair: Pair, record: Record, act: Event) -> list[Event]:
    """What came before the act: where a third person's plan sent one to act on the other, that
    lead-up (`lead_up`: 丙 proposes stealing 乙's armour to lure him, 丁 sends 甲); else the last
    `CAUSE_EVENTS` + 1 of the pair's shared events just before it and the turning points of the
    one acted on (a directed relation's target, else both) within `CAUSE_CHAPTERS` — 甲杀乙: 乙
    poisoning 甲's brother two chapters earlier, a scene 甲 was not at."""
    lead = lead_up(ctx, pair, act)
    if lead:
        return lead

    def near(e: Event) -> bool:
        return e.order < act.order and act.chapter - e.chapter <= CAUSE_CHAPTERS

    shared = pair.scenes_of_both()  # not the scenes a relation only cites
    acted_on = [record.target] if isinstance(record, Relation) and record.directed \
        else [pair.a.id, pair.b.id]
    found: dict[str, Event] = {}
    names = {pid: [n for n in map(to_simplified, ctx.people.people[pid].all_names) if len(n) >= 2]
             for pid in (pair.a.id, pair.b.id) if pid in ctx.people.people}
    for pid, timeline in ctx.g.timelines.items():
        events = [e for e in timeline.events if near(e)]
        found.update({e.id: e for e in events if e.id in shared})
        other = [n for o, ns in names.items() if o != pid for n in ns] if pid in names else []
        # 甲 hears that 乙 did something (丙诉说乙夺女): a scene of one that is about the other
        found.update({e.id: e for e in events if other and any(n in e.title for n in other)})
        if pid in acted_on:
            turning = [e for e in events if e.turning_point and e.id not in shared]
            found.update({e.id: e for e in turning[-CAUSE_EVENTS:]})
    return sorted(found.values(), key=lambda e: e.order)[-(CAUSE_EVENTS + 1):]


LEAD_UP_CHAPTERS = 1
"""The lead-up to an act is looked for in its chapter and this many before it."""


def lead_up(ctx: Ctx, pair: Pair, act: Event) -> list[Event]:
    """When a scene just before the act (its chapter or the one before) that neither of the two
    takes part in has a title naming one of them — a plan made about them (丙荐乙) — the last
    `CAUSE_EVENTS` + 1 curated scenes there that one of them is in or that are such a plan;
    otherwise none (a summary naming them in passing is no plan)."""
    ids = {pair.a.id, pair.b.id}
    names = [n for pid in ids for n in map(to_simplified, ctx.people.people[pid].all_names)
             if len(n) >= 2]
    lead = []
    for chapter in range(act.chapter - LEAD_UP_CHAPTERS, act.chapter + 1):
        for event in ctx.book.chapter_events.get(chapter, ()):
            if event.order >= act.order or not ctx.book.told(event):
                continue
            taking_part = any(p.person in ids for p in event.participants)
            if taking_part or any(n in event.title for n in names):
                lead.append((taking_part, event))
    lead = lead[-(CAUSE_EVENTS + 1):]
    return [] if all(taking_part for taking_part, _ in lead) else [e for _, e in lead]


def named_act(ctx: Ctx, records: Sequence[Record]) -> Record | None:
    """When the question's only content is the act between the two (甲为什么杀了乙: no word of
    two characters to weigh), the pair's relation whose label names that act, else the first
    shared event whose title does."""
    acts = asked_acts(ctx)
    if not acts:
        return None
    for kind in (Relation, Event):
        for record in records:
            said = record.label if isinstance(record, Relation) else getattr(record, "title", "")
            if isinstance(record, kind) and acts & set(said):
                return record
    return None


def compose_whether(ctx: Ctx) -> Draft:
    """Whether something passed between two people (甲有没有娶乙为妻): answered only when one
    of their records holds what is asked; else the book does not say so."""
    g = ctx.g
    records: list[Record] = [r for r in g.plan_records if isinstance(r, Event | Relation)]
    top = best_record(ctx, ctx.weights(), records)
    reason = not_stated(ctx.plan, top[0] if top else 0.0)
    if reason or top is None:
        return Draft("insufficient", "", ctx.say("end", text=reason or ctx.say("whether.none")))
    w = Writer()
    w.add(ctx.say("whether.yes", account=account_of(ctx, top[1])), record_quote(top[1]))
    return w.draft()


def with_passages(draft: Draft, ctx: Ctx) -> Draft:
    """A pair question that also asks something specific gets the sentences that answer it."""
    weights = ctx.weights()
    best = [b for b in best_sentences(ctx.g.packed, ctx.block_of, weights, ctx.book.profile.wordings,
                                      limit=2) if b[0] >= MIN_RECORD_COVERAGE]
    if draft.status != "answered" or not weights or not best:
        return draft
    quoted = [normalize(q[0]) for q in draft.quotes]
    fresh = [(s, c) for _, s, c in best if not any(q in normalize(s) for q in quoted)]
    if fresh:
        item = ctx.say("item")
        draft.answer += ctx.say("passages") + "\n".join(f"{item}{cite(q)}" for q in fresh)
        draft.quotes += fresh
    return draft
