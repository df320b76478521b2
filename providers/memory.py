"""The reference RelationProvider: the bundle in memory, relations in a networkx graph."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import networkx as nx

from core.errors import NotFound, QueryRejected
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.journey_store import (
    PAGE_LIMIT,
    JourneyDigest,
    StageEvents,
    build_journeys,
    page_of,
)
from kb.knowledge.models import Event, Person, Record, Relation, State
from kb.knowledge.names import NameEntry, NameResolver, name_entries
from kb.knowledge.pairs import build_pair, cited_events
from kb.knowledge.protocol import MAX_HOPS
from kb.knowledge.views import (
    NO_CHAPTER,
    Journey,
    LinkedRecord,
    LoadReport,
    Neighbor,
    Pair,
    PathHop,
    PathResult,
    PersonView,
    RecordView,
    RelationView,
    Stats,
    Timeline,
    build_neighbors,
    kind_of,
    linked_record,
    relation_key,
    sort_linked,
    sources_of,
    state_key,
    view_of,
)
from providers.naming import check_hops, unknown_id


class StoredDocs(NamedTuple):
    journey: str
    digest: str
    stages: list[list[str]]


@dataclass
class _Snapshot:
    """Everything a query reads, built whole before it replaces the previous one."""

    bundle: KnowledgeBundle
    names: dict[str, list[NameEntry]] = field(default_factory=dict)
    resolver: NameResolver = field(default_factory=lambda: NameResolver(()))
    journeys: dict[str, StoredDocs] = field(default_factory=dict)
    """per person: the journey and its default view as JSON (each read gets fresh views, as from
    FalkorDB), and each stage's event ids"""
    events_of: dict[str, list[Event]] = field(default_factory=lambda: defaultdict(list))
    states_of: dict[str, list[State]] = field(default_factory=lambda: defaultdict(list))
    relations_of: dict[str, list[Relation]] = field(default_factory=lambda: defaultdict(list))
    supported_by: dict[str, list[Relation]] = field(default_factory=lambda: defaultdict(list))
    events_in: dict[int, list[Event]] = field(default_factory=lambda: defaultdict(list))
    graph: nx.Graph = field(default_factory=nx.Graph)

    @classmethod
    def build(cls, bundle: KnowledgeBundle) -> _Snapshot:
        snap = cls(bundle)
        for person in bundle.people:
            snap.graph.add_node(person.id)
            for entry in name_entries(person):
                snap.names.setdefault(entry.key, []).append(entry)
        for event in sorted(bundle.events, key=lambda e: e.order):
            snap.events_in[event.chapter].append(event)
            for person_id in event.person_ids:
                snap.events_of[person_id].append(event)
        for state in sorted(bundle.states, key=state_key):
            snap.states_of[state.person].append(state)
        for relation in bundle.relations:
            snap.relations_of[relation.source].append(relation)
            snap.relations_of[relation.target].append(relation)
            snap.graph.add_edge(relation.source, relation.target)
            for event_id in relation.events:
                snap.supported_by[event_id].append(relation)
        snap.resolver = NameResolver(snap.entries(), (p.id for p in bundle.people))
        snap.journeys = {pid: StoredDocs(j.journey.model_dump_json(), j.digest.model_dump_json(),
                                         j.stage_events)
                         for pid, j in build_journeys(bundle).items()}
        return snap

    def event(self, event_id: str) -> Event | None:
        record = self.bundle.get(event_id)
        return record if isinstance(record, Event) else None

    def entries(self) -> Iterable[NameEntry]:
        return (entry for group in self.names.values() for entry in group)

    def person_names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.bundle.people}


def _other(relation: Relation, person_id: str) -> str:
    return relation.target if relation.source == person_id else relation.source


