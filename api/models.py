"""Response shapes of the API that no other layer owns: errors, health, chunks, reload, people."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kb.knowledge.views import EventView, LoadReport, Neighbor, PersonView, StateView, Stats


class FieldError(BaseModel):
    field: str = Field(description="the request field at fault, e.g. question, budget")
    message: str


class ErrorBody(BaseModel):
    """Every error response: a readable message, and what may help the caller recover."""

    detail: str
    suggestions: list[str] = Field(default=[], description="closest known names or ids (404)")
    errors: list[FieldError] = Field(default=[], description="each invalid field (422)")


class StoreHealth(BaseModel):
    reachable: bool
    stats: Stats | None = None
    error: str | None = None


class LLMHealth(BaseModel):
    configured: bool
    model: str | None = None


class CorpusHealth(BaseModel):
    chapters: int
    blocks: int


class Health(BaseModel):
    status: Literal["ok", "degraded"] = Field(
        description="degraded: the graph store is unreachable or holds no knowledge")
    store: StoreHealth
    llm: LLMHealth
    corpus: CorpusHealth


class Span(BaseModel):
    start: int = Field(description="offset in `text`")
    end: int


class ChunkView(BaseModel):
    id: str
    chapter: int
    chapter_title: str
    index: int
    start: int = Field(description="character offset in the chapter text")
    end: int
    text: str
    previous: str | None = Field(default=None, description="the block before, in book order")
    next: str | None = Field(default=None, description="the block after, in book order")
    quote: str | None = Field(default=None, description="the quote asked to be highlighted")
    highlights: list[Span] = Field(default=[], description="where the quote is in `text` "
                                   "(compared after script and punctuation folding)")


class PersonDetail(BaseModel):
    person: PersonView
    neighbors: list[Neighbor]
    events: list[EventView] = Field(description="book order")
    states: list[StateView]


class ReloadResult(BaseModel):
    status: Literal["reloaded"] = "reloaded"
    report: LoadReport

