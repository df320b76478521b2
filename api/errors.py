"""HTTP status codes in one place: domain errors and invalid requests become JSON `ErrorBody`s."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from api.models import ErrorBody, FieldError
from core.errors import ExtractionError, KBError, LLMError, NotFound, ProviderUnavailable, QueryRejected

log = logging.getLogger(__name__)


class AdminDisabled(Exception):
    """No API key is configured, so the admin routes are off (503)."""


class Unauthorized(Exception):
    """The `X-API-Key` header is missing or wrong (401)."""


STATUS: dict[type[Exception], int] = {
    NotFound: 404,
    QueryRejected: 422,
    ProviderUnavailable: 503,
    LLMError: 502,
    ExtractionError: 502,
    KBError: 500,  # configuration and bundle problems: the server's fault, message kept
    AdminDisabled: 503,
    Unauthorized: 401,
}
"""Exception class → status; a subclass not listed takes its closest listed base (by MRO)."""

HEADERS: dict[type[Exception], dict[str, str]] = {
    Unauthorized: {"WWW-Authenticate": 'ApiKey header="X-API-Key"'},
}

REQUEST_PARTS = ("body", "query", "path", "header", "cookie")


def field_name(loc: Sequence[int | str]) -> str:
    """`("body", "question")` → `question`; `("query", "budget")` → `budget`."""
    parts = [str(p) for p in loc]
    if len(parts) > 1 and parts[0] in REQUEST_PARTS:
        parts = parts[1:]
    return ".".join(parts) or "request"


def status_of(exc: Exception) -> int:
    return next(STATUS[cls] for cls in type(exc).__mro__ if cls in STATUS)


def error_response(status: int, body: ErrorBody, headers: dict[str, str] | None = None
                   ) -> JSONResponse:
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


async def domain_error(request: Request, exc: Exception) -> JSONResponse:
    status = status_of(exc)
    if status >= 500:
        log.warning("request failed", extra={"path": request.url.path, "status": status,
                                             "error": type(exc).__name__, "detail": str(exc)})
    suggestions = exc.suggestions if isinstance(exc, NotFound) else []
    return error_response(status, ErrorBody(detail=str(exc), suggestions=suggestions),
                          HEADERS.get(type(exc)))


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    errors: Sequence[Any] = exc.errors() if isinstance(exc, RequestValidationError) else []
    fields = [FieldError(field=field_name(e.get("loc", ())), message=str(e.get("msg", "")))
              for e in errors]
    detail = "; ".join(f"{f.field}: {f.message}" for f in fields) or "invalid request"
    return error_response(422, ErrorBody(detail=detail, errors=fields))


async def unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=exc, extra={"path": request.url.path})
    return error_response(500, ErrorBody(detail="internal error"))


def install_error_handlers(app: FastAPI) -> None:
    for cls in STATUS:
        app.add_exception_handler(cls, domain_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Exception, unexpected)

