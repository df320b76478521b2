"""The production RelationProvider: FalkorDB, parameterized Cypher, one graph per corpus.

Reads go to the live graph only. `load` writes a fresh staging graph in UNWIND batches, checks its
node and edge counts, then RENAMEs it over the live graph in one atomic step: a reader sees the
old graph or the new one, never a half-loaded one, and a failed load leaves the old one.
Queries return only scalars (record JSON, ids), so no client-side schema cache is involved.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
import uuid
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import redis
from falkordb import FalkorDB
from redis.backoff import NoBackoff
from redis.retry import Retry

from core.background import Background
from core.errors import ProviderUnavailable, QueryRejected
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
from providers import liveness
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

if TYPE_CHECKING:  # `kbx pair` and the other reads never load a bundle: its checks stay unloaded
    from kb.knowledge.bundle import KnowledgeBundle

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

VERSION = "version"
"""The key beside the graph that every load increments (`FalkorDBProvider.version`)."""
AOF_REWRITE_WAIT = 30.0
"""Seconds a load waits for the log rewrite it started (the whole book takes well under one)."""
SERVER_SHARE = 0.75
"""FalkorDB's own query TIMEOUT is this share of the socket timeout, so a slow query ends with the
server's clean error; only a server that does not answer at all trips the socket timeout."""
STAGING = "staging"
FOREIGN_STAGING_AGE = 3600.0
"""Seconds after which a staging graph written from another machine is taken as abandoned."""