class MemoryProvider:
    """Answers from an in-process snapshot; `load` swaps the snapshot in one assignment."""

    backend = "memory"

    def __init__(self, graph_name: str = "memory") -> None:
        self.graph_name = graph_name
        self._snap = _Snapshot.build(KnowledgeBundle())

    def resolve(self, name: str) -> Person:
        return self.person(self._snap.resolver.by_name(name))

    def person_id(self, key: str) -> str:
        return self._snap.resolver.person_id(key)

    def people(self) -> list[Person]:
        return sorted(self._snap.bundle.people,
                      key=lambda p: (NO_CHAPTER if p.first_chapter is None else p.first_chapter,
                                     p.id))

    def person(self, person_id: str) -> Person:
        found = self._snap.bundle.person(person_id)
        if found is None:
            raise self._snap.resolver.unknown_id(person_id)
        return found

    def pair(self, a_id: str, b_id: str) -> Pair:
        if a_id == b_id:
            raise QueryRejected("a pair needs two different people")
        a, b = self.person(a_id), self.person(b_id)
        snap = self._snap
        relations = [r for r in snap.relations_of[a_id] if _other(r, a_id) == b_id]
        b_events = {e.id for e in snap.events_of[b_id]}
        shared = [e for e in snap.events_of[a_id] if e.id in b_events]
        return build_pair(a, b, relations, shared, cited_events(relations, snap.event))

    def pair_json(self, a_id: str, b_id: str) -> str:
        return self.pair(a_id, b_id).model_dump_json()

    def record(self, record_id: str) -> RecordView:
        snap = self._snap
        record = snap.bundle.get(record_id)
        if record is None:
            raise unknown_id("record", record_id, (r.id for r in snap.bundle.records()))
        return RecordView(kind=kind_of(record), record=view_of(record),
                          linked=sort_linked(self._linked(record)),
                          sources=sources_of(record.sources))

    def _linked(self, record: Record) -> list[LinkedRecord]:
        snap, names = self._snap, self._snap.person_names()
        pairs: list[tuple[Record, str | None]] = []
        if isinstance(record, Person):
            pairs += [(e, _role(e, record.id)) for e in snap.events_of[record.id]]
            pairs += [(r, "source" if r.source == record.id else "target")
                      for r in snap.relations_of[record.id]]
            pairs += [(s, None) for s in snap.states_of[record.id]]
        elif isinstance(record, Event):
            pairs += [(self.person(p.person), p.role) for p in record.participants]
            pairs += [(r, None) for r in snap.supported_by[record.id]]
            summary = snap.bundle.chapter(f"ch{record.chapter:03d}")
            pairs += [(summary, None)] if summary is not None else []
        elif isinstance(record, Relation):
            pairs += [(self.person(record.source), "source"),
                      (self.person(record.target), "target")]
            pairs += [(e, None) for e in map(snap.bundle.event, record.events) if e is not None]
        elif isinstance(record, State):
            pairs.append((self.person(record.person), None))
        else:
            pairs += [(e, None) for e in snap.events_in[record.chapter]]
        return [linked_record(r, names, role) for r, role in pairs]

    def events_of(self, person_id: str) -> list[Event]:
        self.person(person_id)
        return list(self._snap.events_of[person_id])

    def states_of(self, person_id: str) -> list[State]:
        self.person(person_id)
        return list(self._snap.states_of[person_id])

    def timeline(self, person_id: str) -> Timeline:
        return Timeline(self.person(person_id), self.events_of(person_id),
                        self.states_of(person_id))

    def _stored(self, person_id: str) -> StoredDocs:
        self.person(person_id)
        return self._snap.journeys[person_id]

    def journey(self, person_id: str) -> Journey:
        return Journey.model_validate_json(self._stored(person_id).journey)

    def journey_digest(self, person_id: str) -> JourneyDigest:
        return JourneyDigest.model_validate_json(self._stored(person_id).digest)

    def journey_digest_json(self, person_id: str) -> str:
        return self._stored(person_id).digest

    def kept_journey_digest_json(self, key: str) -> str | None:
        person_id = self._snap.resolver.known(key)  # everything here is in memory
        try:
            return None if person_id is None else self.journey_digest_json(person_id)
        except NotFound:  # a load swapped the graph in between
            return None

    def stage_events(self, person_id: str, stage: int, offset: int = 0,
                     limit: int = PAGE_LIMIT) -> StageEvents:
        stored = self._stored(person_id)
        bundle = self._snap.bundle
        return page_of(person_id, JourneyDigest.model_validate_json(stored.digest),
                       stored.stages, stage, offset, limit,
                       lambda ids: {i: e for i in ids if (e := bundle.event(i)) is not None})

    def path(self, a_id: str, b_id: str, max_hops: int = MAX_HOPS) -> PathResult:
        check_hops(max_hops, MAX_HOPS)
        a, b = self.person(a_id), self.person(b_id)
        snap = self._snap
        ids = _smallest_shortest_path(snap.graph, a_id, b_id, max_hops)
        hops = [PathHop(source=x, target=y, relations=[
                    RelationView.of(r) for r in sorted(
                        (r for r in snap.relations_of[x] if _other(r, x) == y), key=relation_key)])
                for x, y in zip(ids, ids[1:], strict=False)]
        return PathResult(source=PersonView.of(a), target=PersonView.of(b), max_hops=max_hops,
                          found=bool(ids), people=[PersonView.of(self.person(i)) for i in ids],
                          hops=hops)

    def neighbors(self, person_id: str) -> list[Neighbor]:
        self.person(person_id)
        groups: dict[str, list[Relation]] = defaultdict(list)
        for relation in self._snap.relations_of[person_id]:
            groups[_other(relation, person_id)].append(relation)
        return build_neighbors((self.person(other), rels) for other, rels in groups.items())

    def load(self, bundle: KnowledgeBundle) -> LoadReport:
        started = time.perf_counter()
        bundle.check()
        self._snap = _Snapshot.build(bundle)
        return LoadReport(backend=self.backend, graph=self.graph_name,
                          seconds=time.perf_counter() - started, **bundle.counts())

    def stats(self) -> Stats:
        bundle = self._snap.bundle
        types = Counter(r.type for r in bundle.relations)
        return Stats(names=len(self._snap.names),
                     sources=sum(len(r.sources) for r in bundle.records()),
                     relation_types=dict(sorted(types.items())), backend=self.backend,
                     graph=self.graph_name, **bundle.counts())

    def close(self) -> None:
        """Nothing to release."""


def _role(event: Event, person_id: str) -> str:
    return next(p.role for p in event.participants if p.person == person_id)


def _smallest_shortest_path(graph: nx.Graph, a: str, b: str, max_hops: int) -> list[str]:
    """Among the shortest paths of at most `max_hops` edges, the lexicographically smallest
    sequence of ids: distances from `b`, then from `a` always the smallest next step closer."""
    if a == b:
        return [a]
    distance = nx.single_source_shortest_path_length(graph, b, cutoff=max_hops)
    if a not in distance:
        return []
    path = [a]
    while path[-1] != b:
        here = distance[path[-1]]
        path.append(min(n for n in graph.neighbors(path[-1]) if distance.get(n) == here - 1))
    return path
