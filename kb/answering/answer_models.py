"""The shapes of an answer: what `POST /ask` and `kbx ask --json` return."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class PlanView(BaseModel):
    kind: Literal["pair", "journey", "open"]
    people: list[str] = Field(description="names of the people the question is about")
    person_ids: list[str] = []
    cleaned: str = ""
    follow_up: bool = False
    asks: str = Field(default="what", description="what is asked (kb.answering.planner.Ask): who, "
                      "why, where, when, chapter, how_many, name, made_of, whether, identity, "
                      "relation, stages, how, what")
    moment: Literal["began", "ended"] | None = Field(
        default=None, description="the question asks how the story began or how it ended")
    focus: list[str] = Field(default_factory=list,
                             description="the question's content words: what the evidence must hold")
    lang: str = Field(default="zh", description="the language the question was asked in and "
                      "the answer's frame is written in (zh, en); an English question's Chinese "
                      "reading is the trace's read_as")
    kinds: list[str] = Field(default_factory=list,
                             description="the question kinds that may answer, in priority order "
                                         "(kb.answering.kinds); the trace's answered_by says "
                                         "which one did")


class Citation(BaseModel):
    chunk_id: str
    chapter: int


class QuoteCheck(BaseModel):
    """A quote of the answer and whether it was found verbatim (after normalization) in its block."""

    text: str
    chunk_id: str
    located: bool


class KnowledgeItem(BaseModel):
    id: str
    kind: str
    text: str
    score: float | None = None
    origin: str = Field(default="ranked", description="plan (pair/journey records) or ranked")


class EvidenceItem(BaseModel):
    chunk_id: str
    chapter: int
    text: str
    origin: str = Field(description="graph (a record points here) or lexical")


class AnswerContext(BaseModel):
    knowledge: list[KnowledgeItem] = []
    evidence: list[EvidenceItem] = []


class StageNote(BaseModel):
    title: str
    chapters: list[int]
    note: str
    quotes: list[QuoteCheck] = []


class AskRequest(BaseModel):
    question: str = Field(min_length=1, description="the question, simplified or traditional")
    session_id: str | None = Field(default=None, max_length=100)
    budget: int | None = Field(default=None, ge=100, le=32000, description="evidence token budget")
    max_blocks: int | None = Field(default=None, ge=1, le=50)
    knowledge_budget: int | None = Field(default=None, ge=0, le=20000)


class AskResponse(BaseModel):
    status: Literal["answered", "insufficient"]
    answer: str
    reason: str | None = None
    mode: Literal["llm", "offline"] = "offline"
    session_id: str | None = None
    plan: PlanView
    citations: list[Citation] = []
    quotes: list[QuoteCheck] = []
    stages: list[StageNote] = []
    context: AnswerContext = AnswerContext()
    trace: dict[str, Any] = {}
