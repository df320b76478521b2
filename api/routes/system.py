"""`GET /health` and `POST /admin/reload`."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from api.deps import ServicesDep, require_admin
from api.models import Health, ReloadResult
from api.responses import GRAPH_ERRORS, responses

router = APIRouter(tags=["system"])


@router.get("/health")
async def health(services: ServicesDep) -> Health:
    """Always 200 while the process serves, within a second whatever the graph store does;
    `status` is `degraded` when the store is unreachable, does not answer or is empty. The body
    names no port, path or engine message (the service log has them)."""
    return await services.health()


@router.post("/admin/reload", dependencies=[Depends(require_admin)],
             responses=responses(401, 422, *GRAPH_ERRORS))
async def reload(services: ServicesDep) -> ReloadResult:
    """Validate the active bundle (merged, else curated) and replace the graph atomically;
    header `X-API-Key`. 503 also when no KBX_API_KEY is configured."""
    return ReloadResult(report=await services.graph(services.reload))
