"""The FalkorDB graph of a bundle: node and edge rows, and the parameterized Cypher that writes them.

Nodes: every record is `:Rec` plus its kind's label (`:Person`, `:Event`, `:Relation`, `:State`,
`:Chapter`) with `id`, `kind`, `doc` (the record's JSON), `title` and `lchapter` (its short form
as a linked record) and `nsources`. Every name and alias is a `:Name {key}` node (key =
`normalize(name)`) pointing to its person. Edges: `(:Person)-[:IN {role}]->(:Event)`,
`(:Person)-[:REL {id, type, doc}]->(:Person)` (source → target; read both ways),
`(:Relation)-[:ENDPOINT {role}]->(:Person)`, `(:Relation)-[:EVIDENCE]->(:Event)`,
`(:State)-[:OF]->(:Person)`, `(:Chapter)-[:HAS]->(:Event)`.

The name resolver's table (every name and alias with its person, and every person id) is one
`:Meta {key: "names"}` node, so a process resolves names after one read.

Journeys are decided at load too (`kb.knowledge.journey_store`): each `:Person` holds `journey`
(the skeleton `journey_of` built, as JSON), `digest` (its default view) and `stages` (each stage's
event ids), so a journey is one property read.

Pairs are also materialized at load: a `:Pair {key}` node for every two people with a relation or
a shared event holds the pair's view as `kb.knowledge.pairs.build_pair` makes it (relations,
shared events, where they met, the key events), so `pair` is one index seek, one round trip and
one JSON parse, whatever the hub. (In
FalkorDB 4.16 each traversal step of a query costs ~0.1 ms of server time; the pair lookup must
stay under 1 ms end to end.)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.knowledge.journey_store import build_journeys
from kb.knowledge.models import Event, Record, Relation
from kb.knowledge.names import NameResolver, name_entries
from kb.knowledge.pairs import build_pair, cited_events
from kb.knowledge.views import linked_record

if TYPE_CHECKING:
    from kb.knowledge.bundle import KnowledgeBundle

Row = dict[str, Any]

INDEXES = (
    "CREATE INDEX FOR (n:Rec) ON (n.id)",
    "CREATE INDEX FOR (n:Person) ON (n.id)",
    "CREATE INDEX FOR (n:Event) ON (n.id)",
    "CREATE INDEX FOR (n:Relation) ON (n.id)",
    "CREATE INDEX FOR (n:State) ON (n.id)",
    "CREATE INDEX FOR (n:Chapter) ON (n.id)",
    "CREATE INDEX FOR (n:Name) ON (n.key)",
    "CREATE INDEX FOR (n:Pair) ON (n.key)",
    "CREATE INDEX FOR (n:Meta) ON (n.key)",
)

_NODE = ("UNWIND $rows AS r CREATE (:Rec:{label} {{id: r.id, kind: r.kind, doc: r.doc, "
         "title: r.title, lchapter: r.lchapter, nsources: r.nsources}})")

_PERSON = ("UNWIND $rows AS r CREATE (:Rec:Person {id: r.id, kind: r.kind, doc: r.doc, "
           "title: r.title, lchapter: r.lchapter, nsources: r.nsources, journey: r.journey, "
           "digest: r.digest, stages: r.stages})")

NODE_STEPS: tuple[tuple[str, str], ...] = (("Person", _PERSON),) + tuple(
    (label, _NODE.format(label=label))
    for label in ("Event", "Relation", "State", "Chapter")) + (
    ("Pair", "UNWIND $rows AS r CREATE (:Pair {key: r.key, view: r.view})"),
    ("Meta", "UNWIND $rows AS r CREATE (:Meta {key: r.key, doc: r.doc})"),)
"""(rows key, statement) for the nodes; they are written before any edge."""

EDGE_STEPS: tuple[tuple[str, str], ...] = (
    ("Name", "UNWIND $rows AS r MATCH (p:Person {id: r.person}) "
             "CREATE (:Name {key: r.key, written: r.written, person: r.person, "
             "person_name: r.person_name, primary: r.primary})-[:NAMES]->(p)"),
    ("IN", "UNWIND $rows AS r MATCH (p:Person {id: r.person}), (e:Event {id: r.event}) "
           "CREATE (p)-[:IN {role: r.role}]->(e)"),
    ("REL", "UNWIND $rows AS r MATCH (a:Person {id: r.source}), (b:Person {id: r.target}) "
            "CREATE (a)-[:REL {id: r.id, type: r.type, doc: r.doc}]->(b)"),
    ("ENDPOINT", "UNWIND $rows AS r MATCH (x:Relation {id: r.relation}), "
                 "(p:Person {id: r.person}) CREATE (x)-[:ENDPOINT {role: r.role}]->(p)"),
    ("EVIDENCE", "UNWIND $rows AS r MATCH (x:Relation {id: r.relation}), "
                 "(e:Event {id: r.event}) CREATE (x)-[:EVIDENCE]->(e)"),
    ("OF", "UNWIND $rows AS r MATCH (s:State {id: r.state}), (p:Person {id: r.person}) "
           "CREATE (s)-[:OF]->(p)"),
    ("HAS", "UNWIND $rows AS r MATCH (c:Chapter {id: r.chapter}), (e:Event {id: r.event}) "
            "CREATE (c)-[:HAS]->(e)"),
)
"""(rows key, statement) for names and edges; Name rows make one node and one edge each."""

NAMES_KEY = "names"
"""The `:Meta` node holding the name resolver's table: one read builds it."""

