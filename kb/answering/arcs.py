"""A question that names a stretch of the story (征某时甲打败了谁): the records and passages of its
chapters only (`kb.knowledge.profile.Arc`). The question is planned without the arc's words: they
are its when, which the chapters answer, not content a record must hold (and 征某人 names the
enemy, not a person the question is about)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kb.knowledge.language import language
from kb.knowledge.models import Person, Record, Relation, State
from kb.knowledge.profile import WHILE, Arc
from kb.knowledge.views import Journey, Timeline


def in_arc(record: Record, arc: Arc) -> bool:
    """A record of the arc's chapters: an event or state by its chapter, a relation by any of its
    sources; a person is about no chapter and always kept."""
    if isinstance(record, Person):
        return True
    if isinstance(record, Relation):
        return any(arc.holds(s.chapter) for s in record.sources)
    return arc.holds(getattr(record, "chapter", None))


def within(records: Sequence[Record], arc: Arc) -> list[Record]:
    return [r for r in records if in_arc(r, arc)]


def timeline_within(timeline: Timeline, arc: Arc) -> Timeline:
    """The events and states of the arc's chapters, and what the person holds then (a weapon
    got before the campaign is still theirs in it)."""
    return Timeline(timeline.person, [e for e in timeline.events if arc.holds(e.chapter)],
                    [s for s in timeline.states if arc.holds(s.chapter) or _held(s, arc)])


def _held(state: State, arc: Arc) -> bool:
    return state.kind == "possession" and state.chapter <= arc.last \
        and (state.until_chapter is None or state.until_chapter >= arc.first)


def journey_within(journey: Journey, arc: Arc) -> Journey:
    """The journey's stages that reach into the arc (the whole journey when none does); a copy:
    journeys are shared by every question on one loaded bundle."""
    stages = [s for s in journey.stages if any(arc.holds(c) for c in s.chapters)]
    return journey.model_copy(update={"stages": stages}) if stages else journey


def without_arc(question: str, arc: Arc) -> str:
    """The (normalized) question without the arc's words and the word of time after them, to
    plan on: 征某人时甲做了什么 asks about 甲, not about the pair of 甲 and the campaign's enemy."""
    for word in sorted(arc.words, key=len, reverse=True):
        question = re.sub(f"{re.escape(word)}{WHILE}?", " ", question)  # the word of time too
    return question


def is_death(state: State) -> bool:
    """A status state that says the person died (the language's `died` words: not 死囚牢, a cell
    for the condemned)."""
    return state.kind == "status" and any(w in state.value for w in language().words_of("died"))


def after_death(question: str, found: Sequence[tuple[str, str]],
                timeline_of: Callable[[str], Timeline], last_chapter: int) -> Arc | None:
    """甲死后谁当了寨主: from the chapter of 甲's death (his status state) to the end, named by
    the words that say it (甲死后); None when the question says no such thing or the records
    hold no death of the one named just before it. `found`: (person id, name as written)."""
    said = language().patterns.after_death.search(question)
    if said is None:
        return None
    named = [(pid, written) for pid, written in found if question.endswith(written, 0, said.start())]
    if not named:
        return None
    pid, written = named[-1]
    deaths = [s.chapter for s in timeline_of(pid).states if is_death(s)]
    if not deaths:
        return None
    return Arc(words=(written + said.group(0),), first=min(deaths), last=last_chapter, period="",
               person=pid)
