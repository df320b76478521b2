"""`GET /search`: the lexical retriever's ranking, packing and explanation for a question."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from api.deps import (
    MAX_BLOCKS,
    MAX_BUDGET,
    MIN_BUDGET,
    CorpusDep,
    SettingsDep,
    chapter_selection,
    check_question,
)
from api.models import ErrorBody
from retrieval.packing import Policy
from retrieval.retriever import SearchOptions
from retrieval.trace import SearchTrace

router = APIRouter(tags=["search"], responses={422: {"model": ErrorBody}})


@router.get("/search")
def search(
    corpus: CorpusDep, settings: SettingsDep,
    q: Annotated[str, Query(min_length=1, description="the question, either script")],
    strategy: Literal["rrf", "ngram", "unigram"] = "rrf",
    budget: Annotated[int | None, Query(ge=MIN_BUDGET, le=MAX_BUDGET)] = None,
    max_blocks: Annotated[int | None, Query(ge=1, le=MAX_BLOCKS)] = None,
    policy: Annotated[Policy | None, Query(description="stop (default) or skip")] = None,
    chapters: Annotated[str | None, Query(description="e.g. 7-11 or 7,9,12-14")] = None,
    explain: Annotated[bool, Query(description="term-by-term BM25 explanations")] = False,
) -> SearchTrace:
    """Every candidate with its channel ranks, scores, matched terms and packing decision."""
    check_question("q", q, settings)
    selected = chapter_selection(chapters, corpus)
    options = SearchOptions(strategy=strategy, budget=budget or settings.budget,
                            max_blocks=max_blocks or settings.max_blocks,
                            policy=policy or Policy(settings.policy), explain=explain,
                            rrf_k=settings.rrf_k)
    trace = corpus.retriever.subset(selected).search(q, options)
    return trace.model_copy(update={"chapters": sorted(selected) if selected else None})
