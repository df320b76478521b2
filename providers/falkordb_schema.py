"""The FalkorDB graph of a bundle: node and edge rows, and the parameterized Cypher that writes them.

Nodes: every record is `:Rec` plus its kind's label (`:Person`, `:Event`, `:Relation`, `:State`,
`:Chapter`) with `id`, `kind`, `doc` (the record's JSON), `title` and `lchapter` (its short form
as a linked record) and `nsources`. Every name and alias is a `:Name {key}` node (key =
`normalize(name)`) pointing to its person. Edges: `(:Person)-[:IN {role}]->(:Event)`,
`(:Person)-[:REL {id, type, doc}]->(:Person)` (source → target; read both ways),
`(:Relation)-[:ENDPOINT {role}]->(:Person)`, `(:Relation)-[:EVIDENCE]->(:Event)`,
`(:State)-[:OF]->(:Person)`, `(:Chapter)-[:HAS]->(:Event)`.

Pairs are also materialized at load: a `:Pair {key}` node for every two people with a relation or
a shared event holds those records' JSON, so `pair` is two index seeks and one round trip. (In
FalkorDB 4.16 each traversal step of a query costs ~0.1 ms of server time; the pair lookup must
stay under 1 ms end to end.)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import Record
from kb.knowledge.names import name_entries
from kb.knowledge.views import linked_record

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
)

_NODE = ("UNWIND $rows AS r CREATE (:Rec:{label} {{id: r.id, kind: r.kind, doc: r.doc, "
         "title: r.title, lchapter: r.lchapter, nsources: r.nsources}})")

NODE_STEPS: tuple[tuple[str, str], ...] = tuple(
    (label, _NODE.format(label=label))
    for label in ("Person", "Event", "Relation", "State", "Chapter")) + (
    ("Pair", "UNWIND $rows AS r CREATE (:Pair {key: r.key, relations: r.relations, "
             "events: r.events})"),)
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

COUNT = "MATCH (n) WITH count(n) AS nodes OPTIONAL MATCH ()-[r]->() RETURN nodes, count(r)"


def pair_key(a_id: str, b_id: str) -> str:
    """The key of the `:Pair` node of two people, whichever order they come in."""
    return json.dumps(sorted((a_id, b_id)), ensure_ascii=False)


def _pairs(bundle: KnowledgeBundle) -> list[Row]:
    pairs: dict[str, Row] = {}

    def row(a_id: str, b_id: str) -> Row:
        key = pair_key(a_id, b_id)
        return pairs.setdefault(key, {"key": key, "relations": [], "events": []})

    for relation in bundle.relations:
        row(relation.source, relation.target)["relations"].append(relation.model_dump_json())
    for event in bundle.events:
        for a_id, b_id in itertools.combinations(sorted(set(event.person_ids)), 2):
            row(a_id, b_id)["events"].append(event.model_dump_json())
    return list(pairs.values())


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
    rows["Pair"] = _pairs(bundle)
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
