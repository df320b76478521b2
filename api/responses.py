"""Responses the routes build themselves."""

from __future__ import annotations

from fastapi import Response
from pydantic import BaseModel


def json_response(model: BaseModel, status_code: int = 200) -> Response:
    """A model as JSON, serialized once by pydantic: for large views (a hub's journey or pair),
    where FastAPI's own path (dump, validate again against the response model, dump) would cost
    more than reading them."""
    return Response(model.model_dump_json(), status_code=status_code,
                    media_type="application/json")
