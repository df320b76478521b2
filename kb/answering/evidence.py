"""Graph-guided evidence: the records a plan selects point to their source blocks, which move up
the lexical order (`POINTER_BOOST`); the lexical ranking decides everything else. The graph never
competes in the ranking with a score of its own: it only decides which blocks a record vouches
for, and those move up the lexical order. `kbx eval --strategy kb` evaluates exactly this order."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from core.errors import NotFound
from core.text import normalize
from kb.answering.arcs import (
    AFTER_DEATH,
    after_death,
    in_arc,
    journey_within,
    timeline_within,
    within,
    without_arc,
)
from kb.answering.chapters import ChapterMatch, ChapterTitles
from kb.answering.expansion import expansions_for
from kb.answering.planner import PeopleIndex, Plan, plan_for_question
from kb.answering.record_search import KnowledgeHit, KnowledgeIndex
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import ChapterSummary, Event, Person, Record, State
from kb.knowledge.names import beside
from kb.knowledge.profile import Arc, CorpusProfile
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.views import Journey, Pair, SourceView, Timeline
from retrieval.packing import Decision, pack
from retrieval.retriever import Ranking, Retriever, SearchOptions, query_text

POINTER_BOOST = 20.0
"""A block that a selected record points to ranks as if 20 times higher in the lexical order
(rank 40 → 2); on the dev sets any value from 15 to 50 gives the same figures (README)."""
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


EPISODE_ASK = re.compile(r"经过|过程|始末|来龙去脉|怎么回事|怎么打的|怎样打的|讲讲|说说")
"""A question asking how a named stretch of the story went (三打某庄的经过)."""
BELOW_CUT = "below_cut"
"""The packing decision of a lexical block left out as unlikely evidence (`LEXICAL_CUT`)."""


@dataclass
class Gathered:
    """Everything the answer step needs, and the trace of how it was chosen."""

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
    profile: CorpusProfile = field(default_factory=CorpusProfile)
    """What the answer step knows about the novel (title, wordings, titles)."""
    lexical: Ranking | None = None
    """The one lexical ranking of the query (the trace explains it; nothing ranks twice)."""
    timelines: dict[str, Timeline] = field(default_factory=dict)
    """Each named person's events and states (not for journeys: the journey holds them), for
    answers that need what came before (why) or the end (the fate state)."""
    rendered: dict[str, str] = field(default_factory=dict)
    """Records rendered as text (record id → line), shared by every question on one loaded
    bundle: records do not change until a reload makes a new pipeline."""
    chapter_events: Mapping[int, Sequence[Event]] = field(default_factory=dict)
    """Every event of the bundle by chapter, in book order (shared like `rendered`): the plan
    that sent someone to act is often a scene of others about them (乙 proposes luring 甲)."""
    arc: Arc | None = None
    summary: ChapterSummary | None = None
    """The summary of the chapter a 第N回讲了什么 names (`AskDetail.chapter_told`)."""
    chapter_states: Mapping[int, Sequence[State]] = field(default_factory=dict)
    """Every state of the bundle by the chapter it begins in (shared like `chapter_events`): who
    died in a campaign is a question about everyone's states."""
    told_arc: Arc | None = None
    """The stretch of the story whose course is asked (三打某庄的经过): its scenes answer."""
    """The stretch of the story the question names (征某时), whose chapters everything above is
    restricted to (kb.answering.arcs)."""


def _cite_only_read_blocks(pair: Pair | None, journey: Journey | None,
                           read: Mapping[str, int]) -> tuple[Pair | None, Journey | None]:
    """A source whose block lies outside the corpus read (`kbx ingest --chapters 7-11`) cannot
    be quoted from: its block id is dropped, so answers cite only blocks they can check. The
    views may be shared (kept per pipeline): a view with such a source is copied first."""
    def outside(sources: list[SourceView]) -> bool:
        return any(ref.chunk_id is not None and ref.chunk_id not in read for ref in sources)

    if pair is not None and any(outside(v) for v in _pair_sources(pair)):
        pair = pair.model_copy(deep=True)
        _drop_unread(_pair_sources(pair), read)
    if journey is not None and any(outside(v) for v in _journey_sources(journey)):
        journey = journey.model_copy(deep=True)
        _drop_unread(_journey_sources(journey), read)
    return pair, journey


def _pair_sources(pair: Pair) -> list[list[SourceView]]:
    return [r.sources for r in pair.relations] + [e.sources for e in pair.shared_events]


def _journey_sources(journey: Journey) -> list[list[SourceView]]:
    views: list[list[SourceView]] = []
    for stage in journey.stages:
        views += [stage.sources] + [e.sources for e in stage.events]
        views += [s.sources for s in stage.states]
    return views


def _drop_unread(views: list[list[SourceView]], read: Mapping[str, int]) -> None:
    for sources in views:
        for ref in sources:
            if ref.chunk_id is not None and ref.chunk_id not in read:
                ref.chunk_id = None


def _sources(records: Sequence[Record]) -> list[tuple[str, str]]:
    out = []
    for record in records:
        for ref in getattr(record, "sources", []):
            if ref.chunk_id:
                out.append((ref.chunk_id, record.id))
    return out


