"""What the answering code reads of one loaded bundle, built once per load and shared by every
question on it: the people index, the book's profile and chapter titles, every event and state by
chapter, the chapter summaries, and the records rendered as text. One request's evidence is another
object (`kb.answering.evidence.Evidence`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kb.answering.chapters import ChapterTitles
from kb.answering.people_index import PeopleIndex
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.language import language
from kb.knowledge.models import ChapterSummary, Event, Record, State
from kb.knowledge.profile import CorpusProfile


@dataclass
class Book:
    bundle: KnowledgeBundle
    people: PeopleIndex
    profile: CorpusProfile
    titles: ChapterTitles
    summaries: dict[int, ChapterSummary]
    chapter_events: dict[int, list[Event]]
    """Every event of the bundle by chapter, in book order: the plan that sent someone to act is
    often a scene of others about them (乙 proposes luring 甲)."""
    chapter_states: dict[int, list[State]]
    """Every state by the chapter it begins in: who died in a campaign is a question about
    everyone's states."""
    rendered: dict[str, str] = field(default_factory=dict)
    """Records rendered as text (record id → line): records do not change until a reload makes a
    new book."""
    _curated: bool = False

    @classmethod
    def of(cls, bundle: KnowledgeBundle, titles: Mapping[int, str]) -> Book:
        chapter_states: dict[int, list[State]] = {}
        for state in sorted(bundle.states, key=lambda s: (s.chapter, s.id)):
            chapter_states.setdefault(state.chapter, []).append(state)
        chapter_events: dict[int, list[Event]] = {}
        for event in sorted(bundle.events, key=lambda e: e.order):
            chapter_events.setdefault(event.chapter, []).append(event)
        lang = language()
        wordings = {**{k: tuple(v) for k, v in lang.wordings.items()}, **bundle.profile.wordings}
        profile = bundle.profile.model_copy(update={"wordings": wordings})
        return cls(bundle, PeopleIndex.build(bundle.people), profile,
                   ChapterTitles(titles), {c.chapter: c for c in bundle.chapters},
                   chapter_events, chapter_states,
                   _curated=any(e.origin == "curated" for e in bundle.events))

    @property
    def curated(self) -> bool:
        """The bundle holds records written by reading (水浒's): they are the book's accounts,
        and the scene events extraction adds only say who was together."""
        return self._curated

    def told(self, record: Record) -> bool:
        """A record that tells what happened: a curated one; in a book built from its text alone,
        any but a scene event (which only says who was together): its 回目's headline events,
        its relations and states."""
        if self._curated:
            return getattr(record, "origin", "curated") == "curated"
        return not isinstance(record, Event) or record.headline

    def name(self, person_id: str) -> str:
        person = self.people.people.get(person_id)
        return person.name if person else person_id
