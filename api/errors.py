"""HTTP status codes in one place: domain errors and invalid requests become JSON `ErrorBody`s.

A 4xx body says what the caller got wrong (the field, the closest names). A 5xx body says only
what kind of failure it was: ports, paths, URLs and the engine's own messages go to the log,
never to the caller. No message echoes what the caller sent beyond the bounded names and ids.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from api.admin_key import AdminDisabled, TooManyAttempts, Unauthorized
from api.inputs import MESSAGES
from api.models import ErrorBody, FieldError
from api.startup import StartFailed
from core.errors import ExtractionError, KBError, LLMError, NotFound, ProviderUnavailable, QueryRejected

log = logging.getLogger(__name__)


class BodyTooLarge(HTTPException):
    """The request body is over `max_body_bytes` (413); raised while the body is read."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body larger than {limit} bytes")


STATUS: dict[type[Exception], int] = {
    NotFound: 404,
    QueryRejected: 422,
    ProviderUnavailable: 503,
    LLMError: 502,
    ExtractionError: 502,
    KBError: 500,
    AdminDisabled: 503,
    StartFailed: 503,
    Unauthorized: 401,
    TooManyAttempts: 429,
}
"""Exception class → status; a subclass not listed takes its closest listed base (by MRO)."""

PUBLIC: dict[type[Exception], str] = {
    ProviderUnavailable: "the graph store is unavailable; try again shortly",
    LLMError: "the language model endpoint failed",
    ExtractionError: "the language model endpoint failed",
    KBError: "internal error (the service log has the cause)",
}
"""The body of a server-side failure: what kind, not where (the log has the detail)."""

HEADERS: dict[type[Exception], dict[str, str]] = {
    Unauthorized: {"WWW-Authenticate": 'ApiKey header="X-API-Key"'},
    ProviderUnavailable: {"Retry-After": "1"},
}

REQUEST_PARTS = ("body", "query", "path", "header", "cookie")


def field_name(loc: Sequence[int | str]) -> str:
    """`("body", "question")` → `question`; `("query", "budget")` → `budget`."""
    parts = [str(p) for p in loc]
    if len(parts) > 1 and parts[0] in REQUEST_PARTS:
        parts = parts[1:]
    return ".".join(parts) or "request"


def _closest(exc: Exception, table: dict[type[Exception], Any]) -> Any:
    return next((table[cls] for cls in type(exc).__mro__ if cls in table), None)


def status_of(exc: Exception) -> int:
    status: int = _closest(exc, STATUS)
    return status


def error_response(status: int, body: ErrorBody, headers: dict[str, str] | None = None
                   ) -> JSONResponse:
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


async def domain_error(request: Request, exc: Exception) -> JSONResponse:
    status = status_of(exc)
    detail = str(exc)
    if status >= 500:
        log.warning("request failed", extra={"path": request.url.path, "status": status,
                                             "error": type(exc).__name__, "detail": detail})
        detail = _closest(exc, PUBLIC) or detail
    suggestions = exc.suggestions if isinstance(exc, NotFound) else []
    headers = _closest(exc, HEADERS)
    if isinstance(exc, TooManyAttempts):
        headers = {"Retry-After": str(exc.retry_after)}
    return error_response(status, ErrorBody(detail=detail, suggestions=suggestions), headers)


def _message(error: dict[str, Any]) -> str:
    """pydantic's message, or ours for the patterns of `api.inputs` (which would otherwise be
    shown as a regular expression)."""
    if error.get("type") == "string_pattern_mismatch":
        pattern = str((error.get("ctx") or {}).get("pattern", ""))
        return MESSAGES.get(pattern, "has a character or form that is not allowed")
    if error.get("type") == "json_invalid":
        return "not valid JSON"
    if error.get("type") == "value_error":  # our validators' own words, without pydantic's prefix
        return str((error.get("ctx") or {}).get("error") or error.get("msg", ""))
    return str(error.get("msg", ""))


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    errors: Sequence[Any] = exc.errors() if isinstance(exc, RequestValidationError) else []
    fields = [FieldError(field="body" if e.get("type") == "json_invalid"
                         else field_name(e.get("loc", ())), message=_message(e)) for e in errors]
    detail = "; ".join(f"{f.field}: {f.message}" for f in fields) or "invalid request"
    return error_response(422, ErrorBody(detail=detail, errors=fields))


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own errors (unknown route, wrong method, body too large or unreadable) in the
    same JSON shape. A body that cannot be read as UTF-8 JSON is a 422 like any bad body."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:
        cause = exc.__cause__  # FastAPI raises its 400 from the decoding error
        message = (f"not valid UTF-8 JSON (byte {cause.start})"
                   if isinstance(cause, UnicodeDecodeError) else "not valid UTF-8 JSON")
        field = FieldError(field="body", message=message)
        return error_response(422, ErrorBody(detail=f"body: {message}", errors=[field]))
    detail = exc.detail if isinstance(exc.detail, str) else "request refused"
    if exc.status_code == 404:
        detail = "no route matches this path"
    return error_response(exc.status_code, ErrorBody(detail=detail),
                          dict(exc.headers) if exc.headers else None)


async def unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=exc, extra={"path": request.url.path})
    return error_response(500, ErrorBody(detail="internal error"))


def install_error_handlers(app: FastAPI) -> None:
    for cls in STATUS:
        app.add_exception_handler(cls, domain_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)
