"""`GET /search`: the lexical retriever's ranking, packing and explanation for a question."""

from __future__ import annotations

from typing import Annotated, Literal

import anyio
import anyio.to_thread
from fastapi import APIRouter, Query, Response

from api.deps import (
    MAX_BLOCKS,
    MAX_BUDGET,
    MIN_BUDGET,
    CorpusDep,
    SettingsDep,
    chapter_selection,
    check_question,
)
from api.inputs import MAX_TEXT, TEXT_PATTERN
from api.responses import json_response, responses
from retrieval.packing import Policy
from retrieval.trace import SearchTrace

router = APIRouter(tags=["search"])


SEARCH_THREADS = 4
"""Searches computed at once. Each is CPU work that holds the interpreter lock most of its time:
forty of them at once (the server's default thread pool) left the event loop waiting for the
lock behind them, and /health with it; four keep both cores busy and the loop answering."""
_limiter: anyio.CapacityLimiter | None = None


def _searches() -> anyio.CapacityLimiter:
    global _limiter
    if _limiter is None:  # made in the event loop, at the first search
        _limiter = anyio.CapacityLimiter(SEARCH_THREADS)
    return _limiter


@router.get("/search", response_model=SearchTrace, responses=responses(422))
async def search(
    corpus: CorpusDep, settings: SettingsDep,
    q: Annotated[str, Query(max_length=MAX_TEXT, pattern=TEXT_PATTERN,
                            description="the question, either script",
                            examples=["鲁智深和林冲怎么认识？"])],
    strategy: Literal["rrf", "ngram", "unigram"] = "rrf",
    budget: Annotated[int | None, Query(ge=MIN_BUDGET, le=MAX_BUDGET)] = None,
    max_blocks: Annotated[int | None, Query(ge=1, le=MAX_BLOCKS)] = None,
    policy: Annotated[Policy | None, Query(description="stop (default) or skip")] = None,
    chapters: Annotated[str | None, Query(
        description="chapters of the corpus, e.g. 7-11 or 7,9,12-14 (the pattern shown is the "
                    "corpus's; checked by `core.validation.parse_chapters`, as the CLI's "
                    "--chapters, with the same message naming the corpus's range)",
        examples=["7-8"])] = None,
    explain: Annotated[bool, Query(description="term-by-term BM25 explanations")] = False,
) -> Response:
    """Every candidate with its channel ranks, scores, matched terms and packing decision.
    Needs no graph: it answers while the graph store is down. Computed and serialized in a
    bounded pool of threads (`SEARCH_THREADS`), never on the event loop."""
    from retrieval.retriever import SearchOptions  # numpy: loaded with the services

    check_question("q", q, settings)
    selected = chapter_selection(chapters, corpus)
    options = SearchOptions(strategy=strategy, budget=budget or settings.budget,
                            max_blocks=max_blocks or settings.max_blocks,
                            policy=policy or Policy(settings.policy), explain=explain,
                            rrf_k=settings.rrf_k)

    def work() -> Response:
        trace = corpus.retriever.subset(selected).search(q, options)
        return json_response(trace.model_copy(
            update={"chapters": sorted(selected) if selected else None}))

    return await anyio.to_thread.run_sync(work, limiter=_searches())
