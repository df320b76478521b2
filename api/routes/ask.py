"""`POST /ask`: a question answered from the knowledge base and the source text."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import AskerDep
from api.models import ErrorBody
from kb.answering.answer_models import AskRequest, AskResponse

router = APIRouter(tags=["ask"], responses={422: {"model": ErrorBody}, 503: {"model": ErrorBody}})


@router.post("/ask")
def ask(request: AskRequest, asker: AskerDep) -> AskResponse:
    """Answer with citations, each quote checked against the block it cites, and the trace.
    The service rejects an empty question or one over `max_question_chars` (422)."""
    return asker.ask(request)
