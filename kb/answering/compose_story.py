"""Answers that tell a stretch of the book rather than a person: a chapter named by its number (its
summary and scenes), a chapter asked by its title (第几回), the course of a named campaign."""

from __future__ import annotations

from kb.answering.arcs import is_death
from kb.answering.compose_person import (
    DEEDS_SPREAD,
)
from kb.answering.coverage import best_sentences
from kb.answering.drafting import (
    Ctx,
    Draft,
    Writer,
    record_quote,
    scene_item,
    short,
)
from kb.knowledge.importance import spread_pick
from kb.knowledge.language import language
from kb.knowledge.profile import Arc

ARC_STORY_SCENES = 6
"""How many scenes of a campaign its course is told in; the rest are counted."""


def compose_arc_story(ctx: Ctx, arc: Arc) -> Draft | None:
    """How a named stretch of the story went: its turning points and headline scenes (all its
    scenes when it marks none) spread over its chapters, in book order, each with a quote."""
    scenes = [e for c in range(arc.first, arc.last + 1) for e in ctx.book.chapter_events.get(c, ())
              if ctx.book.told(e)]
    if not scenes:
        return None
    scores = [2.0 * e.turning_point + 2.0 * e.headline for e in scenes]
    picked = spread_pick([e.chapter for e in scenes], scores, ARC_STORY_SCENES, DEEDS_SPREAD, 1.0)
    w = Writer()
    w.add(ctx.say("arc.lead", name=arc.words[0], first=arc.first, last=arc.last))
    for i in picked:
        event = scenes[i]
        w.add(scene_item(ctx, event), record_quote(event))
    if len(scenes) > len(picked):
        w.add(ctx.say("arc.more", n=len(scenes) - len(picked)))
    return w.draft()


CHAPTER_SCENES = 4
"""How many of a chapter's scenes are told with their account and quote (the rest by title)."""


def compose_chapter_story(ctx: Ctx, chapter: int) -> Draft:
    """第N回讲了什么: the chapter's title and summary, then its scenes in book order by title, the
    turning points and headlines among them told with their account and a quote."""
    summary = ctx.g.summary
    if summary is None or ctx.g.chapter is None:
        return Draft("insufficient", "", ctx.say("chapter_story.none", chapter=chapter))
    w = Writer()
    title = language().patterns.chapter_heading.sub("", ctx.g.chapter.title)  # said already
    w.add(ctx.say("chapter_story.lead", chapter=chapter, title=title, summary=summary.summary),
          record_quote(summary))
    scenes = [e for e in ctx.book.chapter_events.get(chapter, ()) if ctx.book.told(e)]
    if scenes:
        w.add(ctx.say("chapter_story.scenes",
                      titles=ctx.say("sep.items").join(e.title for e in scenes)))
    marked = [e for e in scenes if e.turning_point or e.headline] or scenes
    for event in marked[:CHAPTER_SCENES]:
        w.add(ctx.say("scene.told", title=event.title, summary=short(event.summary)),
              record_quote(event))
    return w.draft()


def compose_chapter(ctx: Ctx) -> Draft:
    """第几回: the chapter whose title matches, and the sentence of that chapter that holds the
    most of the question (the title line itself is not part of any block, so not quoted)."""
    chapter = ctx.g.chapter
    assert chapter is not None
    mine = [c for c in ctx.g.packed if (b := ctx.block_of(c)) and b.chapter == chapter.chapter]
    best = best_sentences(mine, ctx.block_of, ctx.weights(), ctx.book.profile.wordings, limit=1)
    w = Writer()
    w.add(ctx.say("chapter.lead", chapter=chapter.chapter, title=chapter.title))
    for _, sentence, chunk_id in best:
        w.add(ctx.say("item"), (sentence, chunk_id))
    return w.draft()


MAX_DEATHS = 24
"""How many deaths of a campaign are named; the rest are counted."""


def compose_deaths_in_arc(ctx: Ctx, arc: Arc) -> Draft | None:
    """Who died in a named stretch of the story: the people whose death state begins in its
    chapters, in book order, each with the chapter and how; None when the records hold none."""
    deaths = [s for c in range(arc.first, arc.last + 1) for s in ctx.book.chapter_states.get(c, ())
              if is_death(s) and s.person != arc.person]
    if not deaths:
        return None
    groups = ctx.book.profile.hero_groups
    heroes = [s for s in deaths if ctx.people.people[s.person].group in groups]
    others = [s for s in deaths if s not in heroes]
    shown = heroes or others  # the heroes the reader follows first, then how many others fell
    said = ctx.say("sep.list").join(ctx.say("deaths.one", name=ctx.name(s.person), chapter=s.chapter)
                                    for s in shown[:MAX_DEATHS])
    more = ctx.say("deaths.more" if len(shown) > MAX_DEATHS else "deaths.all", n=len(shown))
    rest = ctx.say("deaths.others", n=len(others)) if heroes else ""
    w = Writer()
    hero = ctx.book.profile.hero_word if heroes else ""
    w.add(ctx.say("deaths.lead", when=arc.when, hero=hero, said=said, more=more, rest=rest))
    for state in shown[:CHAPTER_SCENES]:
        w.add(ctx.say("deaths.item", name=ctx.name(state.person), value=state.value,
                      told=short(state.description)), record_quote(state))
    return w.draft()

