"""Bounds on what a request may carry, written once and used both to check and to document.

The rules themselves are `core.validation`'s (the CLI checks the same, with the same words);
this module gives them to the routes and the OpenAPI document. Every pattern here is what the
document shows and what the service enforces (pydantic checks the patterns of parameters and
bodies; chapter selections are checked against the corpus with the very pattern the document
shows), so a request the document allows is one the service accepts, and the other way round.
"""

from __future__ import annotations

from core.validation import (
    CHAPTERS_SYNTAX,
    CONTROL,
    MAX_CHAPTERS_SPEC,
    MAX_ID,
    MAX_NAME,
    MAX_TEXT,
    MESSAGES,
    NAME_PATTERN,
    TEXT_CONTROL,
    TEXT_PATTERN,
    chapters_pattern,
    int_range_pattern,
    parse_chapters,
)

__all__ = ["CHAPTERS_SYNTAX", "CONTROL", "MAX_CHAPTERS_SPEC", "MAX_ID", "MAX_NAME", "MAX_TEXT",
           "MESSAGES", "NAME_PATTERN", "TEXT_CONTROL", "TEXT_PATTERN", "chapters_pattern",
           "int_range_pattern", "parse_chapters"]
