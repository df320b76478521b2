"""Graph-guided evidence: the records a plan selects point to their source blocks, which move up
the lexical order (`POINTER_BOOST`); the lexical ranking decides everything else. The graph never
competes in the ranking with a score of its own: it only decides which blocks a record vouches
for, and those move up the lexical order. `kbx eval --strategy kb` evaluates exactly this order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations

from core.errors import NotFound
from core.text import normalize
from kb.answering.arcs import (
    after_death,
    in_arc,
    journey_within,
    timeline_within,
    within,
    without_arc,
)
from kb.answering.book import Book
from kb.answering.chapters import ChapterMatch
from kb.answering.english import EnglishFront, is_english
from kb.answering.expansion import expansions_for
from kb.answering.kinds import select_kinds
from kb.answering.ordering import (
    boosted_order,
    chapter_pointers,
    cite_only_read_blocks,
    packed_blocks,
    sources_of,
)
from kb.answering.plan import Plan
from kb.answering.planner import plan_for_question, refused
from kb.answering.record_search import KnowledgeHit, KnowledgeIndex
from kb.answering.relatives import Relatives
from kb.answering.wording import fold_colloquial, has_any
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.language import language
from kb.knowledge.models import ChapterSummary, Event, Person, Record
from kb.knowledge.names import beside
from kb.knowledge.profile import Arc
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.views import Journey, Pair, Timeline
from retrieval.retriever import Ranking, Retriever, SearchOptions, query_text

LEXICAL_CUT = 0.5
"""A block no record points to is packed only while it is likely evidence: its best channel
score is at least this share of that channel's top score (0 packs every block that fits, as
before). Chosen from `kbx eval --strategy kb --sweep` (README: the trade-off between all-core and
the irrelevant share); points to blocks stay first whatever their score."""
TOP_KNOWLEDGE_POINTERS = 3
"""How many of the best-ranked knowledge records (beyond the plan's own) may point to blocks."""
TEMPORAL_EVENTS = 3
TIMELINE_CACHE = 256
"""Timelines, pairs and journeys kept per pipeline (one pipeline per loaded bundle: a reload
makes a new one, so nothing kept is older than the store). A hub character's timeline or journey
is hundreds of events read and validated from the store; asked again it costs nothing."""




RelationTypes = dict[tuple[str, str], set[tuple[str, str, str, str, bool]]]
"""(a, b) → {(relation type, origin, source, target, directed)} of the relations between two
named people: what a question's premise (甲杀了乙) is checked against."""


@dataclass
class Evidence:
    """One request's knowledge and evidence, and the trace of how they were chosen; what the
    bundle holds for every request is the `Book`."""

    plan: Plan
    query: str
    expansions: list[str]
    knowledge: list[KnowledgeHit]
    plan_records: list[Record]
    pair: Pair | None
    journey: Journey | None
    ranking: list[str]
    origins: dict[str, str]
    packed: list[str]
    decisions: dict[str, str] = field(default_factory=dict)
    temporal: list[Event] = field(default_factory=list)
    """The earliest or latest events a how-it-began / how-it-ended question points to."""
    chapter: ChapterMatch | None = None
    """The chapter a which-chapter question (第几回) names by its title."""
    lexical: Ranking | None = None
    """The one lexical ranking of the query (the trace explains it; nothing ranks twice)."""
    timelines: dict[str, Timeline] = field(default_factory=dict)
    """Each named person's events and states (not for journeys: the journey holds them), for
    answers that need what came before (why) or the end (the fate state)."""
    summary: ChapterSummary | None = None
    """The summary of the chapter a 第N回讲了什么 names (`AskDetail.chapter_told`)."""
    relation_types: RelationTypes = field(default_factory=dict)
    """For a question that asserts an act between its people (`AskDetail.premises`), the types of
    the relations between each two of them."""
    after: int | None = None
    """The chapter a follow-up continues after (那他后来呢？: the last answer's chapter)."""


class EvidencePipeline:
    """Plan → knowledge → graph pointers → lexical fill → packing; shared by /ask and eval."""

    def __init__(self, provider: RelationProvider, bundle: KnowledgeBundle,
                 knowledge_budget: int = 3000, expansion: bool = True,
                 titles: Mapping[int, str] | None = None, lexical_cut: float = LEXICAL_CUT
                 ) -> None:
        self.lexical_cut = lexical_cut
        self.provider = provider
        self.bundle = bundle
        self.book = Book.of(bundle, titles or {})
        self.people = self.book.people
        self.profile = self.book.profile
        self.knowledge = KnowledgeIndex(bundle)
        self.knowledge_budget = knowledge_budget
        self.expansion = expansion
        self._timeline = lru_cache(maxsize=TIMELINE_CACHE)(provider.timeline)
        self.pair_of = lru_cache(maxsize=TIMELINE_CACHE)(provider.pair)
        """The provider's pair view, kept like timelines (read-only: copied before a change)."""
        self._journey = lru_cache(maxsize=TIMELINE_CACHE)(provider.journey)
        self.relatives = Relatives(lru_cache(maxsize=TIMELINE_CACHE)(provider.neighbors))
        self.english = EnglishFront(bundle, self.pair_of)

    def plan(self, question: str, previous: Sequence[str] = ()) -> Plan:
        """The whole plan of a question (`_plan`); an English question is planned as the Chinese
        question it asks (kb.answering.english)."""
        if is_english(question):
            return self.english.plan(question, previous, self._plan)
        return self._plan(question, previous)

    def _plan(self, question: str, previous: Sequence[str] = ()) -> Plan:
        """The whole plan of a Chinese question: the stretch of the story it names as its when (征某时,
        甲死后) or whose course it asks (三打某庄的经过), the plan of the rest of it, the one
        bearer of a shared name in a pair, whether it can be looked up at all, and the question
        kinds that may answer it."""
        text = normalize(question)
        named = self.people.find(question)
        arc = self.profile.arc_of(text) or self._after_death(text, named)
        told_arc = self.profile.arc_of(text, as_when=False) \
            if arc is None and has_any(text, language().words_of("episode")) else None
        if arc is None:
            plan = plan_for_question(question, self.people, previous, self.relatives.one,
                                     self.profile.place_chars, named)
        else:  # planned without the arc's words: they are its when
            rest = without_arc(text, arc)
            # 甲死后，朝廷追封了他什么: 他 points to the one the when names
            told = [p for p, w in named if normalize(w) not in rest]
            plan = plan_for_question(rest, self.people, [*told, *previous],
                                     self.relatives.one, self.profile.place_chars)
        if plan.kind == "pair":
            plan = self._beside(plan)
        plan = replace(plan, question=question, named=tuple(named), arc=arc, told_arc=told_arc)
        plan = refused(plan)
        return replace(plan, kinds=select_kinds(plan))

    def _beside(self, plan: Plan) -> Plan:
        """In a pair, a name several people bear is the one who shares the story with the other
        (甲和丙婆 is the 丙婆 甲 knows, 乙和丙婆 the other), by relations and shared events."""
        ids = list(plan.person_ids[:2])
        for i, person_id in enumerate(ids):
            bearers = self.people.homonyms.get(normalize(self.people.people[person_id].name))
            if bearers:
                try:
                    ids[i] = beside(self.pair_of, bearers, ids[1 - i]) or person_id
                except NotFound:  # a bearer the store does not hold: keep the planner's
                    continue
        if ids == plan.person_ids[:2]:
            return plan
        return replace(plan, person_ids=ids, names=[self.people.people[p].name for p in ids])

    def gather(self, question: str, retriever: Retriever, options: SearchOptions,
               previous: Sequence[str] = (), knowledge_budget: int | None = None,
               last_chapter: int | None = None) -> Evidence:
        """The plan of the question and its knowledge and evidence; `previous`: the people of
        the session's last question, `last_chapter`: the chapter its answer reached, where a
        follow-up continues."""
        plan = self.plan(question, previous)
        named = [(self.people.people[pid], written) for pid, written in plan.named]
        expansions = expansions_for(plan.question, named, self.profile.wordings, self.expansion)
        if plan.follow_up:
            expansions = [self.people.people[pid].name for pid in plan.person_ids] + expansions
        query = query_text(fold_colloquial(plan.question), expansions)
        budget = self.knowledge_budget if knowledge_budget is None else knowledge_budget
        knowledge = self.knowledge.search(query, plan.person_ids, budget)
        pair, journey, plan_records = self._plan_records(plan)
        timelines = self._timelines(plan)
        arc = plan.arc
        if arc is not None:  # 征某时: only the records (and a journey's stages) of its chapters
            knowledge = [h for h in knowledge if in_arc(h.record, arc)]
            plan_records = within(plan_records, arc) or plan_records
            journey = journey_within(journey, arc) if journey is not None else None
            timelines = {pid: timeline_within(t, arc) for pid, t in timelines.items()}
        pair, journey = cite_only_read_blocks(pair, journey, retriever.position)
        curated = [r for r in plan_records if getattr(r, "origin", "curated") == "curated"]
        plan_records = curated or plan_records  # curated records win over extracted ones
        temporal = self._temporal(plan, plan_records, timelines)
        plan_records = [*temporal, *plan_records]
        chapter = self._chapter(plan)
        vouching = temporal or plan_records  # asked how it ended: only the last events vouch
        pointers = chapter_pointers(chapter, retriever) + sources_of(vouching) + sources_of(
            [h.record for h in knowledge if not isinstance(h.record, Person)][:TOP_KNOWLEDGE_POINTERS])
        lexical = retriever.rank(query, options.strategy, options.depth, options.rrf_k)
        ranking, origins = boosted_order(retriever, lexical, pointers)
        if arc is not None:  # the arc's passages first: the lexical best elsewhere is another war
            ranking = sorted(ranking, key=lambda c: not arc.holds(retriever.blocks[
                retriever.position[c]].chapter))
        packed, verdicts = packed_blocks(retriever, lexical, ranking, origins, options,
                                         self.lexical_cut)
        told = plan.detail.chapter_told
        return Evidence(plan, query, expansions, knowledge, plan_records, pair, journey, ranking,
                        origins, packed, verdicts, temporal, chapter, lexical, timelines,
                        self.book.summaries.get(told) if told is not None else None,
                        self._relation_types(plan), last_chapter if plan.follow_up else None)

    def _chapter(self, plan: Plan) -> ChapterMatch | None:
        """The chapter a which-chapter question names by its title, or the one a 第N回讲了什么
        names by its number."""
        titles = self.book.titles
        forms = [n for pid in plan.person_ids for n in self.people.people[pid].all_names]
        chapter = titles.match(plan.question, forms) if plan.asks == "chapter" else None
        told = plan.detail.chapter_told
        if told is not None and told in titles.titles:  # 第N回讲了什么: that chapter
            chapter = ChapterMatch(told, titles.titles[told], 1.0)
        return chapter

    def _relation_types(self, plan: Plan) -> RelationTypes:
        """The relation types between each two people a question that asserts an act names."""
        ids = list(dict.fromkeys(plan.named_ids))
        if not plan.detail.premises or len(ids) < 2:
            return {}
        out: RelationTypes = {}
        for a, b in combinations(ids, 2):
            try:
                relations = self.pair_of(a, b).relations
            except NotFound:
                out[(a, b)] = set()
                continue
            out[(a, b)] = {(r.type, getattr(self.bundle.get(r.id), "origin", "extracted"),
                            r.source, r.target, r.directed) for r in relations}
        return out

    def _after_death(self, text: str, named: Sequence[tuple[str, str]]) -> Arc | None:
        """甲死后…: the chapters from 甲's death on (kb.answering.arcs.after_death)."""
        if language().patterns.after_death.search(text) is None:
            return None
        try:
            return after_death(text, [(p, normalize(w)) for p, w in named],
                               self._timeline,
                               max(self.book.titles.titles or self.book.chapter_events, default=0))
        except NotFound:
            return None

    def _timelines(self, plan: Plan) -> dict[str, Timeline]:
        """The named people's events and states, unless the journey already holds them (and the
        question asks neither how it ended nor how they came to a band or what came after)."""
        if plan.kind == "journey" and plan.moment != "ended" and plan.detail.joining is None \
                and plan.detail.after_band is None:
            return {}
        found = {}
        for person_id in plan.person_ids[:2]:
            try:
                found[person_id] = self._timeline(person_id)
            except NotFound:
                continue
        return found

    @staticmethod
    def _temporal(plan: Plan, plan_records: list[Record], timelines: Mapping[str, Timeline]
                  ) -> list[Event]:
        """A question about how something began or ended (`Plan.moment`) points to the earliest
        or latest events: of the pair (their shared events), or of the one person named."""
        if plan.moment is None or not plan.person_ids:
            return []
        if plan.kind == "pair":
            events = sorted((r for r in plan_records if isinstance(r, Event)), key=lambda e: e.order)
        elif plan.person_ids[0] in timelines:
            events = timelines[plan.person_ids[0]].events
        else:
            return []
        return events[-TEMPORAL_EVENTS:] if plan.moment == "ended" else events[:TEMPORAL_EVENTS]

    def _plan_records(self, plan: Plan) -> tuple[Pair | None, Journey | None, list[Record]]:
        try:
            if plan.kind == "pair":
                pair = self.pair_of(*plan.person_ids[:2])
                ids = [v.id for v in pair.relations] + [v.id for v in pair.shared_events]
                records: list[Record] = [r for r in (self.bundle.get(i) for i in ids) if r]
                return pair, None, records
            if plan.kind == "journey":
                journey = self._journey(plan.person_ids[0])  # decided at load
                ids = [e.id for s in journey.stages for e in s.events]
                ids += [st.id for s in journey.stages for st in s.states]
                return None, journey, [r for r in (self.bundle.get(i) for i in ids) if r]
        except NotFound:
            pass
        return None, None, []
