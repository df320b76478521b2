"""The running service: corpus, graph store, LLM client and AskService, opened and closed together.

Shared by the API lifespan and the `kbx ask` / `kbx bench ask` commands. The graph store may be
unreachable: the service then runs degraded (health says so, store-backed routes answer 503)
instead of refusing to start. In the API (`supervise=True`) a `Supervisor` watches the store and
brings it back (a dead embedded server is started again), and graph work runs in its own bounded
pool (`GraphPool`), so a dead or hung store never holds up the routes that do not need it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from core.errors import ProviderUnavailable
from core.settings import Settings
from core.validation import unknown_session
from extract.names import read_lexicon
from kb.answering.answer_models import AskRequest, AskResponse
from kb.answering.service import AskService
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.directory import PeopleDirectory
from kb.knowledge.loading import load_active_bundle
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.shards import LEXICON_FILE  # not extract.pipeline's: its cue tables load slowly
from kb.knowledge.views import LoadReport, Stats
from providers.factory import open_provider
from providers.falkordb_provider import FalkorDBProvider
from providers.session_store import StoreSessions
from retrieval.corpus import Corpus, open_corpus

if TYPE_CHECKING:  # the OpenAI client loads only when an LLM is configured; what only the
    # service uses (health, the graph pool, the supervisor, neighbourhoods) when it first does:
    # `kbx ask` opens these services too, and answers without them
    from api.graph_pool import GraphPool
    from api.models import Health, StoreHealth
    from api.version_watch import VersionWatch
    from core.llm import ChatClient
    from kb.knowledge.graph import Neighbourhood
    from providers.supervisor import Supervisor

log = logging.getLogger(__name__)
T = TypeVar("T")

UNAVAILABLE = "the graph store is unavailable; try again shortly"
"""What callers are told; the cause (with ports, paths and engine messages) goes to the log."""
StoreFigures = tuple[float, "Stats", list[str]]
"""What /health shows of the store: when it was read, its figures, its persistence failures."""
HEALTH_WAIT = 0.5
"""Seconds /health waits for fresh store figures before it answers with the last ones."""
STATS_TTL = 2.0
"""Seconds the store figures of /health are reused."""
STATS_STALE = 10.0
"""Seconds the last figures may still be shown while fresh ones are read (see `_store_health`)."""


def is_empty(stats: Stats) -> bool:
    return stats.people + stats.events + stats.relations + stats.states + stats.chapters == 0


@dataclass
class Services:
    """What the routes and commands use; `provider` is None only when the store could not open."""

    settings: Settings
    corpus: Corpus
    llm: ChatClient | None = None
    provider: RelationProvider | None = None
    asker: AskService | None = None
    directory: PeopleDirectory | None = None
    graphs: NeighbourhoodCache = field(default_factory=lambda: NeighbourhoodCache())
    session_dir: Path | None = None
    store_error: str | None = None
    owns_provider: bool = True
    supervisor: Supervisor | None = None
    pool: GraphPool | None = None
    watch: VersionWatch | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stats: StoreFigures | None = field(default=None, repr=False)
    _stats_refresh: concurrent.futures.Future[StoreFigures] | None = field(default=None,
                                                                           repr=False)
    _stats_executor: concurrent.futures.ThreadPoolExecutor | None = field(default=None,
                                                                          repr=False)

    def require_provider(self) -> RelationProvider:
        if self.provider is None:
            raise ProviderUnavailable(f"graph store unavailable: {self.store_error}")
        return self.provider

    def require_asker(self) -> AskService:
        if self.asker is None:
            raise ProviderUnavailable(f"graph store unavailable: {self.store_error}")
        return self.asker

    def require_directory(self) -> PeopleDirectory:
        if self.directory is None:
            raise ProviderUnavailable(f"graph store unavailable: {self.store_error}")
        return self.directory

    def ask(self, request: AskRequest, session_field: str = "session_id") -> AskResponse:
        """An answer; a session the request names must be one an answer began (and not yet
        expired): a follow-up answered as a first question would be answered wrongly."""
        asker = self.require_asker()
        if request.session_id is not None and not asker.session_known(request.session_id):
            raise unknown_session(request.session_id, session_field)
        return asker.ask(request)

    async def graph(self, work: Callable[[], T]) -> T:
        """Run graph work in the graph pool; without one (`kbx mcp` over stdio, tests of the
        services alone) in a thread of its own, never on the event loop."""
        if self.pool is None:
            return await asyncio.to_thread(work)
        return await self.pool.run(work)

    def attach(self, provider: RelationProvider, bundle: KnowledgeBundle) -> None:
        """Serve from this store, answering from this bundle."""
        self.provider, self.store_error = provider, None
        sessions = None
        if self.session_dir is None and isinstance(provider, FalkorDBProvider):
            sessions = StoreSessions(provider, self.settings.session_ttl)  # any worker's
        self.asker = AskService(self.settings, self.corpus, provider, llm=self.llm, bundle=bundle,
                                session_dir=self.session_dir, sessions=sessions)
        self.directory = people_directory(self.settings, bundle)
        self.graphs.clear()

    def load_if_empty(self, bundle: KnowledgeBundle) -> None:
        """Fill a store that holds nothing (first start); an unreachable one is left degraded."""
        if self.provider is None:
            return
        try:
            if is_empty(self.provider.stats()):
                report = self.provider.load(bundle)
                log.info("bundle loaded into an empty store", extra={"records": _records(report)})
        except ProviderUnavailable as exc:
            log.warning("graph store unreachable; serving degraded", extra={"error": str(exc)})

    def remove_stale_staging(self) -> None:
        """Staging graphs left by interrupted loads go at start (and at every load)."""
        if not isinstance(self.provider, FalkorDBProvider):
            return
        try:
            if self.provider.remove_stale_staging():
                self.provider.compact_log()
        except ProviderUnavailable as exc:
            log.warning("stale staging graphs not checked", extra={"error": str(exc)})

    def reload(self) -> LoadReport:
        """Validate the bundle, then replace the graph atomically (the store keeps the old graph
        when validation or loading fails) and hand the bundle to the AskService; one at a time.
        A store that could not be opened at start is opened now."""
        with self._lock:
            bundle = load_active_bundle(self.settings, self.corpus.blocks,
                                        folds=self.corpus.folds)
            if self.provider is None:
                self.attach(open_provider(self.settings), bundle)
            provider = self.require_provider()
            report = provider.load(bundle)
            self._use(bundle)
            if self.watch is not None and isinstance(provider, FalkorDBProvider):
                self.watch.made_at(provider.loaded_version)
        log.info("bundle reloaded", extra={"records": _records(report)})
        if report.persistence:
            log.warning("graph store persistence failed", extra={"problems": report.persistence})
            provider = self.require_provider()  # callers are told what, not where (the log is)
            words = (provider.persistence(where="the graph store")
                     if isinstance(provider, FalkorDBProvider) else [])
            report = report.model_copy(update={"persistence": words})
        return report

    def _use(self, bundle: KnowledgeBundle) -> None:
        """Answer from `bundle`, every cache made of the graph or the old bundle dropped."""
        self.require_asker().reload(bundle)
        self.directory = people_directory(self.settings, bundle)
        self.graphs.clear()
        self._stats = None
        import gc

        if gc.get_freeze_count():  # a service that froze its heap (`kbx serve`): again
            freeze_heap()

    def refresh(self) -> None:
        """After another process loaded the graph (`api.version_watch`): the active bundle read
        again and every cache of this worker dropped, as its own reload would."""
        with self._lock:
            bundle = load_active_bundle(self.settings, self.corpus.blocks,
                                        folds=self.corpus.folds)
            provider = self.require_provider()
            if isinstance(provider, FalkorDBProvider):
                provider.forget_caches()
            self._use(bundle)

    # -- /health: within a second, whatever the store does

    async def health(self) -> Health:
        from api.models import CorpusHealth, Health, LLMHealth

        store = await self._store_health()
        degraded = store.stats is None or is_empty(store.stats) or bool(store.persistence)
        return Health(status="degraded" if degraded else "ok", store=store,
                      llm=LLMHealth(configured=self.settings.llm_configured,
                                    model=self.settings.llm_model if self.llm else None),
                      corpus=CorpusHealth(chapters=len(self.corpus.chapters),
                                          blocks=len(self.corpus.blocks)))

    async def _store_health(self) -> StoreHealth:
        """The supervisor says whether the store answers; the figures come from a thread of
        their own (never the graph pool), at most one refresh at a time, waited for at most
        HEALTH_WAIT seconds: a hung store leaves the last figures, marked unreachable."""
        from api.models import StoreHealth

        if self.provider is None or (self.supervisor is not None and not self.supervisor.up):
            if self.provider is not None and self.supervisor is not None:
                log.info("health: graph store down", extra={"error": self.supervisor.reason})
            return StoreHealth(reachable=False, error=UNAVAILABLE)
        if self._stats_executor is None:  # the CLI: no threads, no cache
            try:
                _, stats, persistence = self._fresh_stats()
                return StoreHealth(reachable=True, stats=stats, persistence=persistence)
            except ProviderUnavailable:
                return StoreHealth(reachable=False, error=UNAVAILABLE)
        cached = self._stats
        age = time.monotonic() - cached[0] if cached is not None else None
        if cached is not None and age is not None and age < STATS_TTL:
            return StoreHealth(reachable=True, stats=cached[1], persistence=cached[2])
        refresh = self._stats_refresh
        if refresh is None or refresh.done():
            refresh = self._stats_executor.submit(self._fresh_stats)
            self._stats_refresh = refresh
        if cached is not None and age is not None and age < STATS_STALE and refresh is not None \
                and not refresh.done():
            # figures a few seconds old, while new ones are read: a busy process (a burst of
            # searches holding the interpreter lock) must not hold /health up to HEALTH_WAIT;
            # a store that stops answering is caught by the supervisor's probe meanwhile
            return StoreHealth(reachable=True, stats=cached[1], persistence=cached[2])
        waiting = asyncio.wrap_future(refresh)
        waiting.add_done_callback(_retrieved)  # a late failure is not "never retrieved"
        try:
            _, stats, persistence = await asyncio.wait_for(asyncio.shield(waiting), HEALTH_WAIT)
        except TimeoutError:
            return StoreHealth(reachable=False, stats=cached[1] if cached else None,
                               error="the graph store did not answer in time")
        except ProviderUnavailable as exc:
            log.info("health: graph store failed", extra={"error": str(exc)})
            return StoreHealth(reachable=False, error=UNAVAILABLE)
        return StoreHealth(reachable=True, stats=stats, persistence=persistence)

    def _fresh_stats(self) -> StoreFigures:
        provider = self.require_provider()
        stats = provider.stats()
        persistence = []
        if isinstance(provider, FalkorDBProvider):
            persistence = provider.persistence(where="the graph store")  # no path: the log has it
            if persistence:
                log.warning("graph store persistence failed",
                            extra={"problems": provider.persistence()})
        self._stats = (time.monotonic(), stats, persistence)
        return self._stats

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()
        if self.supervisor is not None:
            self.supervisor.close()
        if self.pool is not None:
            self.pool.close()
        if self._stats_executor is not None:
            self._stats_executor.shutdown(wait=False, cancel_futures=True)
        if self.llm is not None:
            self.llm.close()
        if self.provider is not None and self.owns_provider:
            self.provider.close()


class NeighbourhoodCache:
    """The last `size` neighbourhoods drawn (a hub's takes the store tens of milliseconds, and the
    explorer asks for the same people again and again); cleared whenever a bundle is loaded."""

    def __init__(self, size: int = 128) -> None:
        self.size = size
        self._items: OrderedDict[str, Neighbourhood] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, provider: RelationProvider, person_id: str) -> Neighbourhood:
        from kb.knowledge.graph import neighbourhood

        with self._lock:
            found = self._items.get(person_id)
            if found is not None:
                self._items.move_to_end(person_id)
                return found
        built = neighbourhood(provider, person_id)
        with self._lock:
            self._items[person_id] = built
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return built

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def people_directory(settings: Settings, bundle: KnowledgeBundle) -> PeopleDirectory:
    """The bundle's people for name suggestions, with the star names and mention counts of the
    character lexicon beside the curated bundle when there is one (another novel may have none)."""
    path = settings.bundle / LEXICON_FILE
    entries = read_lexicon(path) if path.exists() else []
    return PeopleDirectory(bundle.people, stars={e.id: e.star for e in entries if e.star},
                           weights={e.id: float(e.mentions) for e in entries if e.mentions})


def freeze_heap() -> None:
    """What the service holds for its lifetime (the corpus, the bundle, the indexes' objects:
    some 120,000 objects) moved out of the garbage collector's sight (`gc.freeze`). Otherwise
    every full collection walks all of it: about 0.2 s, at a moment no request chooses, which
    was the slowest `/search` of a run (one in some sixty searches). Collected once first (and
    after a reload again, the old bundle's cycles with it), so that no garbage is frozen."""
    import gc

    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _retrieved(future: asyncio.Future[StoreFigures]) -> None:
    if not future.cancelled():
        future.exception()


def _records(report: LoadReport) -> int:
    return report.people + report.events + report.relations + report.states + report.chapters


def open_services(settings: Settings, *, provider: RelationProvider | None = None,
                  corpus: Corpus | None = None, session_dir: Path | None = None,
                  supervise: bool = False, adopt: bool = False) -> Services:
    """Open what is not given; a given provider stays the caller's to close, unless `adopt`:
    then it is treated as ours (`kbx ask` opens it before importing this module, so that a
    cold embedded server starts while the answering stack loads). Sessions are kept in memory,
    and also as files in `session_dir` when given (the CLI's follow-ups).

    Our own store is opened first and connects in the background (an embedded server starts
    meanwhile) while the corpus and the bundle are read. `supervise` (the API) adds the store's
    supervisor, the graph pool and the health cache."""
    store: RelationProvider | None = provider
    store_error: str | None = None
    ours = provider is None or adopt
    if store is None:
        try:
            store = open_provider(settings, start_now=True)
        except ProviderUnavailable as exc:
            store_error = str(exc)
    if ours:
        connect = getattr(store, "connect_in_background", None)  # FalkorDB's; memory has none
        if connect is not None:
            connect()
    try:
        if corpus is None:
            corpus = open_corpus(settings.resolved_data_dir(), settings.corpus_name,
                                 settings.corpus, settings.chunk_size)
        bundle = load_active_bundle(settings, corpus.blocks, folds=corpus.folds)
    except BaseException:
        if store is not None and ours:
            store.close()  # a bad corpus or bundle: stop what the background connect started
        raise
    llm: ChatClient | None = None
    if settings.llm_configured:
        from core.llm import ChatClient

        llm = ChatClient(settings)
    services = Services(settings, corpus, llm, session_dir=session_dir, owns_provider=ours)
    try:
        if store is None:
            raise ProviderUnavailable(store_error or "no graph store")
        services.attach(store, bundle)
    except ProviderUnavailable as exc:
        if store is not None and ours:
            store.close()  # ours, and unusable: stop what its background connect started
        log.warning("graph store cannot be opened; serving degraded", extra={"error": str(exc)})
        services.store_error = str(exc)
    if supervise:
        from api.graph_pool import GraphPool
        from providers.supervisor import Supervisor

        if isinstance(services.provider, FalkorDBProvider):
            services.supervisor = Supervisor(services.provider,
                                             probe_timeout=min(0.5, settings.graph_timeout))
            services.supervisor.start()
        services.pool = GraphPool(settings.graph_threads, settings.graph_queue,
                                  services.supervisor)
        services._stats_executor = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="health")
    services.remove_stale_staging()
    services.load_if_empty(bundle)
    if supervise and isinstance(services.provider, FalkorDBProvider):
        from api.version_watch import VersionWatch

        services.watch = VersionWatch(services.provider.version, services.refresh).start()
    return services
