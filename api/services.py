"""The running service: corpus, graph store, LLM client and AskService, opened and closed together.

Shared by the API lifespan and the `kbx ask` / `kbx bench ask` commands. The graph store may be
unreachable: the service then runs degraded (health says so, store-backed routes answer 503)
instead of refusing to start.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from api.models import CorpusHealth, Health, LLMHealth, StoreHealth
from core.errors import ProviderUnavailable
from core.settings import Settings
from extract.names import read_lexicon
from kb.answering.service import AskService
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.directory import PeopleDirectory
from kb.knowledge.graph import Neighbourhood, neighbourhood
from kb.knowledge.loading import load_active_bundle
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.shards import LEXICON_FILE  # not extract.pipeline's: its cue tables load slowly
from kb.knowledge.views import LoadReport, Stats
from providers.factory import open_provider
from retrieval.corpus import Corpus, open_corpus

if TYPE_CHECKING:  # the OpenAI client loads only when an LLM is configured
    from core.llm import ChatClient

log = logging.getLogger(__name__)


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
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

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

    def attach(self, provider: RelationProvider, bundle: KnowledgeBundle) -> None:
        """Serve from this store, answering from this bundle."""
        self.provider, self.store_error = provider, None
        self.asker = AskService(self.settings, self.corpus, provider, llm=self.llm, bundle=bundle,
                                session_dir=self.session_dir)
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

    def reload(self) -> LoadReport:
        """Validate the bundle, then replace the graph atomically (the store keeps the old graph
        when validation or loading fails) and hand the bundle to the AskService; one at a time.
        A store that could not be opened at start is opened now."""
        with self._lock:
            bundle = load_active_bundle(self.settings, self.corpus.blocks,
                                        folds=self.corpus.folds)
            if self.provider is None:
                self.attach(open_provider(self.settings), bundle)
            report = self.require_provider().load(bundle)
            self.require_asker().reload(bundle)
            self.directory = people_directory(self.settings, bundle)
            self.graphs.clear()
        self.graphs.clear()
        log.info("bundle reloaded", extra={"records": _records(report)})
        return report

    def health(self) -> Health:
        store = self._store_health()
        degraded = store.stats is None or is_empty(store.stats)
        return Health(status="degraded" if degraded else "ok", store=store,
                      llm=LLMHealth(configured=self.settings.llm_configured,
                                    model=self.settings.llm_model if self.llm else None),
                      corpus=CorpusHealth(chapters=len(self.corpus.chapters),
                                          blocks=len(self.corpus.blocks)))

    def _store_health(self) -> StoreHealth:
        try:
            return StoreHealth(reachable=True, stats=self.require_provider().stats())
        except ProviderUnavailable as exc:
            return StoreHealth(reachable=False, error=str(exc))

    def close(self) -> None:
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


def _records(report: LoadReport) -> int:
    return report.people + report.events + report.relations + report.states + report.chapters


def open_services(settings: Settings, *, provider: RelationProvider | None = None,
                  corpus: Corpus | None = None, session_dir: Path | None = None) -> Services:
    """Open what is not given; a given provider stays the caller's to close. Sessions are kept
    in memory, and also as files in `session_dir` when given (the CLI's follow-ups).

    Our own store is opened first and connects in the background (an embedded server starts
    meanwhile) while the corpus and the bundle are read."""
    store: RelationProvider | None = provider
    store_error: str | None = None
    if store is None:
        try:
            store = open_provider(settings)
        except ProviderUnavailable as exc:
            store_error = str(exc)
        connect = getattr(store, "connect_in_background", None)  # FalkorDB's; memory has none
        if connect is not None:
            connect()
    try:
        if corpus is None:
            corpus = open_corpus(settings.resolved_data_dir(), settings.corpus_name,
                                 settings.corpus, settings.chunk_size)
        bundle = load_active_bundle(settings, corpus.blocks, folds=corpus.folds)
    except BaseException:
        if store is not None and provider is None:
            store.close()  # a bad corpus or bundle: stop what the background connect started
        raise
    llm: ChatClient | None = None
    if settings.llm_configured:
        from core.llm import ChatClient

        llm = ChatClient(settings)
    services = Services(settings, corpus, llm, session_dir=session_dir,
                        owns_provider=provider is None)
    try:
        if store is None:
            raise ProviderUnavailable(store_error or "no graph store")
        services.attach(store, bundle)
    except ProviderUnavailable as exc:
        if store is not None and provider is None:
            store.close()  # ours, and unusable: stop what its background connect started
        log.warning("graph store cannot be opened; serving degraded", extra={"error": str(exc)})
        services.store_error = str(exc)
    services.load_if_empty(bundle)
    return services
