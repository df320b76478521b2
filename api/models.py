"""Response shapes of the API that no other layer owns: errors, health, chunks, reload, people."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from api.inputs import MAX_ID, MAX_TEXT, NAME_PATTERN, TEXT_PATTERN
from kb.answering.answer_models import AskRequest
from kb.knowledge.views import EventView, LoadReport, Neighbor, PersonView, StateView, Stats


class AskBody(AskRequest):
    """The body of `POST /ask`: an `AskRequest` within the API's bounds. Numbers must be JSON
    integers (`false` is not 0), text holds no control characters, the question holds at most
    `max_question_chars` characters (the document shows the configured figure)."""

    question: str = Field(max_length=MAX_TEXT, pattern=TEXT_PATTERN,
                          description="the question, simplified or traditional",
                          examples=["鲁智深和林冲怎么认识？"])
    session_id: str | None = Field(default=None, max_length=MAX_ID, pattern=NAME_PATTERN,
                                   description="continue this session (from an earlier answer)")
    budget: int | None = Field(default=None, ge=100, le=32000,
                               description="evidence token budget")
    max_blocks: int | None = Field(default=None, ge=1, le=50)
    knowledge_budget: int | None = Field(default=None, ge=0, le=20000)

    @field_validator("budget", "max_blocks", "knowledge_budget", mode="before")
    @classmethod
    def json_integer(cls, value: object) -> object:
        """A JSON integer (an integral 5.0 included, as JSON Schema has it) or null, never a
        boolean or a string: `false` must not be read as 0."""
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ValueError("must be an integer")
        return value


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
    persistence: list[str] = Field(default_factory=list, description=(
        "what the store could not write (a full disk: its append-only log, the log's "
        "compaction after a load, a snapshot); empty when all is written. Not empty: degraded"))


class LLMHealth(BaseModel):
    configured: bool
    model: str | None = None


class CorpusHealth(BaseModel):
    chapters: int
    blocks: int


class Health(BaseModel):
    status: Literal["ok", "degraded"] = Field(
        description="degraded: the graph store is unreachable or holds no knowledge, or the "
                    "service could not start")
    ready: bool = Field(default=True, description=(
        "false while the service opens its parts after it starts serving (within about a "
        "second): requests meanwhile wait for them"))
    loading: list[str] = Field(default_factory=list, description=(
        "the parts still opening (corpus, store, answers); empty once ready"))
    store: StoreHealth | None = Field(default=None, description="null until the store is opened")
    llm: LLMHealth
    corpus: CorpusHealth | None = Field(default=None, description="null until it is opened")
    instance: str | None = Field(default=None, description=(
        "the KBX_INSTANCE this service was started with (null: none): a caller that started it "
        "knows the answer is its own service's, not another process's on the same port"))
    pid: int | None = Field(default=None, description="the serving process (the worker)")


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

