"""The FastAPI app factory: the lifespan opens the corpus, the graph store and the AskService.

Besides the JSON routes it serves the explorer page at `/` and the MCP server at `/mcp`.

Run it with `kbx serve`, or `uvicorn --factory api.app:create_app` (settings from the environment).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from api.errors import install_error_handlers
from api.explorer import install_explorer
from api.mcp_mount import mount_mcp
from api.middleware import BodyLimit, RequestLog
from api.openapi import install_openapi
from api.responses import responses
from api.routes import ROUTERS
from api.services import open_services
from core.settings import Settings
from kb.knowledge.protocol import RelationProvider
from retrieval.corpus import Corpus


def create_app(settings: Settings | None = None, *, provider: RelationProvider | None = None,
               corpus: Corpus | None = None) -> FastAPI:
    """An app over the given settings (else the environment's); a given provider or corpus is
    used as is and not closed, which is how tests build an app over any store."""
    config = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = open_services(config, provider=provider, corpus=corpus, supervise=True)
        app.state.services = services
        stop = mcp.start()
        serving_mcp = asyncio.create_task(mcp.run(stop))  # after start-up: see api.mcp_mount
        try:
            yield
        finally:
            stop.set()
            await serving_mcp
            services.close()

    app = FastAPI(title="kbx", version="0.1.0", lifespan=lifespan, redirect_slashes=False,
                  responses=responses(500),
                  description="水浒传 knowledge exploration: every answer traced to source text. "
                              "Every error answers with the ErrorBody shape.")
    install_error_handlers(app)
    app.add_middleware(RequestLog)
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    for router in ROUTERS:
        app.include_router(router)
    mcp = mount_mcp(app, config, lambda: app.state.services)
    install_explorer(app)
    install_openapi(app, config)
    return app
