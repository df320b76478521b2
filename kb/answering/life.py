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
    chapter_span,
    first_quote,
    record_quote,
    role_form_chars,
    short,
)
from kb.answering.evidence import Evidence
from kb.answering.fact import compose_fact
from kb.answering.fact_lead import who_answers
from kb.answering.joining import road_to_band
from kb.answering.quotes import sentences
from kb.answering.records import actor_record, suffered
from kb.knowledge.language import language
from kb.knowledge.models import Event, State

MAX_QUOTE_CHARS = 80
"""Longer sentences (rosters, verses) are not offered as quotes beside records."""


MAX_STAGE_EVENTS = 6
"""Event titles named in one stage's paragraph; the rest are counted."""


def stage_note(titles: Sequence[str], states: Sequence[str], others: int) -> str:
    named = "；".join(titles[:MAX_STAGE_EVENTS]) or "；".join(states)
    more = others + max(0, len(titles) - MAX_STAGE_EVENTS)
    return named + (f"；另有 {more} 件事" if more > 0 else "")


def compose_journey(g: Evidence) -> Draft:
    """One paragraph per stage, in order: its chapters and place, its key events, the rest
    counted, a quote. A follow-up (`after` a chapter) keeps the stages that go on past it."""
    assert g.journey is not None
    after = g.after
    person = g.journey.person.name
    all_stages = g.journey.stages
    later = [s for s in all_stages if after is not None and s.chapters and max(s.chapters) > after]
    shown = later or all_stages
    if not shown:
        return Draft("insufficient", "", f"书中（知识库中）没有{person}的经历。")
    w = Writer()
    first, last = shown[0], shown[-1]
    since = f"第{after}回以后，" if later else ""
    w.add(f"{person}{since}的经历分{len(shown)}个阶段：从“{first.title}”"
          f"（{chapter_span(first.chapters)}）到“{last.title}”（{chapter_span(last.chapters)}）。")
    stages = []
    for i, stage in enumerate(shown, start=1):
        note = stage_note([e.title for e in stage.events], [s.value for s in stage.states],
                           stage.other_events)
        stage_quotes = [q for q in (first_quote([s]) for s in stage.sources[:2]) if q]
        place = f"，{stage.place}" if stage.place else ""
        # what happens: the stage's title event (the 12th stage of a hero is his death, not the
        # dream that opens its chapter), else its first key event
        top = next((e for e in stage.events if e.title == stage.title),
                   stage.events[0] if stage.events else None)
        told = f"{short(top.summary, 50)}。" if top is not None and top.summary else ""
        stages.append(StageNote(title=stage.title, chapters=stage.chapters, note=note))
        w.add(f"{i}. {stage.title}（{chapter_span(stage.chapters)}{place}）：{told}{note}。",
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
    w.add(f"{ctx.name(person_id)}第{joined.chapter}回{what}：{short(told, 90)}。",
          record_quote(joined))
    if road.steps:
        w.add("经过（按书中顺序）：")
    for event in road.steps:
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
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
            w.add(f"{name}的结局（第{status.chapter}回）：{status.value}。"
                  f"{short(status.description, 90)}", record_quote(status))
        elif last:
            w.add(f"{name}最后的事（第{last[-1].chapter}回）：{last[-1].title}。")
        events.update({e.id: e for e in last})
    if not w.lines:
        return compose_fact(ctx)
    for event in sorted(events.values(), key=lambda e: e.order):
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
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
    said = "、".join(f"{ctx.name(p)}（第{e.chapter}回）" for p, e in shown)
    more = f"等{len(done)}人" if len(done) > len(shown) else f"，共{len(done)}人"
    w.add(f"{said}{more}。")
    for event in {e.id: e for _, e in shown}.values():
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
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
    w.add(f"{ctx.name(person_id)}临终（第{status.chapter}回）：", joined[0])
    for sentence in joined[1:]:
        w.add("· ", sentence)
    w.add(f"· {ctx.name(person_id)}的结局（第{status.chapter}回）：{status.value}。"
          f"{short(status.description, 90)}", quote)
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
        w.add(f"{who_answers(ctx, event, [])}。（第{event.chapter}回 {event.title}）"
              f"{short(event.summary, 90)}", record_quote(event))
    else:
        value = to_simplified(status.value)
        told = [pid for pid, written in ctx.people.find(value) if pid != person_id
                and any(f"{mark}{to_simplified(written)}" in value for mark in agent_marks)]
        if not told:
            return compose_fate(ctx, [person_id])
        w.add(f"{'、'.join(dict.fromkeys(ctx.name(t) for t in told))}。（第{status.chapter}回 "
              f"{status.value}）", record_quote(status))
    w.add(f"· {ctx.name(person_id)}的结局（第{status.chapter}回）：{status.value}。"
          f"{short(status.description, 90)}", record_quote(status))
    return w.draft()


def compose_temporal(ctx: Ctx) -> Draft:
    """How it began: the earliest events of the person, in book order, each with its quote, and
    the block's first sentence that names the person when the event's quote does not."""
    persons = [ctx.people.people[p] for p in ctx.plan.person_ids]
    keys = [k for p in persons for k in {normalize(n) for n in p.all_names} if len(k) >= 2]
    w = Writer()
    first = ctx.g.temporal[0]
    w.add(f"{'、'.join(p.name for p in persons)}最早的事在第{first.chapter}回：{first.title}。"
          f"{short(first.summary)}")
    for event in ctx.g.temporal:
        q = record_quote(event)
        w.add(f"· 第{event.chapter}回 {event.title}", q)
        block = ctx.block_of(q[1]) if q else None
        if q and block and not any(k in normalize(q[0]) for k in keys):
            named = next((s for s in sentences(block.text) if len(s) <= MAX_QUOTE_CHARS
                          and any(k in normalize(s) for k in keys)), None)
            if named:
                w.add("  ", (named, block.id))
    return w.draft()
