"""Graph-shaped views for drawing: a person's neighbourhood, and the subgraph of given records.

The explorer draws these with a graph library, so they are nodes and edges with what a legend,
a chapter slider and a side panel need (type, label, chapters), and no sources: a click opens
the record by id (`RelationProvider.record`), which has them. Both are built from the Protocol's
verbs only, so every store gives the same graph.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

from core.errors import NotFound
from kb.knowledge.models import Event, Person
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.views import EventView, PersonView, RelationView, StateView


class GraphNode(BaseModel):
    id: str
    label: str
    kind: Literal["person", "event"] = "person"
    group: str | None = None
    first_chapter: int | None = Field(default=None, description="a person's first chapter")
    chapter: int | None = Field(default=None, description="an event's chapter")
    degree: int = Field(default=0, description="relations with the centre (neighbourhood)")


class GraphEdge(BaseModel):
    id: str
    source: str
    target: str
    kind: Literal["relation", "participant"] = "relation"
    type: str = Field(description="relation type (sworn_brothers …) or the participant's role")
    label: str
    directed: bool = False
    chapters: list[int] = Field(description="chapters the relation is known from, ascending")
    description: str = ""


class EventStub(BaseModel):
    """An event in short, for lists and timelines; open it by id for its sources."""

    id: str
    title: str
    chapter: int
    order: int
    place: str | None
    participants: list[str]
    turning_point: bool


class Neighbourhood(BaseModel):
    """A person, everyone related to them (most relations first) and those relations."""

    center: PersonView
    nodes: list[GraphNode] = Field(description="the centre first, then neighbours")
    edges: list[GraphEdge]


class Subgraph(BaseModel):
    """People, events and relations of a set of records (e.g. the ones an answer used)."""

    nodes: list[GraphNode]
    edges: list[GraphEdge]
    records: list[str] = Field(description="the record ids found, in the order given")
    missing: list[str] = Field(description="ids that name no record")


def relation_chapters(relation: RelationView) -> list[int]:
    """The relation's chapters and those of its sources: when it is known from."""
    chapters = set(relation.chapters) | {s.chapter for s in relation.sources if s.chapter is not None}
    return sorted(chapters)


def edge_of(relation: RelationView) -> GraphEdge:
    return GraphEdge(id=relation.id, source=relation.source, target=relation.target,
                     type=relation.type, label=relation.label, directed=relation.directed,
                     chapters=relation_chapters(relation), description=relation.description)


def person_node(person: Person | PersonView, degree: int = 0) -> GraphNode:
    return GraphNode(id=person.id, label=person.name, group=person.group,
                     first_chapter=person.first_chapter, degree=degree)


def event_stub(event: Event | EventView) -> EventStub:
    return EventStub(id=event.id, title=event.title, chapter=event.chapter, order=event.order,
                     place=event.place, participants=[p.person for p in event.participants],
                     turning_point=event.turning_point)


def neighbourhood(provider: RelationProvider, person_id: str) -> Neighbourhood:
    """The person with every neighbour and every relation between them and the person."""
    person = provider.person(person_id)
    neighbours = provider.neighbors(person_id)
    nodes = [person_node(person)]
    edges: list[GraphEdge] = []
    for neighbour in neighbours:
        nodes.append(person_node(neighbour.person, degree=len(neighbour.relations)))
        edges.extend(edge_of(r) for r in neighbour.relations)
    nodes[0].degree = len(edges)
    return Neighbourhood(center=PersonView.of(person), nodes=nodes, edges=edges)


def event_stubs(provider: RelationProvider, person_id: str) -> list[EventStub]:
    """The person's events in book order, in short."""
    return [event_stub(e) for e in provider.events_of(person_id)]


def subgraph(provider: RelationProvider, record_ids: Iterable[str]) -> Subgraph:
    """Relations become edges between their people, events become nodes tied to their
    participants, people and states become (their) person nodes; chapter records add nothing."""
    nodes: dict[str, GraphNode] = {}
    edges: dict[str, GraphEdge] = {}
    found: list[str] = []
    missing: list[str] = []

    def add_person(pid: str) -> None:
        if pid not in nodes:
            nodes[pid] = person_node(provider.person(pid))

    for record_id in dict.fromkeys(record_ids):
        try:
            view = provider.record(record_id)
        except NotFound:
            missing.append(record_id)
            continue
        found.append(record_id)
        record = view.record
        if isinstance(record, PersonView):
            add_person(record.id)
        elif isinstance(record, RelationView):
            add_person(record.source)
            add_person(record.target)
            edges[record.id] = edge_of(record)
        elif isinstance(record, EventView):
            nodes[record.id] = GraphNode(id=record.id, label=record.title, kind="event",
                                         chapter=record.chapter)
            for participant in record.participants:
                add_person(participant.person)
                edge_id = f"{record.id}~{participant.person}"
                edges[edge_id] = GraphEdge(id=edge_id, source=participant.person, target=record.id,
                                           kind="participant", type=participant.role,
                                           label=participant.role, chapters=[record.chapter])
        elif isinstance(record, StateView):
            add_person(record.person)
    return Subgraph(nodes=list(nodes.values()), edges=list(edges.values()), records=found,
                    missing=missing)

