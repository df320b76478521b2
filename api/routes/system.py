"""`GET /health` and `POST /admin/reload`."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request

from api.deps import ServicesDep, require_admin
from api.models import Health, LLMHealth, ReloadResult
from api.responses import GRAPH_ERRORS, responses
from api.shelf import Shelf
from api.startup import LOADING, Startup
from core.settings import Settings

router = APIRouter(tags=["system"])


@router.get("/health")
async def health(request: Request) -> Health:
    """Always 200 while the process serves, within a second whatever the graph store does;
    `status` is `degraded` when the store is unreachable, does not answer or is empty, or when
    the service could not start. From the moment it serves until its parts are open (about a
    second) it says `ready: false` and lists them in `loading`; requests meanwhile wait for them.
    The body names no port, path or engine message (the service log has them)."""
    startup: Startup[Shelf] = request.app.state.startup
    shelf = startup.ready
    services = shelf.default_services if shelf is not None else None
    if services is not None:
        return await services.health()
    settings: Settings = request.app.state.settings
    llm = LLMHealth(configured=settings.llm_configured,
                    model=settings.llm_model if settings.llm_configured else None)
    if startup.failed:
        return Health(status="degraded", ready=False, llm=llm)
    return Health(status="ok", ready=False, loading=list(LOADING), llm=llm)


@router.post("/admin/reload", dependencies=[Depends(require_admin)],
             responses=responses(401, 422, *GRAPH_ERRORS))
async def reload(services: ServicesDep) -> ReloadResult:
    """Validate the active bundle (merged, else curated) and replace the graph atomically;
    header `X-API-Key`. 503 also when no KBX_API_KEY is configured."""
    return ReloadResult(report=await services.graph(services.reload))
