"""Evaluation question files (shared/eval/FORMAT.md): parsing, and quotes located as labels."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import EncodingError, QuestionFileError
from core.utf8 import read_utf8
from ingest.corpus import Chapter
from ingest.locate import spans_in

Kind = Literal["pair", "journey", "fact", "wording", "unanswerable"]


class Question(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    kind: Kind
    answerable: bool
    people: list[str] = []
    core: list[str] = []
    rel: list[str] = []
    chapters: list[int] | None = None


@dataclass(frozen=True)
class QuoteSpan:
    """Where a label quote sits: chapter and original character offsets [start, end)."""

    quote: str
    chapter: int
    start: int
    end: int


@dataclass(frozen=True)
class LabeledQuestion:
    question: Question
    line: int
    core: list[QuoteSpan]
    rel: list[QuoteSpan]


def find_spans(chapters: Mapping[int, Chapter], quote: str,
               within: list[int] | None = None) -> list[QuoteSpan]:
    """Every place a label quote occurs, by chapter, compared after folding (the one rule of
    `ingest.locate.spans_in`, which also places quotes in the knowledge and in answers)."""
    numbers = within if within is not None else sorted(chapters)
    return [QuoteSpan(quote, number, start, end)
            for number in numbers if number in chapters
            for start, end in spans_in(chapters[number].text, quote)]


def _locate(chapters: Mapping[int, Chapter], q: Question, line: int, quote: str) -> QuoteSpan:
    spans = find_spans(chapters, quote, q.chapters)
    where = f"chapters {q.chapters}" if q.chapters else "the corpus"
    if len(spans) != 1:
        problem = "not found" if not spans else f"found {len(spans)} times"
        raise QuestionFileError(f"line {line} (question {q.id}): quote {quote!r} {problem} in {where}")
    return spans[0]


def _parse_line(path: Path, line_no: int, raw: str) -> Question:
    try:
        return Question.model_validate(json.loads(raw))
    except json.JSONDecodeError as exc:
        raise QuestionFileError(f"{path}:{line_no}: bad JSON ({exc.msg})") from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "line"
        raise QuestionFileError(f"{path}:{line_no}: field {field!r}: {err['msg']}") from exc


def load_questions(path: Path, chapters: Mapping[int, Chapter]) -> list[LabeledQuestion]:
    """Parse and label every question; the first problem stops with the line and the quote."""
    try:
        lines = read_utf8(path).splitlines()
    except EncodingError as exc:
        raise QuestionFileError(str(exc)) from exc
    except OSError as exc:
        raise QuestionFileError(f"{path}: cannot read question file ({exc.strerror})") from exc
    labeled: list[LabeledQuestion] = []
    seen: dict[str, int] = {}
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        q = _parse_line(path, line_no, raw)
        if q.id in seen:
            raise QuestionFileError(f"{path}:{line_no}: duplicate id {q.id!r} (first on line "
                                    f"{seen[q.id]})")
        seen[q.id] = line_no
        if q.answerable and not q.core:
            raise QuestionFileError(f"{path}:{line_no}: question {q.id} is answerable but has no core")
        core = [_locate(chapters, q, line_no, quote) for quote in q.core]
        rel = [_locate(chapters, q, line_no, quote) for quote in q.rel]
        labeled.append(LabeledQuestion(q, line_no, core, rel))
    if not labeled:
        raise QuestionFileError(f"{path}: no questions")
    return labeled
