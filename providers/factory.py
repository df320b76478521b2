"""Choosing the relation provider from the settings; nothing connects until first used.

The backends are imported when chosen: networkx only for `memory`, the FalkorDB and redis clients
only for `falkordb`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.errors import ConfigError
from core.settings import Settings

if TYPE_CHECKING:
    from kb.knowledge.protocol import RelationProvider
    from providers.embedded import EmbeddedServer

PROVIDERS = ("falkordb", "memory")


def graph_name(settings: Settings) -> str:
    """One graph per corpus."""
    return f"kbx:{settings.corpus_name}"


def embedded_server(settings: Settings, linger: bool = False) -> EmbeddedServer:
    from providers.embedded import EmbeddedServer

    return EmbeddedServer(settings.store_directory(), port=settings.falkordb_port,
                          query_timeout_ms=int(settings.graph_timeout * 1000),
                          max_query_timeout_ms=int(settings.graph_write_timeout * 1000),
                          idle_grace=settings.falkordb_linger if linger else 1.0, linger=linger)


def open_provider(settings: Settings, provider: str | None = None,
                  graph: str | None = None, *, start_now: bool = False,
                  linger: bool = False) -> RelationProvider:
    """`memory` (empty until `load`), FalkorDB at FALKORDB_URL, or the embedded FalkorDB.

    `start_now`: a caller that queries at once has the embedded server found or started in a
    thread before the graph client is imported (`EmbeddedServer.start_in_background`), so a
    cold start overlaps the import instead of following it. `linger`: a command-line read
    leaves the embedded server running for `falkordb_linger` seconds after it, for the next."""
    kind = provider or settings.provider
    name = graph or graph_name(settings)
    if kind == "memory":
        from providers.memory import MemoryProvider

        return MemoryProvider(graph_name=name)
    if kind != "falkordb":
        raise ConfigError(f"unknown provider {kind!r}; choose one of {', '.join(PROVIDERS)}")
    url = settings.falkordb_url or None
    server = None if url else embedded_server(settings, linger)
    if server is not None and start_now:
        server.start_in_background()
    from providers.falkordb_provider import FalkorDBProvider

    return FalkorDBProvider(url=url, server=server,
                            graph_name=name, timeout=settings.graph_timeout,
                            connect_timeout=settings.graph_connect_timeout,
                            write_timeout=settings.graph_write_timeout)
