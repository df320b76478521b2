"""The production RelationProvider: FalkorDB, parameterized Cypher, one graph per corpus.

Reads go to the live graph only. `load` writes a fresh staging graph in UNWIND batches, checks its
node and edge counts, then RENAMEs it over the live graph in one atomic step: a reader sees the
old graph or the new one, never a half-loaded one, and a failed load leaves the old one.
Queries return only scalars (record JSON, ids), so no client-side schema cache is involved.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from typing import Any

import redis
from falkordb import FalkorDB
from redis.backoff import NoBackoff
from redis.retry import Retry

from core.errors import ProviderUnavailable, QueryRejected
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.journey import journey_of
from kb.knowledge.journey_store import (
    PAGE_LIMIT,
    JourneyDigest,
    StageEvents,
    StoredJourney,
    page_of,
    store_journey,
)
from kb.knowledge.models import ChapterSummary, Event, Person, Record, Relation, State
from kb.knowledge.names import NameEntry, NameResolver
from kb.knowledge.pairs import build_pair
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
    relation_key,
    sort_linked,
    sources_of,
    state_key,
    view_of,
)
from providers import falkordb_queries as q
from providers.embedded import EmbeddedServer
from providers.falkordb_schema import (
    COUNT,
    EDGE_STEPS,
    INDEXES,
    NAMES_KEY,
    NODE_STEPS,
    batches,
    expected_counts,
    graph_rows,
    pair_key,
)
from providers.naming import check_hops, unknown_id

log = logging.getLogger(__name__)

MODELS: dict[str, type[Person | Event | Relation | State | ChapterSummary]] = {
    "person": Person, "event": Event, "relation": Relation, "state": State,
    "chapter": ChapterSummary}
BATCH_SIZE = 500


def _person(doc: str) -> Person:
    return Person.model_validate_json(doc)


def _events(docs: list[str]) -> list[Event]:
    return sorted((Event.model_validate_json(d) for d in docs), key=lambda e: e.order)


def _states(docs: list[str]) -> list[State]:
    return sorted((State.model_validate_json(d) for d in docs), key=state_key)


def _entry(row: list[Any]) -> NameEntry:
    key, written, person_id, person_name, primary = row
    return NameEntry(key, written, person_id, person_name, bool(primary))


TIMELINES_KEPT = 128
"""Parsed timelines kept per provider: a hub's (hundreds of events) takes tens of milliseconds to
fetch and parse, and questions come back to the same few people again and again."""

AOF_REWRITE_WAIT = 30.0
"""Seconds a load waits for the log rewrite it started (the whole book takes well under one)."""


class FalkorDBProvider:
    """FalkorDB behind the RelationProvider verbs; connects on first use, not in the constructor.

    Give `url` for an external server, or `server` for the embedded one (started on first use and
    stopped by `close` if this provider started it).
    """

    backend = "falkordb"

    def __init__(self, url: str | None = None, server: EmbeddedServer | None = None,
                 graph_name: str = "kbx:shuihu") -> None:
        if (url is None) == (server is None):
            raise ValueError("give exactly one of url and server")
        self.graph_name = graph_name
        self._url = url
        self._server = server
        self._db: FalkorDB | None = None
        self._resolver: NameResolver | None = None
        self._connecting: threading.Thread | None = None
        self._timelines: OrderedDict[str, Timeline] = OrderedDict()  # dropped by `load`
        self._timelines_lock = threading.Lock()

    # -- connection and the one boundary where redis errors become domain errors

    def connect_in_background(self) -> None:
        """Find or start the server and connect in a thread, while the caller does its other
        start-up work (the corpus, the bundle): a cold embedded server takes a few hundred
        milliseconds to start and replay its log, which a `kbx ask` or a service start would
        otherwise wait for afterwards. The first query joins the thread; a failure there is
        raised again by that query, which tries once more."""
        if self._db is None and self._connecting is None:
            self._connecting = threading.Thread(target=self._connect_quietly, daemon=True,
                                                name="falkordb-connect")
            self._connecting.start()

    def _connect_quietly(self) -> None:
        try:
            self._client()
        except ProviderUnavailable as exc:
            log.debug("background connect failed; the first query retries",
                      extra={"error": str(exc)})

    def _client(self) -> FalkorDB:
        connecting = self._connecting
        if connecting is not None and connecting is not threading.current_thread():
            connecting.join()
            self._connecting = None
        if self._db is None:
            url = self._server.ensure_running() if self._server is not None else str(self._url)
            try:
                self._db = FalkorDB.from_url(url, socket_connect_timeout=5, socket_timeout=60,
                                             retry=Retry(NoBackoff(), 1))
            except (redis.RedisError, ValueError) as exc:
                raise ProviderUnavailable(f"cannot connect to FalkorDB at {url}: {exc}") from exc
        return self._db

    def _run(self, graph: str, query: str, params: dict[str, Any] | None = None,
             write: bool = False) -> list[list[Any]]:
        handle = self._client().select_graph(graph)
        try:
            result = (handle.query if write else handle.ro_query)(query, params)
        except redis.ResponseError as exc:
            if not write and "empty key" in str(exc):
                return []  # nothing loaded yet: an empty graph
            raise ProviderUnavailable(f"FalkorDB query failed on {graph}: {exc}") from exc
        except redis.RedisError as exc:
            raise ProviderUnavailable(f"FalkorDB unavailable: {exc}") from exc
        rows: list[list[Any]] = result.result_set
        return rows

    def _read(self, query: str, **params: Any) -> list[list[Any]]:
        return self._run(self.graph_name, query, params)

    # -- people and names

    def names(self) -> NameResolver:
        """The name resolver of the loaded graph: read once (one query), dropped by `load`."""
        resolver = self._resolver
        if resolver is None:
            rows = self._read(q.META, key=NAMES_KEY)
            if rows and rows[0][0] is not None:
                table = json.loads(rows[0][0])
                resolver = NameResolver.from_rows(table["names"], table["ids"])
            else:  # a graph loaded before the table was stored, or an empty one
                ids = [row[0] for row in self._read(q.PERSON_IDS)]
                resolver = NameResolver((_entry(r) for r in self._read(q.ALL_NAMES)), ids)
            if resolver.ids:  # an empty graph may be loaded by another process in a moment
                self._resolver = resolver
        return resolver

    def resolve(self, name: str) -> Person:
        return self.person(self.names().by_name(name))

    def person_id(self, key: str) -> str:
        return self.names().person_id(key)

    def people(self) -> list[Person]:
        people = [_person(row[0]) for row in self._read(q.PEOPLE)]
        return sorted(people, key=lambda p: (
            NO_CHAPTER if p.first_chapter is None else p.first_chapter, p.id))

    def person(self, person_id: str) -> Person:
        rows = self._read(q.PERSON, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        return _person(rows[0][0])

    def _unknown_person_id(self, person_id: str) -> Exception:
        return self.names().unknown_id(person_id)

    # -- reads by id

    def pair(self, a_id: str, b_id: str) -> Pair:
        if a_id == b_id:
            raise QueryRejected("a pair needs two different people")
        rows = self._read(q.PAIR, key=pair_key(a_id, b_id))
        if rows and rows[0][0] is None:
            raise ProviderUnavailable(f"graph {self.graph_name!r} was loaded by an older kbx "
                                      "(pairs without views): run `kbx kb load` again")
        if rows:
            pair = Pair.model_validate_json(rows[0][0])
            return pair if pair.a.id == a_id else pair.model_copy(update={"a": pair.b,
                                                                           "b": pair.a})
        rows = self._read(q.UNRELATED_PAIR, a=a_id, b=b_id)
        if not rows:
            self.person(a_id)
            self.person(b_id)
            raise ProviderUnavailable(f"the pair query found no row for {a_id}, {b_id}")
        a_doc, b_doc = rows[0]
        return build_pair(_person(a_doc), _person(b_doc), [], [])

    def record(self, record_id: str) -> RecordView:
        rows = self._read(q.RECORD, id=record_id)
        if not rows:
            known = (r[0] for r in self._read(q.RECORD_IDS))
            raise unknown_id("record", record_id, known)
        kind, doc, links = rows[0]
        record: Record = MODELS[kind].model_validate_json(doc)
        linked = [LinkedRecord(kind=k, id=i, title=t, chapter=c, role=role)
                  for k, i, t, c, role in links if k is not None]
        return RecordView(kind=kind, record=view_of(record), linked=sort_linked(linked),
                          sources=sources_of(record.sources))

    def events_of(self, person_id: str) -> list[Event]:
        rows = self._read(q.EVENTS_OF, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        return _events(rows[0][1])

    def states_of(self, person_id: str) -> list[State]:
        rows = self._read(q.STATES_OF, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        return _states(rows[0][1])

    def timeline(self, person_id: str) -> Timeline:
        """Read once per loaded graph and kept (the last `TIMELINES_KEPT`), as the names are:
        records do not change until the next `load`, which drops them. Callers only read it."""
        with self._timelines_lock:
            kept = self._timelines.get(person_id)
            if kept is not None:
                self._timelines.move_to_end(person_id)
                return kept
        rows = self._read(q.JOURNEY, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        doc, events, states = rows[0]
        timeline = Timeline(_person(doc), _events(events), _states(states))
        with self._timelines_lock:
            self._timelines[person_id] = timeline
            while len(self._timelines) > TIMELINES_KEPT:
                self._timelines.popitem(last=False)
        return timeline

    def journey(self, person_id: str) -> Journey:
        rows = self._read(q.STORED_JOURNEY, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        if rows[0][0] is None:  # a graph loaded before journeys were stored
            return journey_of(self, person_id)
        return Journey.model_validate_json(rows[0][0])

    def journey_digest(self, person_id: str) -> JourneyDigest:
        return JourneyDigest.model_validate_json(self.journey_digest_json(person_id))

    def journey_digest_json(self, person_id: str) -> str:
        rows = self._read(q.JOURNEY_DIGEST, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        if rows[0][0] is None:  # a graph loaded before journeys were stored
            return self._stored(person_id).digest.model_dump_json()
        return str(rows[0][0])

    def stage_events(self, person_id: str, stage: int, offset: int = 0,
                     limit: int = PAGE_LIMIT) -> StageEvents:
        rows = self._read(q.JOURNEY_STAGES, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        digest_doc, stages_doc = rows[0]
        if digest_doc is None or stages_doc is None:
            stored = self._stored(person_id)
            digest, stages = stored.digest, stored.stage_events
        else:
            digest = JourneyDigest.model_validate_json(digest_doc)
            stages = json.loads(stages_doc)
        return page_of(person_id, digest, stages, stage, offset, limit, self._events_by_id)

    def _stored(self, person_id: str) -> StoredJourney:
        """A journey built on read, for a graph loaded before journeys were stored."""
        timeline = self.timeline(person_id)
        return store_journey(journey_of(self, person_id), timeline.person, timeline.events)

    def _events_by_id(self, ids: Sequence[str]) -> dict[str, Event]:
        if not ids:
            return {}
        return {i: Event.model_validate_json(doc)
                for i, doc in self._read(q.EVENT_DOCS, ids=list(ids))}

    def neighbors(self, person_id: str) -> list[Neighbor]:
        rows = self._read(q.NEIGHBORS, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        return build_neighbors((_person(doc), [Relation.model_validate_json(d) for d in rels])
                               for _, doc, rels in rows if doc is not None)

    def path(self, a_id: str, b_id: str, max_hops: int = MAX_HOPS) -> PathResult:
        check_hops(max_hops, MAX_HOPS)
        if a_id == b_id:
            alone = PersonView.of(self.person(a_id))
            return PathResult(source=alone, target=alone, max_hops=max_hops, found=True,
                              people=[alone], hops=[])
        rows = self._read(q.PATHS[max_hops], a=a_id, b=b_id)
        if not rows:
            self.person(a_id)
            raise self._unknown_person_id(b_id)
        a_doc, b_doc, paths = rows[0]
        ids: list[str] = min(paths, default=[])
        people, hops = self._hops(ids)
        return PathResult(source=PersonView.of(_person(a_doc)),
                          target=PersonView.of(_person(b_doc)), max_hops=max_hops,
                          found=bool(ids), people=people, hops=hops)

    def _hops(self, ids: list[str]) -> tuple[list[PersonView], list[PathHop]]:
        """The people along the path and every relation of each hop, in one round trip."""
        steps = [[x, y] for x, y in zip(ids, ids[1:], strict=False)]
        docs: dict[str, str] = {}
        found: dict[tuple[str, str], list[Relation]] = defaultdict(list)
        for x, y, x_doc, y_doc, doc in self._read(q.HOP_RELATIONS, steps=steps) if steps else []:
            docs.update({x: x_doc, y: y_doc})
            found[(x, y)].append(Relation.model_validate_json(doc))
        hops = [PathHop(source=x, target=y, relations=[
                    RelationView.of(r) for r in sorted(found[(x, y)], key=relation_key)])
                for x, y in steps]
        return [PersonView.of(_person(docs[i])) for i in ids], hops

    def stats(self) -> Stats:
        counts = {kind: 0 for kind in MODELS}
        sources = 0
        for kind, count, nsources in self._read(q.COUNT_RECORDS):
            counts[kind], sources = count, sources + nsources
        names = self._read(q.COUNT_NAMES)
        types = dict(sorted((t, n) for t, n in self._read(q.RELATION_TYPES)))
        return Stats(people=counts["person"], events=counts["event"],
                     relations=counts["relation"], states=counts["state"],
                     chapters=counts["chapter"], names=names[0][0] if names else 0,
                     sources=sources, relation_types=types, backend=self.backend,
                     graph=self.graph_name)

    # -- writing

    def load(self, bundle: KnowledgeBundle) -> LoadReport:
        started = time.perf_counter()
        bundle.check()
        rows = graph_rows(bundle)
        staging = f"{self.graph_name}:staging:{uuid.uuid4().hex[:12]}"
        try:
            self._write(staging, rows)
            self._client().connection.execute_command("RENAME", staging, self.graph_name)
        except BaseException:
            self._drop(staging)
            raise
        self._resolver = None
        with self._timelines_lock:
            self._timelines.clear()
        self._compact_log()
        log.info("graph loaded", extra={"graph": self.graph_name, **bundle.counts()})
        return LoadReport(backend=self.backend, graph=self.graph_name,
                          seconds=time.perf_counter() - started, **bundle.counts())

    def _write(self, staging: str, rows: dict[str, list[dict[str, Any]]]) -> None:
        for statement in INDEXES:
            self._run(staging, statement, write=True)
        for key, statement in (*NODE_STEPS, *EDGE_STEPS):
            for batch in batches(rows[key], BATCH_SIZE):
                self._write_batch(staging, statement, batch)
        nodes, edges = self._run(staging, COUNT, write=True)[0]
        if (nodes, edges) != expected_counts(rows):
            raise ProviderUnavailable(
                f"load check failed on {staging}: {nodes} nodes, {edges} edges written, "
                f"expected {expected_counts(rows)}")

    def _compact_log(self) -> None:
        """Rewrite the embedded server's append-only log in the background after a load.

        Every load appends its write queries to the log; replayed at the next start they made each
        restart (and the load after it) slower by the size of all earlier loads. The rewrite keeps
        only the current graphs. External servers keep their own persistence policy."""
        if self._server is None:
            return
        connection = self._client().connection
        try:
            connection.execute_command("BGREWRITEAOF")
        except redis.ResponseError as exc:  # one is already running: wait for it below
            log.info("append-only log rewrite not started: %s", exc)
        deadline = time.monotonic() + AOF_REWRITE_WAIT
        while time.monotonic() < deadline:  # a server stopped mid-rewrite keeps the long log
            info = connection.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                return
            time.sleep(0.02)
        log.warning("append-only log rewrite still running after %.0f s", AOF_REWRITE_WAIT)

    def _write_batch(self, graph: str, statement: str, batch: list[dict[str, Any]]) -> None:
        self._run(graph, statement, {"rows": batch}, write=True)

    def _drop(self, graph: str) -> None:
        try:
            self._client().connection.delete(graph)
        except (redis.RedisError, ProviderUnavailable) as exc:
            log.warning("could not drop staging graph %s: %s", graph, exc)

    def drop(self) -> None:
        """Delete the live graph (benchmarks use a graph of their own and drop it)."""
        self._drop(self.graph_name)
        self._resolver = None
        with self._timelines_lock:
            self._timelines.clear()

    def close(self) -> None:
        if self._connecting is not None:
            self._connecting.join()
            self._connecting = None
        if self._db is not None:
            self._db.connection.close()
            self._db.connection.connection_pool.disconnect()
            self._db = None
        if self._server is not None:
            self._server.stop()
