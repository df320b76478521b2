"""`GET /health` and `POST /admin/reload`."""

from __future__ import annotations

import os

from fastapi import APIRouter, Depends, Request

from api.deps import ServicesDep, require_admin
from api.models import Health, LLMHealth, ReloadResult
from api.responses import GRAPH_ERRORS, responses
from api.startup import LOADING, Startup
from core.settings import Settings

router = APIRouter(tags=["system"])


@router.get("/health")
async def health(request: Request) -> Health:
    """Always 200 while the process serves, within a second whatever the graph store does;
    `status` is `degraded` when the store is unreachable, does not answer or is empty, or when
    the service could not start. From the moment it serves until its parts are open (about a
    second) it says `ready: false` and lists them in `loading`; requests meanwhile wait for them.
    The body names no port, path or engine message (the service log has them); `instance` and
    `pid` say whose service answered (`make demo` waits for its own `KBX_INSTANCE`)."""
    startup: Startup = request.app.state.startup
    services = startup.ready
    settings: Settings = request.app.state.settings
    if services is not None:
        body = await services.health()
    else:
        llm = LLMHealth(configured=settings.llm_configured,
                        model=settings.llm_model if settings.llm_configured else None)
        body = (Health(status="degraded", ready=False, llm=llm) if startup.failed
                else Health(status="ok", ready=False, loading=list(LOADING), llm=llm))
    body.instance, body.pid = settings.instance, os.getpid()  # whose service this is
    return body


@router.post("/admin/reload", dependencies=[Depends(require_admin)],
             responses=responses(401, 422, 429, *GRAPH_ERRORS))
async def reload(services: ServicesDep) -> ReloadResult:
    """Validate the active bundle (merged, else curated) and replace the graph atomically;
    header `X-API-Key`. 503 also when no KBX_API_KEY is configured or it is shorter than 16
    characters (the body says which); 429 after five wrong keys from an address in a minute."""
    return ReloadResult(report=await services.graph(services.reload))
