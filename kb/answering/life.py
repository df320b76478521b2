"""Answers about one person's life: their journey stage by stage, how they came to a band, how it
ended (the fate state), whom they did the asked act to, who killed them, their last words, and
how their story began."""

from __future__ import annotations

from collections.abc import Sequence

from core.text import normalize, to_simplified
from ingest.chunking import chunk_id as block_id_of
from kb.answering.answer_models import StageNote
from kb.answering.drafting import (
    Ctx,
    Draft,
    Writer,
    asked_acts,
    bigrams,
    first_quote,
    record_quote,
    role_form_chars,
    scene_item,
    short,
)
from kb.answering.fact import compose_fact
from kb.answering.fact_lead import who_answers
from kb.answering.joining import road_to_band
from kb.answering.quotes import sentences
from kb.answering.records import actor_record, suffered
from kb.knowledge.language import language
from kb.knowledge.models import Event, State

MAX_QUOTE_CHARS = 80
"""Longer sentences (rosters, verses) are not offered as quotes beside records."""


MAX_STAGE_EVENTS = 3
STAGE_CHARS = 30
"""A journey stage is told in its key events' titles (the rest counted) and this much of its
title event's account."""
"""Event titles named in one stage's paragraph; the rest are counted."""


def stage_note(ctx: Ctx, titles: Sequence[str], states: Sequence[str], others: int) -> str:
    sep = ctx.say("sep.items")
    named = sep.join(titles[:MAX_STAGE_EVENTS]) or sep.join(states)
    more = others + max(0, len(titles) - MAX_STAGE_EVENTS)
    return named + (ctx.say("more_things", n=more) if more > 0 else "")


def compose_journey(ctx: Ctx) -> Draft:
    """One paragraph per stage, in order: its chapters and place, its key events, the rest
    counted, a quote. A follow-up (`after` a chapter) keeps the stages that go on past it."""
    g = ctx.g
    assert g.journey is not None
    after = g.after
    person = ctx.name(g.journey.person.id)
    all_stages = g.journey.stages
    later = [s for s in all_stages if after is not None and s.chapters and max(s.chapters) > after]
    shown = later or all_stages
    if not shown:
        return Draft("insufficient", "", ctx.say("journey.none", person=person))
    w = Writer()
    first, last = shown[0], shown[-1]
    since = ctx.say("journey.since", chapter=after) if later else ""
    w.add(ctx.say("journey.lead", person=person, since=since, n=len(shown), first=first.title,
                  first_span=ctx.span(first.chapters), last=last.title,
                  last_span=ctx.span(last.chapters)))
    stages = []
    for i, stage in enumerate(shown, start=1):
        note = stage_note(ctx, [e.title for e in stage.events], [s.value for s in stage.states],
                          stage.other_events)
        stage_quotes = [q for q in (first_quote([s]) for s in stage.sources[:2]) if q]
        place = ctx.say("journey.place", place=stage.place) if stage.place else ""
        # what happens: the stage's title event (the 12th stage of a hero is his death, not the
        # dream that opens its chapter), else its first key event
        top = next((e for e in stage.events if e.title == stage.title),
                   stage.events[0] if stage.events else None)
        told = ctx.say("told", text=short(top.summary, STAGE_CHARS)) if top is not None and top.summary \
            else ""
        stages.append(StageNote(title=stage.title, chapters=stage.chapters, note=note))
        w.add(ctx.say("journey.stage", i=i, title=stage.title, span=ctx.span(stage.chapters),
                      place=place, told=told, note=note),
              stage_quotes[0] if stage_quotes else None)
        w.quotes += stage_quotes[1:]
    return w.draft(stages)


def compose_joining(ctx: Ctx, person_id: str) -> Draft | None:
    """Where the person joined the asked band, then the road there in book order (rules in
    kb.answering.joining); None when their records do not say they joined it."""
    timeline = ctx.g.timelines.get(person_id)
    road = road_to_band(timeline, ctx.plan.detail.joining or "") if timeline else None
    if road is None:
        return None
    w = Writer()
    joined = road.joined
    what, told = ((joined.value, joined.description) if isinstance(joined, State)
                  else (joined.title, joined.summary))
    w.add(ctx.say("joining.lead", name=ctx.name(person_id), chapter=joined.chapter, what=what,
                  told=short(told, 90)), record_quote(joined))
    if road.steps:
        w.add(ctx.say("joining.road"))
    for event in road.steps:
        w.add(scene_item(ctx, event), record_quote(event))
    return w.draft()


