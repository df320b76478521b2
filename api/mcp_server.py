"""The MCP server: the explorer's lookups as read-only tools for agents (official `mcp` SDK, 2.x).

One `MCPServer` is built over a way to reach the running `Services`: `kbx mcp` opens them itself
and speaks stdio; the app mounts the same server at `/mcp` (streamable HTTP) over the services
its lifespan opened. Tools that read the graph run in the service's graph pool, as the HTTP
routes do, so a dead or hung store fails them fast (a tool error) and never holds up the server's
shared threads. Tools take typed arguments and return the API's own pydantic models, so the
SDK publishes an input and an output schema for each. A bad name or id is a tool error whose
text names the argument and the closest known names, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from api.models import ChunkView
from api.routes.chunks import MAX_QUOTE_CHARS, chunk_view
from api.routes.knowledge import find_person as resolve_person
from api.services import UNAVAILABLE, Services
from core.errors import KBError, NotFound, ProviderUnavailable
from kb.answering.answer_models import AskRequest, Citation, PlanView, QuoteCheck, StageNote
from kb.knowledge.directory import MAX_SUGGESTIONS, NameMatch
from kb.knowledge.journey import journey_of
from kb.knowledge.names import pair_ids
from kb.knowledge.protocol import MAX_HOPS
from kb.knowledge.views import Journey, Pair, PathResult, RecordView
from retrieval.retriever import SearchOptions

INSTRUCTIONS = (
    "Read-only lookups in a knowledge graph of the novel 水浒传, every record tied to verbatim "
    "source text. Names may be given in simplified or traditional script, or as aliases, "
    "nicknames or star names (林冲, 林沖, 豹子头, 天雄星): use find_person when unsure. Quotes "
    "are verbatim passages of source blocks (ids like ch007_chunk_004); source_block opens one.")

MAX_EVIDENCE = 20
log = logging.getLogger(__name__)
T = TypeVar("T")


class People(BaseModel):
    matches: list[NameMatch] = Field(description="best match first")


class EvidenceChannel(BaseModel):
    rank: int
    score: float
    matched_terms: list[str]


class EvidenceHit(BaseModel):
    chunk_id: str
    chapter: int
    fused_rank: int
    fused_score: float
    channels: dict[str, EvidenceChannel] = Field(description="ngram / unigram BM25 channels")
    text: str


class Evidence(BaseModel):
    question: str
    terms: dict[str, list[str]] = Field(description="channel → the question's terms in the index")
    hits: list[EvidenceHit] = Field(description="the packed blocks, in fused (RRF) order")


class Answer(BaseModel):
    """`POST /ask` without the context and the trace: the answer, its citations and quote checks."""

    status: str = Field(description="answered or insufficient")
    answer: str
    reason: str | None
    mode: str = Field(description="llm or offline")
    session_id: str | None = Field(description="pass it back to ask a follow-up (那他后来呢？)")
    plan: PlanView
    citations: list[Citation]
    quotes: list[QuoteCheck] = Field(description="each quote and whether it is verbatim in its block")
    stages: list[StageNote]


def _tool_error(exc: Exception) -> ToolError:
    """The domain error's own message (a NotFound already names the closest names); a store
    failure says only that the store is unavailable (its cause, with ports, goes to the log)."""
    if isinstance(exc, ProviderUnavailable):
        log.warning("mcp tool: graph store unavailable", extra={"error": str(exc)})
        return ToolError(UNAVAILABLE)
    return ToolError(str(exc))


def build_mcp_server(services: Callable[[], Services]) -> MCPServer:
    """The server with its eight tools; `services()` is called per call (a reload swaps them)."""
    server: MCPServer = MCPServer("kbx", instructions=INSTRUCTIONS, version="0.1.0",
                                  log_level="WARNING")

    async def in_pool(work: Callable[[], T]) -> T:
        """Graph work in the graph pool; every domain error becomes a tool error."""
        try:
            return await services().graph(work)
        except KBError as exc:
            raise _tool_error(exc) from None

    def person_id(argument: str, name: str) -> str:
        """Called inside the pool: a miss names the argument and the closest names."""
        try:
            return resolve_person(services().require_provider(), name).id
        except NotFound as exc:
            raise NotFound(f"{argument}: {exc}", exc.suggestions) from None

    @server.tool(description="People a name, alias, nickname or star name may mean (prefix "
                             "first), with their aliases, group and first chapter.")
    def find_person(query: Annotated[str, Field(min_length=1, max_length=50)],
                    limit: Annotated[int, Field(ge=1, le=MAX_SUGGESTIONS)] = 10) -> People:
        try:
            return People(matches=services().require_directory().suggest(query, limit))
        except KBError as exc:
            raise _tool_error(exc) from None

    @server.tool(description="What connects two people: relations both ways (with types, "
                             "chapters and quotes) and shared events in book order.")
    async def pair(a: Annotated[str, Field(min_length=1, max_length=100)],
                   b: Annotated[str, Field(min_length=1, max_length=100)]) -> Pair:
        def work() -> Pair:
            provider = services().require_provider()
            try:
                return provider.pair(*pair_ids(provider, a, b))
            except NotFound:
                person_id("a", a), person_id("b", b)  # the error names its argument
                raise

        return await in_pool(work)

    @server.tool(description="A person's story as stages in book order, each with chapters, "
                             "events, states and source quotes.")
    async def journey(person: Annotated[str, Field(min_length=1, max_length=100)]) -> Journey:
        return await in_pool(lambda: journey_of(services().require_provider(),
                                                person_id("person", person)))

    @server.tool(description="The shortest chain of relations between two people.")
    async def path(a: Annotated[str, Field(min_length=1, max_length=100)],
                   b: Annotated[str, Field(min_length=1, max_length=100)],
                   max_hops: Annotated[int, Field(ge=1, le=MAX_HOPS)] = MAX_HOPS) -> PathResult:
        return await in_pool(lambda: services().require_provider().path(
            person_id("a", a), person_id("b", b), max_hops))

    @server.tool(description="Any record (person, event, relation, state, chapter) by id, with "
                             "its linked records and sources.")
    async def record(record_id: Annotated[str, Field(min_length=1, max_length=200)]
                     ) -> RecordView:
        return await in_pool(lambda: services().require_provider().record(record_id))

    @server.tool(description="One source block's original text, chapter and neighbours; with a "
                             "quote, where it lies in the text (empty highlights: not there).")
    def source_block(chunk_id: Annotated[str, Field(min_length=1, max_length=100)],
                     quote: Annotated[str | None, Field(max_length=MAX_QUOTE_CHARS)] = None
                     ) -> ChunkView:
        try:
            return chunk_view(services().corpus, chunk_id, quote)
        except KBError as exc:
            raise _tool_error(exc) from None

    @server.tool(description="The source blocks that best match a question (two BM25 channels "
                             "fused by RRF), with each channel's rank, score and matched terms.")
    def search_evidence(question: Annotated[str, Field(min_length=1, max_length=500)],
                        max_blocks: Annotated[int, Field(ge=1, le=MAX_EVIDENCE)] = 5) -> Evidence:
        current = services()
        settings = current.settings
        if len(question) > settings.max_question_chars:
            raise ToolError(f"question: longer than {settings.max_question_chars} characters")
        options = SearchOptions(budget=settings.budget, max_blocks=max_blocks, rrf_k=settings.rrf_k)
        trace = current.corpus.retriever.search(question, options)
        packed = set(trace.packed)
        hits = []
        for candidate in trace.candidates:
            block = current.corpus.block(candidate.chunk_id)
            if candidate.chunk_id in packed and block is not None:
                hits.append(EvidenceHit(
                    chunk_id=candidate.chunk_id, chapter=candidate.chapter,
                    fused_rank=candidate.fused_rank, fused_score=candidate.fused_score,
                    channels={name: EvidenceChannel(rank=hit.rank, score=hit.score,
                                                    matched_terms=hit.matched_terms)
                              for name, hit in candidate.channels.items()},
                    text=block.display_text))
        return Evidence(question=question, terms=trace.query.known_terms, hits=hits)

    @server.tool(description="Answer a question about the novel from the knowledge graph and the "
                             "source text: the answer, its citations and a check of every quote.")
    async def ask(question: Annotated[str, Field(min_length=1, max_length=500)],
                  session_id: Annotated[str | None, Field(max_length=100)] = None) -> Answer:
        request = AskRequest(question=question, session_id=session_id)
        response = await in_pool(lambda: services().ask(request))
        return Answer(status=response.status, answer=response.answer, reason=response.reason,
                      mode=response.mode, session_id=response.session_id, plan=response.plan,
                      citations=response.citations, quotes=response.quotes,
                      stages=response.stages)

    return server
