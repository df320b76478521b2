"""The retrieval trace as data: every term, score, rank and packing decision of one search."""

from __future__ import annotations

from pydantic import BaseModel, Field

from retrieval.explanation import Explanation
from retrieval.packing import Decision


class ChannelHit(BaseModel):
    """A block's place in one channel's ranking."""

    rank: int
    score: float
    matched_terms: list[str]
    explanation: Explanation | None = None


class Candidate(BaseModel):
    """One block that some channel ranked, with how it was fused and whether it was packed."""

    chunk_id: str
    chapter: int
    channels: dict[str, ChannelHit] = Field(description="channel name → rank, score, terms")
    fused_score: float
    fused_rank: int
    tokens: int
    decision: Decision
    origin: str = Field(default="lexical", description="lexical, or the graph record that led here")


class QueryTrace(BaseModel):
    """How the question became terms."""

    question: str
    simplified: str
    cleaned: str
    expansions: list[str] = []
    terms: dict[str, list[str]] = Field(description="channel → distinct query terms")
    known_terms: dict[str, list[str]] = Field(description="channel → terms present in the index")


class SearchTrace(BaseModel):
    strategy: str
    rrf_k: int
    depth: int
    budget: int
    max_blocks: int | None
    policy: str
    chapters: list[int] | None = None
    query: QueryTrace
    candidates: list[Candidate]
    packed: list[str] = Field(description="ids of the selected blocks, in fused order")
    tokens_used: int
    elapsed_ms: float
