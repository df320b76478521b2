"""The one check of a question's text, for every entry point (CLI, API, the answering service)."""

from __future__ import annotations

from core.errors import QueryRejected


def checked_question(text: str, max_chars: int, field: str = "question") -> str:
    """The question stripped; empty or longer than `max_chars` is rejected naming the field."""
    question = text.strip()
    if not question:
        raise QueryRejected(f"{field}: the question is empty")
    if len(question) > max_chars:
        raise QueryRejected(f"{field}: {len(question)} characters, more than the limit of "
                            f"{max_chars}")
    return question
