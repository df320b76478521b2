"""Responses the routes build themselves, and the error statuses each route documents (all
with the one `ErrorBody` shape)."""

from __future__ import annotations

from typing import Any

from fastapi import Response
from pydantic import BaseModel

from api.models import ErrorBody

WHY = {
    401: "missing or wrong X-API-Key",
    404: "unknown id or name; `suggestions` holds the closest ones",
    413: "request body over the limit (KBX_MAX_BODY_BYTES)",
    422: "an invalid field; `errors` names each one",
    429: "too many wrong X-API-Key headers from this address lately; see Retry-After",
    500: "internal error",
    502: "the language model endpoint failed",
    503: "the graph store is down, does not answer in time, or is busy",
}

GRAPH_ERRORS = (503,)
"""What every route that reads the graph may also answer."""


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses."""
    return {status: {"model": ErrorBody, "description": WHY[status]} for status in statuses}


def json_response(model: BaseModel, status_code: int = 200) -> Response:
    """A model as JSON, serialized once by pydantic: for large views (a hub's journey or pair),
    where FastAPI's own path (dump, validate again against the response model, dump) would cost
    more than reading them."""
    return Response(model.model_dump_json(), status_code=status_code,
                    media_type="application/json")
