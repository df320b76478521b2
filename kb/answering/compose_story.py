"""Answers that tell a stretch of the book rather than a person: a chapter named by its number (its
summary and scenes), a chapter asked by its title (第几回), the course of a named campaign."""

from __future__ import annotations

import re

from kb.answering.compose_person import (
    DEEDS_SPREAD,
)
from kb.answering.coverage import best_sentences
from kb.answering.drafting import (
    Ctx,
    Draft,
    Writer,
    record_quote,
    short,
)
from kb.knowledge.importance import spread_pick
from kb.knowledge.profile import Arc

ARC_STORY_SCENES = 8
"""How many scenes of a campaign its course is told in; the rest are counted."""


def compose_arc_story(ctx: Ctx, arc: Arc) -> Draft | None:
    """How a named stretch of the story went: its turning points and headline scenes (all its
    scenes when it marks none) spread over its chapters, in book order, each with a quote."""
    scenes = [e for c in range(arc.first, arc.last + 1) for e in ctx.g.chapter_events.get(c, ())
              if e.origin == "curated"]
    if not scenes:
        return None
    scores = [2.0 * e.turning_point + 2.0 * e.headline for e in scenes]
    picked = spread_pick([e.chapter for e in scenes], scores, ARC_STORY_SCENES, DEEDS_SPREAD, 1.0)
    w = Writer()
    w.add(f"{arc.words[0]}（第{arc.first}–{arc.last}回），按书中顺序：")
    for i in picked:
        event = scenes[i]
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
    if len(scenes) > len(picked):
        w.add(f"（这几回另有{len(scenes) - len(picked)}件事）")
    return w.draft()


CHAPTER_SCENES = 4
"""How many of a chapter's scenes are told with their account and quote (the rest by title)."""


def compose_chapter_story(ctx: Ctx, chapter: int) -> Draft:
    """第N回讲了什么: the chapter's title and summary, then its scenes in book order by title, the
    turning points and headlines among them told with their account and a quote."""
    summary = ctx.g.summary
    if summary is None or ctx.g.chapter is None:
        return Draft("insufficient", "", f"书中（知识库中）没有第{chapter}回。")
    w = Writer()
    title = re.sub(r"^第\S+回\s*", "", ctx.g.chapter.title)  # the number is said already
    w.add(f"第{chapter}回 {title}：{summary.summary}", record_quote(summary))
    scenes = [e for e in ctx.g.chapter_events.get(chapter, ()) if e.origin == "curated"]
    if scenes:
        w.add(f"本回的事（按书中顺序）：{'；'.join(e.title for e in scenes)}。")
    marked = [e for e in scenes if e.turning_point or e.headline] or scenes
    for event in marked[:CHAPTER_SCENES]:
        w.add(f"· {event.title}：{short(event.summary)}", record_quote(event))
    return w.draft()


def compose_chapter(ctx: Ctx) -> Draft:
    """第几回: the chapter whose title matches, and the sentence of that chapter that holds the
    most of the question (the title line itself is not part of any block, so not quoted)."""
    chapter = ctx.g.chapter
    assert chapter is not None
    mine = [c for c in ctx.g.packed if (b := ctx.block_of(c)) and b.chapter == chapter.chapter]
    best = best_sentences(mine, ctx.block_of, ctx.weights(), ctx.g.profile.wordings, limit=1)
    w = Writer()
    w.add(f"第{chapter.chapter}回：{chapter.title}。")
    for _, sentence, chunk_id in best:
        w.add("· ", (sentence, chunk_id))
    return w.draft()
