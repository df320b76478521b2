"""The OpenAPI document, completed with what is only known once the service runs: the configured
question length and the chapters of the corpus, so that the document allows exactly what the
service accepts."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.inputs import chapters_pattern
from core.settings import Settings


def _parameter(doc: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any] | None:
    operation = doc.get("paths", {}).get(path, {}).get(method, {})
    for parameter in operation.get("parameters", []):
        if parameter.get("name") == name:
            schema: dict[str, Any] = parameter.setdefault("schema", {})
            return schema
    return None


def _drop_unused(doc: dict[str, Any]) -> None:
    """FastAPI's default 422 schemas, which no route answers with (ours is ErrorBody)."""
    schemas = doc.get("components", {}).get("schemas", {})
    if "#/components/schemas/HTTPValidationError'" not in str(doc.get("paths", {})):
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)


UNKNOWN_BOOK = {"description": "unknown book (`suggestions` lists the built ones), id or name",
                "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/ErrorBody"}}}}


def _document_unknown_book(doc: dict[str, Any]) -> None:
    """Every route that takes a book may answer 404 for a book never built."""
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            takes_book = any(p.get("name") == "book" for p in operation.get("parameters", []))
            if takes_book:
                operation.setdefault("responses", {}).setdefault("404", UNKNOWN_BOOK)


def install_openapi(app: FastAPI, settings: Settings) -> None:
    def document() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        doc = get_openapi(title=app.title, version=app.version, description=app.description,
                          routes=app.routes)
        q = _parameter(doc, "/search", "get", "q")
        if q is not None:
            q["maxLength"] = settings.max_question_chars
        body = doc.get("components", {}).get("schemas", {}).get("AskBody", {})
        if "question" in body.get("properties", {}):
            body["properties"]["question"]["maxLength"] = settings.max_question_chars
        services = getattr(app.state, "services", None)
        chapters = _parameter(doc, "/search", "get", "chapters")
        if services is not None and chapters is not None:
            # the parameter is optional: its schema is anyOf [string, null]
            target = next((s for s in chapters.get("anyOf", []) if s.get("type") == "string"),
                          chapters)
            target["pattern"] = chapters_pattern(services.corpus.chapters)
        _document_unknown_book(doc)
        _drop_unused(doc)
        app.openapi_schema = doc
        return doc

    app.openapi = document  # type: ignore[method-assign]
