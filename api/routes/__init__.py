"""The API's routers, one per area; `ROUTERS` is what the app factory includes."""

from __future__ import annotations

from api.routes import ask, books, chunks, graph, knowledge, search, system

ROUTERS = (ask.router, search.router, knowledge.router, graph.router, chunks.router,
           system.router, books.router)
