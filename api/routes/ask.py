"""`POST /ask`: a question answered from the knowledge base and the source text."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import ServicesDep, check_question
from api.models import AskBody
from api.responses import GRAPH_ERRORS, responses
from kb.answering.answer_models import AskResponse

router = APIRouter(tags=["ask"])


@router.post("/ask", responses=responses(404, 413, 422, 502, *GRAPH_ERRORS))
async def ask(request: AskBody, services: ServicesDep) -> AskResponse:
    """Answer with citations, each quote checked against the block it cites, and the trace.
    An empty question or one over `max_question_chars` is refused (422), a `session_id` no answer
    gave (or one expired) too (404). The work runs in the
    graph pool: 503 when the graph store is down or does not answer in time."""
    check_question("question", request.question, services.settings)
    services.require_asker()
    return await services.graph(lambda: services.ask(request))