def last_status(ctx: Ctx, person_id: str) -> tuple[State | None, list[Event]]:
    """A person's last status state and their last events."""
    timeline = ctx.g.timelines.get(person_id)
    if timeline is None:
        return None, []
    statuses = [s for s in timeline.states if s.kind == "status"]
    return (statuses[-1] if statuses else None), timeline.events[-2:]


def compose_fate(ctx: Ctx, person_ids: Sequence[str]) -> Draft:
    """How it ended: each person's last status state (death, departure …), then their last
    events with quotes."""
    w = Writer()
    events: dict[str, Event] = {}
    for person_id in person_ids:
        status, last = last_status(ctx, person_id)
        name = ctx.name(person_id)
        if status is not None:
            w.add(ctx.say("fate.lead", name=name, chapter=status.chapter, value=status.value,
                          told=short(status.description, 90)), record_quote(status))
        elif last:
            w.add(ctx.say("fate.last_event", name=name, chapter=last[-1].chapter,
                          title=last[-1].title))
        events.update({e.id: e for e in last})
    if not w.lines:
        return compose_fact(ctx)
    for event in sorted(events.values(), key=lambda e: e.order):
        w.add(scene_item(ctx, event), record_quote(event))
    return w.draft()


MAX_WHOM = 12


def done_to(ctx: Ctx, person_id: str) -> list[tuple[str, Event]]:
    """The people the named person did the asked act to (甲杀了谁 → each 被杀者 of the events
    where 甲's own role holds 杀), first time each, in book order."""
    timeline = ctx.g.timelines.get(person_id)
    acts = asked_acts(ctx) - role_form_chars()
    if timeline is None or not acts:
        return []
    done: dict[str, Event] = {}
    events = [e for e in timeline.events
              if any(p.person == person_id and acts & set(p.role) for p in e.participants)]
    where = bigrams(ctx.plan.focus)
    there = [e for e in events if any(b in f"{e.title}{e.place or ''}" for b in where)]
    for event in there or events:  # 在鸳鸯楼杀了哪些人: the scene the question names
        for p in event.participants:
            if p.person != person_id and p.person not in done and suffered(p.role, acts):
                done[p.person] = event
    if not done and ctx.plan.detail.meeting:
        # 甲在某处遇到了谁: everyone in 甲's scenes at the place the question names
        for event in (e for e in timeline.events
                      if any(b in f"{e.title}{e.place or ''}" for b in where)):
            for p in event.participants:
                if p.person != person_id and p.person not in done:
                    done[p.person] = event
    return list(done.items())


def compose_done_to(ctx: Ctx, person_id: str, done: Sequence[tuple[str, Event]]) -> Draft:
    """Whom the person did the asked act to, each with where, in book order, the rest counted."""
    w = Writer()
    shown = done[:MAX_WHOM]
    said = ctx.say("sep.list").join(ctx.say("whom.one", name=ctx.name(p), chapter=e.chapter)
                                    for p, e in shown)
    more = ctx.say("whom.more" if len(done) > len(shown) else "whom.all", n=len(done))
    w.add(ctx.say("whom.lead", said=said, more=more))
    for event in {e.id: e for _, e in shown}.values():
        w.add(scene_item(ctx, event), record_quote(event))
    return w.draft()


LAST_WORDS_SPAN = 4
"""Sentences before the death's own quote searched for the last speech (from its opening 「), and
sentences taken after a 颂曰 / 曰 that follows it."""


VERSE_REACH = 8
"""Characters after the death's quote within which a 颂曰 / 曰 opens what was written."""


