"""The FastAPI app factory: the lifespan opens the corpus, the graph store and the AskService in
a thread while the app already serves (`api.startup`).

Besides the JSON routes it serves the explorer page at `/` and the MCP server at `/mcp`.

Run it with `kbx serve`, or `uvicorn --factory api.app:create_app` (settings from the environment).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import FastAPI

from api.admin_key import AdminGuard
from api.docs import install_docs
from api.errors import install_error_handlers
from api.explorer import install_explorer
from api.mcp_mount import mount_mcp
from api.middleware import BodyLimit, RequestLog
from api.openapi import install_openapi
from api.responses import responses
from api.routes import ROUTERS
from api.startup import StartFailed, Startup
from core.settings import Settings

if TYPE_CHECKING:  # the services load after the app serves (api.startup)
    from api.services import Services
    from kb.knowledge.protocol import RelationProvider
    from retrieval.corpus import Corpus


def create_app(settings: Settings | None = None, *, provider: RelationProvider | None = None,
               corpus: Corpus | None = None, freeze: bool = False) -> FastAPI:
    """An app over the given settings (else the environment's); a given provider or corpus is
    used as is and not closed, which is how tests build an app over any store. `freeze` (the
    process is the service's own, `kbx serve`): its heap frozen once open (`freeze_heap`)."""
    config = settings if settings is not None else Settings()

    def opened() -> Services:
        from api.services import freeze_heap, open_services

        services = open_services(config, provider=provider, corpus=corpus, supervise=True)
        app.state.services = services
        if freeze:
            freeze_heap()  # the objects it keeps for its lifetime, out of the collector's walks
        return services

    async def serve_mcp(startup: Startup, stop: asyncio.Event) -> None:
        """The MCP server once the services are open (its tools use them); /mcp waits."""
        with contextlib.suppress(StartFailed):
            await startup.services()
        await mcp.run(stop)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        startup = Startup(opened)
        app.state.startup = startup
        startup.begin()  # after start-up, in a thread: see api.startup
        stop = mcp.start()
        serving_mcp = asyncio.create_task(serve_mcp(startup, stop))  # see api.mcp_mount
        try:
            yield
        finally:
            stop.set()
            await serving_mcp
            services = await asyncio.to_thread(startup.finish)
            if services is not None:
                services.close()


    app = FastAPI(title="kbx", version="0.1.0", lifespan=lifespan, redirect_slashes=False,
                  responses=responses(500), docs_url=None, redoc_url=None,
                  description="水浒传 knowledge exploration: every answer traced to source text. "
                              "Every error answers with the ErrorBody shape.")
    app.state.settings = config
    app.state.admin_guard = AdminGuard()  # wrong admin keys counted per address (api.admin_key)
    install_error_handlers(app)
    app.add_middleware(RequestLog)
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    for router in ROUTERS:
        app.include_router(router)
    mcp = mount_mcp(app, config, lambda: app.state.services)
    install_explorer(app)
    install_docs(app)  # /docs and /redoc from vendored files (api.docs), no CDN
    install_openapi(app, config)
    return app
