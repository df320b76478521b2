"""Graph-guided evidence: the records a plan selects point to their source blocks, which lead the
evidence order (ranked among themselves by the lexical fusion); the lexical ranking fills the rest.
The graph never competes in the ranking with a score of its own: it only decides which blocks a
record vouches for. `kbx eval --strategy kb` evaluates exactly this order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kb.bundle import KnowledgeBundle
from kb.errors import NotFound
from kb.expansion import expansions_for
from kb.knowledge import KnowledgeHit, KnowledgeIndex
from kb.models import Person, Record
from kb.planner import PeopleIndex, Plan, plan_for_question
from kb.views import Journey, Pair
from providers.base import RelationProvider
from retrieval.packing import Decision, pack
from retrieval.retriever import Retriever, SearchOptions, query_text

LEXICAL_FILL_WITH_GRAPH = 9
"""When records point to blocks, the lexical ranking adds this many blocks of its own; chosen on
the dev set (README) as the point where all-core coverage stops rising."""
PROMOTE_WITHIN = 40
"""A pointed block leads only if the lexical fusion also ranks it within this many; the others
follow the lexical fill (a journey's early chapters rarely match the question's words)."""
TOP_KNOWLEDGE_POINTERS = 3
"""How many of the best-ranked knowledge records (beyond the plan's own) may point to blocks."""


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


def _sources(records: Sequence[Record]) -> list[tuple[str, str]]:
    out = []
    for record in records:
        for ref in getattr(record, "sources", []):
            if ref.chunk_id:
                out.append((ref.chunk_id, record.id))
    return out


class EvidencePipeline:
    """Plan → knowledge → graph pointers → lexical fill → packing; shared by /ask and eval."""

    def __init__(self, provider: RelationProvider, bundle: KnowledgeBundle,
                 knowledge_budget: int = 3000, expansion: bool = True) -> None:
        self.provider = provider
        self.bundle = bundle
        self.people = PeopleIndex.build(bundle.people)
        self.knowledge = KnowledgeIndex(bundle)
        self.knowledge_budget = knowledge_budget
        self.expansion = expansion

    def plan(self, question: str, previous: Sequence[str] = ()) -> Plan:
        return plan_for_question(question, self.people, previous)

    def gather(self, question: str, retriever: Retriever, options: SearchOptions,
               previous: Sequence[str] = (), knowledge_budget: int | None = None) -> Gathered:
        plan = self.plan(question, previous)
        persons = [self.people.people[pid] for pid in plan.person_ids]
        named = [(self.people.people[pid], written) for pid, written in self.people.find(question)]
        expansions = expansions_for(question, named, self.expansion)
        if plan.follow_up:
            expansions = [p.name for p in persons] + expansions
        query = query_text(question, expansions)
        budget = self.knowledge_budget if knowledge_budget is None else knowledge_budget
        knowledge = self.knowledge.search(query, plan.person_ids, budget)
        pair, journey, plan_records = self._plan_records(plan)
        pointers = _sources(plan_records) + _sources(
            [h.record for h in knowledge if not isinstance(h.record, Person)][:TOP_KNOWLEDGE_POINTERS])
        ranking, origins = self._order(retriever, query, options, pointers)
        costs = [retriever.costs[retriever.position[c]] for c in ranking]
        decisions = pack(costs, options.budget, options.max_blocks, options.policy)
        packed = [c for c, d in zip(ranking, decisions, strict=True) if d is Decision.SELECTED]
        return Gathered(plan, query, expansions, knowledge, plan_records, pair, journey, ranking,
                        origins, packed,
                        {c: d.value for c, d in zip(ranking, decisions, strict=True)})

    def _plan_records(self, plan: Plan) -> tuple[Pair | None, Journey | None, list[Record]]:
        try:
            if plan.kind == "pair":
                pair = self.provider.pair(*plan.person_ids[:2])
                ids = [v.id for v in pair.relations] + [v.id for v in pair.shared_events]
                records: list[Record] = [r for r in (self.bundle.get(i) for i in ids) if r]
                return pair, None, records
            if plan.kind == "journey":
                journey = self.provider.journey(plan.person_ids[0])
                ids = [e.id for s in journey.stages for e in s.events]
                ids += [st.id for s in journey.stages for st in s.states]
                return None, journey, [r for r in (self.bundle.get(i) for i in ids) if r]
        except NotFound:
            pass
        return None, None, []

    @staticmethod
    def _order(retriever: Retriever, query: str, options: SearchOptions,
               pointers: Sequence[tuple[str, str]]) -> tuple[list[str], dict[str, str]]:
        """Pointed blocks the lexical fusion also sees, then a lexical fill, then the other pointed
        blocks; with no pointer, the lexical ranking as it is."""
        lexical = [retriever.blocks[d].id for d, _ in
                   retriever.rank(query, options.strategy, options.depth, options.rrf_k).fused]
        lexical_rank = {c: i for i, c in enumerate(lexical)}
        origins: dict[str, str] = {}
        for chunk_id, record_id in pointers:
            if chunk_id in retriever.position and chunk_id not in origins:
                origins[chunk_id] = f"graph:{record_id}"
        seen = sorted((c for c in origins if lexical_rank.get(c, PROMOTE_WITHIN) < PROMOTE_WITHIN),
                      key=lambda c: lexical_rank[c])
        unseen = sorted((c for c in origins if c not in seen),
                        key=lambda c: (lexical_rank.get(c, len(lexical)), retriever.position[c]))
        rest = [c for c in lexical if c not in origins]
        if origins:
            rest = rest[:LEXICAL_FILL_WITH_GRAPH]
        order = seen + rest + unseen
        origins.update({c: "lexical" for c in rest})
        return order, origins

