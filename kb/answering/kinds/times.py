"""How many times someone did something (甲一共打了几次某庄): the chapters whose title (回目) or
whose events of theirs hold the act and its object, counted — the book's own telling of each
time, not the first number a messenger says while the story still goes on."""

from __future__ import annotations

from core.text import to_simplified
from kb.answering.drafting import Ctx, Draft, Writer, record_quote
from kb.answering.kinds import Kind
from kb.answering.numerals import numeral_of
from kb.answering.plan import Plan
from kb.knowledge.language import language
from kb.knowledge.models import Event


def detect(plan: Plan) -> bool:
    unit = plan.detail.unit
    return plan.asks == "how_many" and unit is not None and unit in language().chars.times \
        and plan.detail.act is not None and len(plan.person_ids) <= 2


def compose(ctx: Ctx) -> Draft | None:
    act = ctx.plan.detail.act or ""
    unit = ctx.plan.detail.unit or ""
    objects = [w.removeprefix(unit) for w in ctx.plan.focus if len(w.removeprefix(unit)) >= 2]
    objects += [ctx.name(p) for p in ctx.plan.person_ids[1:]]  # 甲打了几次乙: 乙
    if not objects:
        return None

    def tells(text: str) -> bool:
        text = to_simplified(text)
        return act in text and all(o in text for o in objects)

    titled = {n: t for n, t in ctx.book.titles.titles.items() if tells(t)}
    events: dict[int, Event] = {}
    for person_id in ctx.plan.person_ids[:1]:
        timeline = ctx.g.timelines.get(person_id)
        for told in timeline.events if timeline else ():
            if tells(told.title):
                events.setdefault(told.chapter, told)
    chapters = sorted({*titled, *events})
    if not chapters:
        return None
    w = Writer()
    w.add(ctx.say("times.lead", n=numeral_of(len(chapters)), unit=unit,
                  chapters=ctx.say("sep.list").join(str(c) for c in chapters)))
    for chapter in chapters:
        event = events.get(chapter)
        heading = language().patterns.chapter_heading.sub("", titled.get(chapter, ""))
        title = heading or (event.title if event else "")
        w.add(ctx.say("times.item", chapter=chapter, title=title),
              record_quote(event) if event else None)
    return w.draft()


KIND = Kind("times", 89, detect, compose)