def compose_last_words(ctx: Ctx, person_id: str) -> Draft:
    """甲死前说了什么: the speech just before the passage of the death (the sentences before the
    death state's quote in its block that hold a 「 or a 道), then the death itself."""
    status, _ = last_status(ctx, person_id)
    chars = language().chars
    quote = record_quote(status) if status is not None and chars.dead in status.value else None
    block = ctx.block_of(quote[1]) if quote else None
    if status is None or quote is None or block is None:
        return compose_fate(ctx, [person_id])
    said = sentences(block.text)
    at = next((i for i, sentence in enumerate(said) if quote[0] in sentence), None)
    if at is None:
        return compose_fate(ctx, [person_id])
    starts = [i for i in range(max(0, at - LAST_WORDS_SPAN), at) if "「" in said[i]]
    spoken = [(x, block.id) for x in said[starts[-1]:at]] if starts else []
    rest = block.text[block.text.find(quote[0]) + len(quote[0]):]
    if chars.verse_said in rest[:VERSE_REACH]:  # 颂曰: what was written follows the death
        written = [(x, block.id) for x in said[at + 1:]]
        after = ctx.block_of(block_id_of(block.chapter, block.index + 1)) if not written else None
        written += [(x, after.id) for x in sentences(after.text)] if after else []
        spoken = written[:LAST_WORDS_SPAN] or spoken
    if not spoken:
        return compose_fate(ctx, [person_id])
    joined = [spoken[0]]
    for text, chunk_id in spoken[1:]:  # sentences that follow each other are one quote
        last, last_id = joined[-1]
        whole = ctx.block_of(chunk_id)
        if chunk_id == last_id and whole is not None and last + text in whole.text:
            joined[-1] = (last + text, chunk_id)
        else:
            joined.append((text, chunk_id))
    w = Writer()
    w.add(ctx.say("last_words.lead", name=ctx.name(person_id), chapter=status.chapter), joined[0])
    for sentence in joined[1:]:
        w.add(ctx.say("item"), sentence)
    w.add(_fate_item(ctx, person_id, status), quote)
    return w.draft()


def compose_killer(ctx: Ctx, person_id: str) -> Draft:
    """甲被谁害死的: the hand in the person's death, not whoever wronged them once (a framing
    chapters before is 陷害, not the death). The events of the death's chapter (and the one
    before) in which the person is acted on are asked who acted; with no one named there, the
    death itself is the answer (shot from a city wall: the book names no archer), or the people
    its record names."""
    status, _ = last_status(ctx, person_id)
    timeline = ctx.g.timelines.get(person_id)
    lang = language()
    if status is None or lang.chars.dead not in status.value or timeline is None:
        return compose_fact(ctx)
    dying_roles, agent_marks = lang.words_of("dying_role"), lang.words_of("agent_mark")
    dying = [e for e in timeline.events if status.chapter - 1 <= e.chapter <= status.chapter
             and any(p.person == person_id and any(m in p.role for m in dying_roles)
                     for p in e.participants)]
    event = actor_record(ctx, dying[::-1])
    w = Writer()
    if event is not None:
        w.add(ctx.say("killer.lead", who=who_answers(ctx, event, []), chapter=event.chapter,
                      title=event.title, told=short(event.summary, 90)), record_quote(event))
    else:
        value = to_simplified(status.value)
        told = [pid for pid, written in ctx.people.find(value) if pid != person_id
                and any(f"{mark}{to_simplified(written)}" in value for mark in agent_marks)]
        if not told:
            return compose_fate(ctx, [person_id])
        who = ctx.say("sep.list").join(dict.fromkeys(ctx.name(t) for t in told))
        w.add(ctx.say("killer.state", who=who, chapter=status.chapter, value=status.value),
              record_quote(status))
    w.add(_fate_item(ctx, person_id, status), record_quote(status))
    return w.draft()


def compose_temporal(ctx: Ctx) -> Draft:
    """How it began: the earliest events of the person, in book order, each with its quote, and
    the block's first sentence that names the person when the event's quote does not."""
    persons = [ctx.people.people[p] for p in ctx.plan.person_ids]
    keys = [k for p in persons for k in {normalize(n) for n in p.all_names} if len(k) >= 2]
    w = Writer()
    first = ctx.g.temporal[0]
    w.add(ctx.say("began.lead", names=ctx.say("sep.list").join(ctx.name(p.id) for p in persons),
                  chapter=first.chapter, title=first.title, told=short(first.summary)))
    for event in ctx.g.temporal:
        q = record_quote(event)
        w.add(ctx.say("scene.title_item", chapter=event.chapter, title=event.title), q)
        block = ctx.block_of(q[1]) if q else None
        if q and block and not any(k in normalize(q[0]) for k in keys):
            named = next((s for s in sentences(block.text) if len(s) <= MAX_QUOTE_CHARS
                          and any(k in normalize(s) for k in keys)), None)
            if named:
                w.add(ctx.say("indent"), (named, block.id))
    return w.draft()


def _fate_item(ctx: Ctx, person_id: str, status: State) -> str:
    return ctx.say("fate.item", name=ctx.name(person_id), chapter=status.chapter,
                   value=status.value, told=short(status.description, 90))