def redact(url: str) -> str:
    """A URL without its password, fit for messages and logs."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    return f"{scheme}{sep}***@{rest.rsplit('@', 1)[1]}"


def is_persistence_error(exc: redis.RedisError) -> bool:
    """The store refuses changes because it could not write its files (redis's MISCONF: a
    failed append-only write or snapshot, a full disk); it still answers reads."""
    return isinstance(exc, redis.ResponseError) and str(exc).startswith("MISCONF")


PERSISTENCE_FIELDS = (
    ("aof_last_write_status", "its last append-only log write failed: changes since are not on "
                              "disk, and it refuses new ones"),
    ("aof_last_bgrewrite_status", "its last log rewrite (the compaction after a load) failed: "
                                  "the log keeps growing"),
    ("rdb_last_bgsave_status", "its last snapshot failed"),
)


def persistence_problems(info: dict[str, Any], where: str) -> list[str]:
    """The failures INFO persistence reports, each naming where the store writes."""
    return [f"{where}: {what}" for field, what in PERSISTENCE_FIELDS
            if str(info.get(field, "ok")) == "err"]


def _describe(exc: redis.RedisError) -> str:
    if isinstance(exc, redis.AuthenticationError | redis.exceptions.NoPermissionError):
        return "the graph store refused the credentials"
    if isinstance(exc, redis.TimeoutError):
        return "the graph store did not answer in time"
    if isinstance(exc, redis.ConnectionError):
        return "the graph store is unreachable"
    return f"the graph store failed: {type(exc).__name__}"


def swap_people(view: str) -> str:
    """A pair's JSON view with `a` and `b` exchanged. The view is pydantic's serialization of
    `Pair`, whose first two fields are `a` and `b`: only those two small objects are decoded to
    find where they end; the rest (relations, events, sources: tens of KB for a hub's pair) is
    copied as it is. Anything else is parsed whole."""
    decoder = json.JSONDecoder()
    if view.startswith('{"a":'):
        a_start = len('{"a":')
        _, a_end = decoder.raw_decode(view, a_start)
        if view.startswith(',"b":', a_end):
            b_start = a_end + len(',"b":')
            _, b_end = decoder.raw_decode(view, b_start)
            return ('{"a":' + view[b_start:b_end] + ',"b":' + view[a_start:a_end]
                    + view[b_end:])
    doc = json.loads(view)
    doc["a"], doc["b"] = doc["b"], doc["a"]
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


class FalkorDBProvider:
    """FalkorDB behind the RelationProvider verbs; connects on first use, not in the constructor.

    Give `url` for an external server, or `server` for the embedded one (started on first use and
    stopped by `close` if no other process uses it). A read answers within `timeout` seconds (the
    socket timeout; FalkorDB's query TIMEOUT is a share of it), a write of a load within
    `write_timeout`.
    A connection that broke is retried once (a restarted server); a timeout is not.
    """

    backend = "falkordb"

    def __init__(self, url: str | None = None, server: EmbeddedServer | None = None,
                 graph_name: str = "kbx:shuihu", timeout: float = 2.0,
                 connect_timeout: float = 1.0, write_timeout: float = 60.0) -> None:
        if (url is None) == (server is None):
            raise ValueError("give exactly one of url and server")
        self.graph_name = graph_name
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.write_timeout = write_timeout
        self._url = url
        self._server = server
        self._db: FalkorDB | None = None
        self._resolver: NameResolver | None = None
        self.loaded_version: int | None = None
        """the version this process's last load gave the graph (its caches are of it)"""
        self._writer: FalkorDB | None = None
        self._probe: redis.Redis | None = None
        self._connected_to: str | None = None
        self._lock = threading.Lock()
        self._connecting = Background("falkordb-connect")
        self._timelines: OrderedDict[str, Timeline] = OrderedDict()  # dropped by `load`
        self._digests: OrderedDict[str, str] = OrderedDict()  # journey digests, likewise
        self._timelines_lock = threading.Lock()

    @property
    def embedded(self) -> EmbeddedServer | None:
        return self._server

    # -- connection and the one boundary where redis errors become domain errors

    def connect_in_background(self) -> None:
        """Find or start the server and connect in a thread, while the caller does its other
        start-up work (the corpus, the bundle): a cold embedded server takes a few hundred
        milliseconds to start and replay its log, which a `kbx ask` or a service start would
        otherwise wait for afterwards. The first query joins the thread; a failure there is
        raised again by that query, which tries once more."""
        if self._db is None:
            self._connecting.start(self._clients)

    def _target(self) -> str:
        return self._server.ensure_running() if self._server is not None else str(self._url)

    def _connect(self, url: str, socket_timeout: float) -> FalkorDB:
        try:
            return FalkorDB.from_url(url, socket_connect_timeout=self.connect_timeout,
                                     socket_timeout=socket_timeout,
                                     retry=Retry(NoBackoff(), 1,
                                                 supported_errors=(redis.ConnectionError,)))
        except (redis.RedisError, ValueError) as exc:
            raise ProviderUnavailable(f"cannot connect to FalkorDB at {redact(url)}: "
                                      f"{_describe(exc) if isinstance(exc, redis.RedisError) else exc}"
                                      ) from exc

    def _clients(self) -> tuple[FalkorDB, FalkorDB]:
        """(reader, writer): one pool each, since their socket timeouts differ."""
        self._connecting.join()
        with self._lock:
            if self._db is None or self._writer is None:
                url = self._target()
                self._db = self._connect(url, self.timeout)
                self._writer = self._connect(url, self.write_timeout)
                self._connected_to = url
            return self._db, self._writer

    def _client(self) -> FalkorDB:
        return self._clients()[1]

    def _disconnect(self) -> None:
        with self._lock:
            clients = [c for c in (self._db, self._writer) if c is not None]
            self._db = self._writer = self._connected_to = None
            if self._probe is not None:
                with contextlib.suppress(redis.RedisError):
                    self._probe.close()
                self._probe = None
        for client in clients:
            with contextlib.suppress(redis.RedisError):
                client.connection.close()
                client.connection.connection_pool.disconnect()

    def _run(self, graph: str, query: str, params: dict[str, Any] | None = None,
             write: bool = False) -> list[list[Any]]:
        reader, writer = self._clients()
        handle = (writer if write else reader).select_graph(graph)
        timeout_ms = max(1, int((self.write_timeout if write else self.timeout) * 1000
                                * SERVER_SHARE))
        try:
            result = (handle.query if write else handle.ro_query)(query, params, timeout=timeout_ms)
        except redis.ResponseError as exc:
            if not write and "empty key" in str(exc):
                return []  # nothing loaded yet: an empty graph
            if "timed out" in str(exc).lower():
                raise ProviderUnavailable(f"FalkorDB query on {graph} timed out after "
                                          f"{timeout_ms} ms") from exc
            if is_persistence_error(exc):
                raise ProviderUnavailable(self._cannot_persist(exc)) from exc
            raise ProviderUnavailable(f"FalkorDB query failed on {graph}: {exc}") from exc
        except redis.RedisError as exc:
            raise ProviderUnavailable(f"FalkorDB unavailable: {_describe(exc)}") from exc
        rows: list[list[Any]] = result.result_set
        return rows

    def _command(self, *args: Any) -> Any:
        """A plain redis command on the writer connection (RENAME, DEL, GRAPH.LIST, INFO)."""
        try:
            return self._client().connection.execute_command(*args)
        except redis.RedisError as exc:
            if is_persistence_error(exc):
                raise ProviderUnavailable(self._cannot_persist(exc)) from exc
            raise ProviderUnavailable(f"FalkorDB {args[0]} failed: {_describe(exc)}") from exc

    def _store_files(self) -> str:
        """Where the store keeps its files, for messages: the embedded server's directory."""
        return str(self._server.directory) if self._server is not None else \
            "the FalkorDB server's data directory"

    def _cannot_persist(self, exc: redis.RedisError) -> str:
        reason = str(exc).split(":", 1)[-1].strip() if ":" in str(exc) else str(exc)
        return (f"{self._store_files()}: the graph store cannot write its files ({reason}); "
                "it refuses changes until it can: free some space, then load again")

    # -- persistence: what the store could not write (shown by `kbx status` and /health)

    def persistence(self, where: str | None = None) -> list[str]:
        """The store's own persistence failures, as sentences naming `where` (by default its
        directory): its last append-only write, its last log rewrite (the compaction after a
        load) or its last snapshot failed. Empty when all is well (or the store does not say)."""
        info = self._command("INFO", "persistence")
        return persistence_problems(info, where or self._store_files())

    # -- supervision (providers.supervisor)

    def ping(self, timeout: float) -> None:
        """Raise ProviderUnavailable unless the server answers within `timeout` seconds; uses a
        connection of its own, so a busy pool never delays it."""
        url = self._connected_to or self._target()
        probe = self._probe
        if probe is None:
            probe = redis.Redis.from_url(url, socket_timeout=timeout,
                                         socket_connect_timeout=timeout,
                                         retry=Retry(NoBackoff(), 0))
            self._probe = probe
        try:
            probe.ping()
        except redis.ResponseError as exc:
            if not is_persistence_error(exc):  # a full disk: it answers and serves reads,
                raise ProviderUnavailable(_describe(exc)) from exc  # /health names the cause
        except redis.RedisError as exc:
            raise ProviderUnavailable(_describe(exc)) from exc

    def recover(self) -> None:
        """After a failed probe: drop every connection; the embedded server is replaced if it
        died (a live one that does not answer is waited for)."""
        if self._server is not None:
            url = self._server.recover()
            if url != self._connected_to:
                self._disconnect()
        else:
            self._disconnect()

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
        stored = self._stored_pair(a_id, b_id)
        if stored is not None:
            pair = Pair.model_validate_json(stored)
            return pair if pair.a.id == a_id else pair.model_copy(update={"a": pair.b,
                                                                           "b": pair.a})
        return self._unrelated_pair(a_id, b_id)

    def pair_json(self, a_id: str, b_id: str) -> str:
        """The stored view as it is when `a_id` comes first in key order (the order it was
        stored in); in the other order only `a` and `b` change places (`swap_people`). Parsing
        the view into models only to serialize it again was most of the CPU of a
        `GET /kb/pair`."""
        stored = self._stored_pair(a_id, b_id)
        if stored is None:
            return self._unrelated_pair(a_id, b_id).model_dump_json()
        return stored if a_id <= b_id else swap_people(stored)

    def _stored_pair(self, a_id: str, b_id: str) -> str | None:
        """The pair's view as stored at load (people in key order), None when unrelated."""
        if a_id == b_id:
            raise QueryRejected("a pair needs two different people")
        rows = self._read(q.PAIR, key=pair_key(a_id, b_id))
        if rows and rows[0][0] is None:
            raise ProviderUnavailable(f"graph {self.graph_name!r} was loaded by an older kbx "
                                      "(pairs without views): run `kbx kb load` again")
        return str(rows[0][0]) if rows else None

    def _unrelated_pair(self, a_id: str, b_id: str) -> Pair:
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
        """The stored default view of a journey, as stored: read once per loaded graph and kept
        (the last `TIMELINES_KEPT`, beside the timelines, dropped by `load` as they are). A hub's
        is 50 KB: reading it from the store each time was most of its route's time."""
        with self._timelines_lock:
            kept = self._digests.get(person_id)
            if kept is not None:
                self._digests.move_to_end(person_id)
                return kept
        rows = self._read(q.JOURNEY_DIGEST, id=person_id)
        if not rows:
            raise self._unknown_person_id(person_id)
        if rows[0][0] is None:  # a graph loaded before journeys were stored
            return self._stored(person_id).digest.model_dump_json()
        digest = str(rows[0][0])
        with self._timelines_lock:
            self._digests[person_id] = digest
            while len(self._digests) > TIMELINES_KEPT:
                self._digests.popitem(last=False)
        return digest

    def kept_journey_digest_json(self, key: str) -> str | None:
        """The digest when the name table and the digest are both kept (read before), else None."""
        resolver = self._resolver
        person_id = resolver.known(key) if resolver is not None else None
        if person_id is None:
            return None
        with self._timelines_lock:
            return self._digests.get(person_id)

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
        self.remove_stale_staging()
        staging = self._staging_name()
        try:
            self._write(staging, rows)
            self._command("RENAME", staging, self.graph_name)
        except BaseException:
            self._drop(staging)
            raise
        self.loaded_version = self._bump_version()
        self.forget_caches()
        persistence = self._compact_log()
        log.info("graph loaded", extra={"graph": self.graph_name, **bundle.counts()})
        return LoadReport(backend=self.backend, graph=self.graph_name,
                          seconds=time.perf_counter() - started, persistence=persistence,
                          **bundle.counts())

    # -- what every process of the graph shares besides it: a version, keys with a lifetime

    def forget_caches(self) -> None:
        """Drop what this process keeps of the graph (names, timelines, digests): after a load,
        here or by another process (`version` changed)."""
        self._resolver = None
        with self._timelines_lock:
            self._timelines.clear()
            self._digests.clear()

    @property
    def version_key(self) -> str:
        return f"{self.graph_name}:{VERSION}"

    def _bump_version(self) -> int:
        """A new version of the graph, after a load replaced it (or a drop deleted it): every
        process that keeps caches of it sees the change (`version`)."""
        return int(self._command("INCR", self.version_key))

    def version(self) -> int:
        """The graph's version (0 before the first load that counted): a worker whose caches
        were made at another version makes them again."""
        return int(self.get_shared(self.version_key) or 0)

    def shared_key(self, *parts: str) -> str:
        """A key beside the graph, under its name (the book's prefix): `<graph>:<part>:…`."""
        return ":".join([self.graph_name, *parts])

    def get_shared(self, key: str) -> str | None:
        value = self._command("GET", key)
        return value.decode("utf-8") if isinstance(value, bytes) else value

    def put_shared(self, key: str, value: str, ttl_seconds: int) -> None:
        """A key that expires `ttl_seconds` after its last write."""
        self._command("SET", key, value, "EX", ttl_seconds)

    # -- staging graphs: `<graph>:staging:<host>:<pid>-<start>:<unix time>:<token>`

    def _staging_name(self) -> str:
        return (f"{self.graph_name}:{STAGING}:{liveness.host()}:{liveness.identity()}:"
                f"{int(time.time())}:{uuid.uuid4().hex[:8]}")

    def staging_graphs(self) -> list[str]:
        """Every staging graph of this graph, live or left by an interrupted load."""
        prefix = f"{self.graph_name}:{STAGING}:"
        graphs = self._command("GRAPH.LIST")
        return sorted(str(g) for g in graphs or () if str(g).startswith(prefix))

    def _is_stale(self, staging: str) -> bool:
        """A staging graph whose loader is gone: on this machine, a process no longer alive;
        from another machine, older than FOREIGN_STAGING_AGE; of an unknown form, always."""
        parts = staging[len(f"{self.graph_name}:{STAGING}:"):].split(":")
        if len(parts) != 4:
            return True
        where, owner, created, _ = parts
        if where == liveness.host():
            return not liveness.identity_alive(owner)
        try:
            return time.time() - int(created) > FOREIGN_STAGING_AGE
        except ValueError:
            return True

    def remove_stale_staging(self) -> list[str]:
        """Delete the staging graphs of interrupted loads (a load in progress elsewhere is left
        alone); called at every load and when the service starts."""
        stale = [g for g in self.staging_graphs() if self._is_stale(g)]
        for graph in stale:
            self._drop(graph)
        if stale:
            log.warning("removed staging graphs of interrupted loads", extra={"count": len(stale)})
        return stale

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

    def compact_log(self) -> list[str]:
        """Rewrite the embedded server's append-only log (after a load, or after stale staging
        graphs were removed) so that it holds only the current graphs; what the store then
        could not write (`persistence`)."""
        return self._compact_log()

    def _compact_log(self) -> list[str]:
        """Rewrite the embedded server's append-only log in the background after a load.

        Every load appends its write queries to the log; replayed at the next start they made each
        restart (and the load after it) slower by the size of all earlier loads. The rewrite keeps
        only the current graphs. External servers keep their own persistence policy. A rewrite
        that fails (a full disk) is returned, as `persistence` words it: the load's caller
        reports it, and `kbx status` and /health show it until the store writes again."""
        if self._server is None:
            return []
        try:
            self._client().connection.execute_command("BGREWRITEAOF")
        except redis.ResponseError as exc:  # one is already running: wait for it below
            log.info("append-only log rewrite not started: %s", exc)
        except redis.RedisError as exc:
            raise ProviderUnavailable(f"FalkorDB BGREWRITEAOF failed: {_describe(exc)}") from exc
        deadline = time.monotonic() + AOF_REWRITE_WAIT
        while time.monotonic() < deadline:  # a server stopped mid-rewrite keeps the long log
            info = self._command("INFO", "persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                problems = persistence_problems(info, self._store_files())
                if problems:  # the graph is loaded; the store's files are behind (a full disk)
                    log.info("graph store persistence failed", extra={"problems": problems})
                return problems
            time.sleep(0.02)
        log.warning("append-only log rewrite still running after %.0f s", AOF_REWRITE_WAIT)
        return []

    def _write_batch(self, graph: str, statement: str, batch: list[dict[str, Any]]) -> None:
        self._run(graph, statement, {"rows": batch}, write=True)

    def _drop(self, graph: str) -> None:
        try:
            self._command("DEL", graph)
        except ProviderUnavailable as exc:  # a staging graph left is removed at the next load
            # (`kbx status` counts it); a store that cannot write said so to the caller already
            persistence = isinstance(exc.__cause__, redis.RedisError) and \
                is_persistence_error(exc.__cause__)
            (log.info if persistence else log.warning)("could not drop graph %s: %s", graph, exc)

    def drop(self) -> None:
        """Delete the live graph (benchmarks use a graph of their own and drop it)."""
        self._drop(self.graph_name)
        self._bump_version()
        self.forget_caches()

    # -- what `kbx status` shows

    def store_status(self) -> dict[str, Any]:
        """The graph store as an operator needs it: where it is, its graphs, leftovers."""
        status: dict[str, Any] = (self._server.status() if self._server is not None else
                                  {"mode": "url", "url": redact(str(self._url))})
        try:
            graphs = sorted(str(g) for g in self._command("GRAPH.LIST") or ())
            info = self._command("INFO", "persistence")
        except ProviderUnavailable as exc:
            return {**status, "reachable": False, "error": str(exc)}
        staging = self.staging_graphs()
        return {**status, "reachable": True, "graph": self.graph_name,
                "graph_loaded": self.graph_name in graphs, "graphs": graphs,
                "staging_left": len([g for g in staging if self._is_stale(g)]),
                "staging_in_progress": len([g for g in staging if not self._is_stale(g)]),
                "aof_enabled": bool(info.get("aof_enabled")),
                "aof_base_bytes": info.get("aof_base_size"),
                "aof_current_bytes": info.get("aof_current_size"),
                "persistence": persistence_problems(info, self._store_files()) or "ok"}

    def close(self) -> None:
        self._connecting.join()
        self._disconnect()
        if self._server is not None:
            self._server.stop()
