"""`GET /health` and `POST /admin/reload`."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from api.deps import ServicesDep, require_admin
from api.models import ErrorBody, Health, ReloadResult

router = APIRouter(tags=["system"])


@router.get("/health")
def health(services: ServicesDep) -> Health:
    """Always 200 while the process serves; `status` is `degraded` when the store is unreachable
    or empty."""
    return services.health()


@router.post("/admin/reload", dependencies=[Depends(require_admin)],
             responses={401: {"model": ErrorBody}, 503: {"model": ErrorBody}})
def reload(services: ServicesDep) -> ReloadResult:
    """Validate the active bundle (merged, else curated) and replace the graph atomically;
    header `X-API-Key`."""
    return ReloadResult(report=services.reload())