COUNT = "MATCH (n) WITH count(n) AS nodes OPTIONAL MATCH ()-[r]->() RETURN nodes, count(r)"


def pair_key(a_id: str, b_id: str) -> str:
    """The key of the `:Pair` node of two people, whichever order they come in."""
    return json.dumps(sorted((a_id, b_id)), ensure_ascii=False)


def _pairs(bundle: KnowledgeBundle) -> list[Row]:
    """One row per related pair: its key and its view as `build_pair` makes it (people in key
    order; a read in the other order swaps `a` and `b`, the rest of the view does not depend on
    the order)."""
    found: dict[tuple[str, str], tuple[list[Relation], list[Event]]] = {}

    def group(a_id: str, b_id: str) -> tuple[list[Relation], list[Event]]:
        x, y = sorted((a_id, b_id))
        return found.setdefault((x, y), ([], []))

    for relation in bundle.relations:
        group(relation.source, relation.target)[0].append(relation)
    for event in bundle.events:
        for a_id, b_id in itertools.combinations(sorted(set(event.person_ids)), 2):
            group(a_id, b_id)[1].append(event)
    people = {p.id: p for p in bundle.people}
    by_id = {e.id: e for e in bundle.events}
    return [{"key": pair_key(a_id, b_id),
             "view": build_pair(people[a_id], people[b_id], relations, events,
                                cited_events(relations, by_id.get)).model_dump_json()}
            for (a_id, b_id), (relations, events) in found.items()]


def _node(record: Record, names: dict[str, str]) -> Row:
    short = linked_record(record, names)
    return {"id": record.id, "kind": short.kind, "doc": record.model_dump_json(),
            "title": short.title, "lchapter": short.chapter, "nsources": len(record.sources)}


def _edges(bundle: KnowledgeBundle) -> Iterator[tuple[str, Row]]:
    for person in bundle.people:
        for entry in name_entries(person):
            yield "Name", {"key": entry.key, "written": entry.written, "person": person.id,
                           "person_name": person.name, "primary": entry.primary}
    for event in bundle.events:
        for participant in event.participants:
            yield "IN", {"person": participant.person, "event": event.id,
                         "role": participant.role}
        if bundle.chapter(f"ch{event.chapter:03d}") is not None:
            yield "HAS", {"chapter": f"ch{event.chapter:03d}", "event": event.id}
    for relation in bundle.relations:
        yield "REL", {"id": relation.id, "type": relation.type, "source": relation.source,
                      "target": relation.target, "doc": relation.model_dump_json()}
        for role in ("source", "target"):
            yield "ENDPOINT", {"relation": relation.id, "person": getattr(relation, role),
                               "role": role}
        for event_id in relation.events:
            yield "EVIDENCE", {"relation": relation.id, "event": event_id}
    for state in bundle.states:
        yield "OF", {"state": state.id, "person": state.person}


def graph_rows(bundle: KnowledgeBundle) -> dict[str, list[Row]]:
    """Rows for every step, keyed like NODE_STEPS and EDGE_STEPS."""
    names = {p.id: p.name for p in bundle.people}
    rows: dict[str, list[Row]] = {key: [] for key, _ in (*NODE_STEPS, *EDGE_STEPS)}
    groups = (("Person", bundle.people), ("Event", bundle.events),
              ("Relation", bundle.relations), ("State", bundle.states),
              ("Chapter", bundle.chapters))
    for label, records in groups:
        rows[label] = [_node(record, names) for record in records]
    journeys = build_journeys(bundle)
    for row in rows["Person"]:
        stored = journeys[row["id"]]
        row.update(journey=stored.journey.model_dump_json(), digest=stored.digest.model_dump_json(),
                   stages=json.dumps(stored.stage_events))
    rows["Pair"] = _pairs(bundle)
    resolver = NameResolver.of_people(bundle.people)
    rows["Meta"] = [{"key": NAMES_KEY, "doc": json.dumps(
        {"ids": sorted(resolver.ids), "names": resolver.to_rows()}, ensure_ascii=False)}]
    for key, row in _edges(bundle):
        rows[key].append(row)
    return rows


def expected_counts(rows: dict[str, list[Row]]) -> tuple[int, int]:
    """(nodes, edges) the rows create: a Name row makes a node and an edge."""
    nodes = sum(len(rows[key]) for key, _ in NODE_STEPS) + len(rows["Name"])
    edges = sum(len(rows[key]) for key, _ in EDGE_STEPS)
    return nodes, edges


def batches(rows: list[Row], size: int) -> Iterator[list[Row]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]
