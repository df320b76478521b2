"""Every read query of the FalkorDB provider: parameterized Cypher, one round trip per answer."""

from __future__ import annotations

RESOLVE = ("MATCH (n:Name {key: $key})-[:NAMES]->(p:Person) "
           "RETURN n.key, n.written, n.person, n.person_name, n.primary, p.doc")
ALL_NAMES = "MATCH (n:Name) RETURN n.key, n.written, n.person, n.person_name, n.primary"
META = "MATCH (m:Meta {key: $key}) RETURN m.doc"
PEOPLE = "MATCH (p:Person) RETURN p.doc"
PERSON = "MATCH (p:Person {id: $id}) RETURN p.doc"
PERSON_IDS = "MATCH (p:Person) RETURN p.id"
RECORD_IDS = "MATCH (n:Rec) RETURN n.id"

PAIR = "MATCH (k:Pair {key: $key}) RETURN k.view"
"""Reads the pair materialized at load (see providers.falkordb_schema)."""
UNRELATED_PAIR = "MATCH (a:Person {id: $a}), (b:Person {id: $b}) RETURN a.doc, b.doc"
"""Two people without a pair node: nothing links them (or an id is unknown)."""

RECORD = ("MATCH (n:Rec {id: $id}) "
          "OPTIONAL MATCH (n)-[l]-(m:Rec) WHERE type(l) <> 'REL' "
          "RETURN n.kind, n.doc, collect([m.kind, m.id, m.title, m.lchapter, l.role])")

EVENTS_OF = ("MATCH (p:Person {id: $id}) OPTIONAL MATCH (p)-[:IN]->(e:Event) "
             "RETURN p.id, collect(e.doc)")
STATES_OF = ("MATCH (p:Person {id: $id}) OPTIONAL MATCH (s:State)-[:OF]->(p) "
             "RETURN p.id, collect(s.doc)")
JOURNEY = ("MATCH (p:Person {id: $id}) "
           "OPTIONAL MATCH (p)-[:IN]->(e:Event) WITH p, collect(e.doc) AS events "
           "OPTIONAL MATCH (s:State)-[:OF]->(p) "
           "RETURN p.doc, events, collect(s.doc)")
STORED_JOURNEY = "MATCH (p:Person {id: $id}) RETURN p.journey"
JOURNEY_DIGEST = "MATCH (p:Person {id: $id}) RETURN p.digest"
JOURNEY_STAGES = "MATCH (p:Person {id: $id}) RETURN p.digest, p.stages"
"""The journey built at load (see providers.falkordb_schema): one property read."""
EVENT_DOCS = "UNWIND $ids AS i MATCH (e:Event {id: i}) RETURN e.id, e.doc"
NEIGHBORS = ("MATCH (p:Person {id: $id}) OPTIONAL MATCH (p)-[r:REL]-(o:Person) "
             "RETURN p.id, o.doc, collect(r.doc)")

_PATH = ("MATCH (a:Person {{id: $a}}), (b:Person {{id: $b}}) WITH a, b "
         "OPTIONAL MATCH p = allShortestPaths((a)-[:REL*1..{hops}]-(b)) "
         "RETURN a.doc, b.doc, collect(DISTINCT [n IN nodes(p) | n.id])")
PATHS: dict[int, str] = {hops: _PATH.format(hops=hops) for hops in range(1, 5)}
"""One query per hop limit: a variable-length bound cannot be a parameter."""

HOP_RELATIONS = ("UNWIND $steps AS s MATCH (x:Person {id: s[0]})-[r:REL]-(y:Person {id: s[1]}) "
                 "RETURN s[0], s[1], x.doc, y.doc, r.doc")

COUNT_RECORDS = "MATCH (n:Rec) RETURN n.kind, count(n), sum(n.nsources)"
COUNT_NAMES = "MATCH (n:Name) RETURN count(DISTINCT n.key)"
RELATION_TYPES = "MATCH ()-[r:REL]->() RETURN r.type, count(r)"
