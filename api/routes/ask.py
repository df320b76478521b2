"""`POST /ask`: a question answered from the knowledge base and the source text."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from api.deps import BookQuery, check_question, get_shelf
from api.models import AskBody
from api.responses import GRAPH_ERRORS, responses
from api.shelf import Shelf
from kb.answering.answer_models import AskResponse

router = APIRouter(tags=["ask"])


@router.post("/ask", responses=responses(413, 422, 502, *GRAPH_ERRORS))
async def ask(request: AskBody, shelf: Annotated[Shelf, Depends(get_shelf)],
              book: BookQuery = None) -> AskResponse:
    """Answer with citations, each quote checked against the block it cites, and the trace.
    The book is the body's `book`, else the query's, else the service's. An empty question or
    one over `max_question_chars` is refused (422). The work runs in the graph pool: 503 when
    the graph store is down or does not answer in time."""
    async with shelf.using(request.book or book) as services:
        check_question("question", request.question, services.settings)
        asker = services.require_asker()
        return await services.graph(lambda: asker.ask(request))