WHICH_ONE: dict[str, Callable[[Iterable[int]], int]] = {"spouse": max, "master_disciple": min}
"""Among several relatives of one type, the one asked for: the latest spouse (嫁给了谁: a
betrothal, then the marriage), the first master (the teacher who made him)."""


class EvidencePipeline:
    """Plan → knowledge → graph pointers → lexical fill → packing; shared by /ask and eval."""

    def __init__(self, provider: RelationProvider, bundle: KnowledgeBundle,
                 knowledge_budget: int = 3000, expansion: bool = True,
                 titles: Mapping[int, str] | None = None, lexical_cut: float = LEXICAL_CUT
                 ) -> None:
        self.lexical_cut = lexical_cut
        self.titles = ChapterTitles(titles or {})
        self.provider = provider
        self.bundle = bundle
        self.people = PeopleIndex.build(bundle.people)
        self.profile = bundle.profile
        self.knowledge = KnowledgeIndex(bundle)
        self.knowledge_budget = knowledge_budget
        self.expansion = expansion
        self._timeline = lru_cache(maxsize=TIMELINE_CACHE)(provider.timeline)
        self.pair_of = lru_cache(maxsize=TIMELINE_CACHE)(provider.pair)
        """The provider's pair view, kept like timelines (read-only: copied before a change)."""
        self._journey = lru_cache(maxsize=TIMELINE_CACHE)(provider.journey)
        self._neighbors = lru_cache(maxsize=TIMELINE_CACHE)(provider.neighbors)
        self.rendered: dict[str, str] = {}
        self.summaries = {c.chapter: c for c in bundle.chapters}
        self.chapter_states: dict[int, list[State]] = {}
        for state in sorted(bundle.states, key=lambda s: (s.chapter, s.id)):
            self.chapter_states.setdefault(state.chapter, []).append(state)
        self.chapter_events: dict[int, list[Event]] = {}
        for event in sorted(bundle.events, key=lambda e: e.order):
            self.chapter_events.setdefault(event.chapter, []).append(event)

    def plan(self, question: str, previous: Sequence[str] = ()) -> Plan:
        plan = plan_for_question(question, self.people, previous, self._relative,
                                 self.profile.place_chars)
        return self._beside(plan) if plan.kind == "pair" else plan

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

    def _relative(self, person_id: str, relation_type: str, hint: str = "", exclude: str = ""
                  ) -> str | None:
        """The one person linked to `person_id` by a relation of this type whose name holds no
        excluded character (弟弟: not a sworn sister 某三娘; 母亲: not 某太公); among several,
        the one whose name holds a hint character (某某之母 for 老娘), if exactly one does; among
        several spouses or masters, the one `WHICH_ONE` says."""
        try:
            neighbors = self._neighbors(person_id)
        except NotFound:
            return None
        side = relation_type[-1:] if relation_type.endswith(("<", ">")) else ""
        relation_type = relation_type.rstrip("<>")
        linked = [n for n in neighbors if any(
            r.type == relation_type
            and (not side or (r.source if side == ">" else r.target) == n.person.id)
            for r in n.relations)]
        if exclude:  # a father is never the answer to 母亲, a sworn sister never to 弟弟
            linked = [n for n in linked if not any(ch in n.person.name for ch in exclude)]
        if len(linked) > 1 and hint:
            linked = [n for n in linked
                      if any(ch in name for name in [n.person.name, *n.person.aliases] for ch in hint)]
        if len(linked) > 1 and relation_type in WHICH_ONE:  # betrothed to one, married another
            begun = [(min((s.chapter or 0) for r in n.relations if r.type == relation_type
                          for s in r.sources[:1]), n) for n in linked]
            chosen = WHICH_ONE[relation_type](c for c, _ in begun)
            linked = [n for c, n in begun if c == chosen]
        return linked[0].person.id if len(linked) == 1 else None

    def gather(self, question: str, retriever: Retriever, options: SearchOptions,
               previous: Sequence[str] = (), knowledge_budget: int | None = None) -> Gathered:
        text = normalize(question)
        arc = self.profile.arc_of(text) or self._after_death(text)
        told_arc = self.profile.arc_of(text, as_when=False) \
            if arc is None and EPISODE_ASK.search(text) else None
        plan = self.plan(without_arc(text, arc) if arc else question, previous)
        persons = [self.people.people[pid] for pid in plan.person_ids]
        named = [(self.people.people[pid], written) for pid, written in self.people.find(question)]
        expansions = expansions_for(question, named, self.profile.wordings, self.expansion)
        if plan.follow_up:
            expansions = [p.name for p in persons] + expansions
        query = query_text(question, expansions)
        budget = self.knowledge_budget if knowledge_budget is None else knowledge_budget
        knowledge = self.knowledge.search(query, plan.person_ids, budget)
        pair, journey, plan_records = self._plan_records(plan)
        if arc is not None:  # 征某时: only the records (and a journey's stages) of its chapters
            knowledge = [h for h in knowledge if in_arc(h.record, arc)]
            plan_records = within(plan_records, arc) or plan_records
            journey = journey_within(journey, arc) if journey is not None else None
        pair, journey = _cite_only_read_blocks(pair, journey, retriever.position)
        curated = [r for r in plan_records if getattr(r, "origin", "curated") == "curated"]
        plan_records = curated or plan_records  # curated records win over extracted ones
        timelines = self._timelines(plan)
        if arc is not None:
            timelines = {pid: timeline_within(t, arc) for pid, t in timelines.items()}
        temporal = self._temporal(plan, plan_records, timelines)
        plan_records = [*temporal, *plan_records]
        chapter = self.titles.match(question) if plan.asks == "chapter" else None
        told = plan.detail.chapter_told
        if told is not None and told in self.titles.titles:  # 第N回讲了什么: that chapter
            chapter = ChapterMatch(told, self.titles.titles[told], 1.0)
        vouching = temporal or plan_records  # asked how it ended: only the last events vouch
        pointers = self._chapter_pointers(chapter, retriever) + _sources(vouching) + _sources(
            [h.record for h in knowledge if not isinstance(h.record, Person)][:TOP_KNOWLEDGE_POINTERS])
        lexical = retriever.rank(query, options.strategy, options.depth, options.rrf_k)
        ranking, origins = self._order(retriever, lexical, pointers)
        if arc is not None:  # the arc's passages first: the lexical best elsewhere is another war
            ranking = sorted(ranking, key=lambda c: not arc.holds(retriever.blocks[
                retriever.position[c]].chapter))
        likely = self._likely(retriever, lexical, ranking, origins)
        costs = [retriever.costs[retriever.position[c]] for c in likely]
        decisions = pack(costs, options.budget, options.max_blocks, options.policy)
        packed = [c for c, d in zip(likely, decisions, strict=True) if d is Decision.SELECTED]
        verdicts = {c: BELOW_CUT for c in ranking}
        verdicts.update({c: d.value for c, d in zip(likely, decisions, strict=True)})
        return Gathered(plan, query, expansions, knowledge, plan_records, pair, journey, ranking,
                        origins, packed, verdicts, temporal, chapter, self.profile, lexical,
                        timelines, self.rendered, self.chapter_events, arc,
                        self.summaries.get(told) if told is not None else None,
                        self.chapter_states, told_arc)

    def _after_death(self, text: str) -> Arc | None:
        """甲死后…: the chapters from 甲's death on (kb.answering.arcs.after_death); the people are
        looked up only in a question that says so."""
        if AFTER_DEATH.search(text) is None:
            return None
        try:
            return after_death(text, [(p, normalize(w)) for p, w in self.people.find(text)],
                               self._timeline,
                               max(self.titles.titles or self.chapter_events, default=0))
        except NotFound:
            return None

    def _likely(self, retriever: Retriever, lexical: Ranking, ranking: Sequence[str],
                origins: Mapping[str, str]) -> list[str]:
        """The ranking without the lexical blocks below the cut (`LEXICAL_CUT`): a block a
        record points to always stays; another stays while its best channel score is at least
        the cut's share of that channel's top score."""
        if self.lexical_cut <= 0:
            return list(ranking)
        share: dict[str, float] = {}
        for hits in lexical.channels.values():
            if not hits or hits[0][1] <= 0:
                continue
            top = hits[0][1]
            for doc, score in hits:
                chunk_id = retriever.blocks[doc].id
                share[chunk_id] = max(share.get(chunk_id, 0.0), score / top)
        return [c for c in ranking if origins.get(c, "lexical") != "lexical"
                or share.get(c, 0.0) >= self.lexical_cut]

    @staticmethod
    def _chapter_pointers(chapter: ChapterMatch | None, retriever: Retriever
                          ) -> list[tuple[str, str]]:
        """The blocks of the chapter a 第几回 question names (its title vouches for them)."""
        if chapter is None:
            return []
        return [(b.id, f"chapter:{chapter.chapter}") for b in retriever.blocks
                if b.chapter == chapter.chapter]

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

    @staticmethod
    def _order(retriever: Retriever, ranking: Ranking, pointers: Sequence[tuple[str, str]]
               ) -> tuple[list[str], dict[str, str]]:
        """The lexical order, with each block a record points to ranked as if `POINTER_BOOST`
        times higher (0-based rank / boost, so the lexical best keeps first place); pointed blocks
        the lexical channels never found follow the lexical list."""
        lexical = [retriever.blocks[d].id for d, _ in ranking.fused]
        lexical_rank = {c: i for i, c in enumerate(lexical)}  # 0-based: the lexical best stays first
        origins: dict[str, str] = {}
        for chunk_id, record_id in pointers:
            if chunk_id in retriever.position and chunk_id not in origins:
                origins[chunk_id] = f"graph:{record_id}"

        def key(chunk_id: str) -> tuple[float, int]:
            rank = lexical_rank.get(chunk_id, len(lexical))
            return (rank / POINTER_BOOST if chunk_id in origins else rank,
                    retriever.position[chunk_id])

        rest = [c for c in lexical if c not in origins]
        order = sorted([*origins, *rest], key=key)
        origins.update({c: "lexical" for c in rest})
        return order, origins
