"""The answering service: plan, gather knowledge and evidence, answer (LLM or offline), check
every quote, and remember the session for follow-up questions."""

from __future__ import annotations

import logging
import time
import uuid
from pathlib import Path

from core.llm import ChatClient
from core.settings import Settings
from core.validation import checked_question
from ingest.chunking import Block
from kb.answering.answer_models import (
    AnswerContext,
    AskRequest,
    AskResponse,
    Citation,
    EvidenceItem,
    KnowledgeItem,
    PlanView,
)
from kb.answering.compose import compose
from kb.answering.drafting import Ctx, Draft
from kb.answering.evidence import Evidence, EvidencePipeline
from kb.answering.llm_answer import LLMAnswerer
from kb.answering.quotes import check_quote
from kb.answering.sessions import FileSessions, MemorySessions, SessionState, SessionStore
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.language import frames
from kb.knowledge.loading import load_active_bundle
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.views import SourceView
from retrieval.corpus import Corpus
from retrieval.packing import Policy
from retrieval.retriever import SearchOptions

log = logging.getLogger(__name__)
TRACE_CANDIDATES = 40


class AskService:
    """One per process; thread-safe for concurrent requests (the session stores are)."""

    def __init__(self, settings: Settings, corpus: Corpus, provider: RelationProvider,
                 llm: ChatClient | None = None, bundle: KnowledgeBundle | None = None,
                 session_dir: Path | None = None, sessions: SessionStore | None = None) -> None:
        """Sessions go to `sessions` when given (the API: the graph store), else to files in
        `session_dir` (the CLI), else to this process's memory (`kb.answering.sessions`)."""
        self.settings = settings
        self.corpus = corpus
        self.provider = provider
        self.llm = LLMAnswerer(llm) if llm is not None else None
        self.sessions: SessionStore = sessions or (
            FileSessions(session_dir) if session_dir is not None else MemorySessions())
        self.titles = {n: c.title for n, c in corpus.chapters.items()}
        self.pipeline = EvidencePipeline(provider, bundle or load_active_bundle(settings, corpus.blocks),
                                         settings.knowledge_budget, settings.query_expansion,
                                         self.titles)

    def reload(self, bundle: KnowledgeBundle) -> None:
        """Swap in a new bundle (after the provider loaded it); in-flight requests keep the old."""
        self.pipeline = EvidencePipeline(self.provider, bundle, self.settings.knowledge_budget,
                                         self.settings.query_expansion, self.titles)

    def ask(self, request: AskRequest) -> AskResponse:
        started = time.perf_counter()
        question = checked_question(request.question, self.settings.max_question_chars)
        session_id = request.session_id or uuid.uuid4().hex[:12]
        previous = self._session(session_id)
        options = SearchOptions(budget=request.budget or self.settings.budget,
                                max_blocks=request.max_blocks or self.settings.max_blocks,
                                policy=Policy(self.settings.policy), rrf_k=self.settings.rrf_k)
        pipeline = self.pipeline
        gathered = pipeline.gather(question, self.corpus.retriever, options,
                                   previous.person_ids if previous else (),
                                   request.knowledge_budget,
                                   previous.chapter if previous else None)
        draft, mode, kind = self._answer(pipeline, gathered)
        response = self._response(pipeline, draft, mode, gathered, session_id)
        response.trace["answered_by"] = kind
        response.trace["lexical"] = self._lexical_trace(gathered.plan.question, gathered, options)
        if gathered.plan.asked and gathered.plan.refusal is None:  # the Chinese it was read as
            response.trace["read_as"] = gathered.plan.question
        cited = [c.chapter for c in response.citations]
        self._remember(session_id, SessionState(
            gathered.plan.person_ids or (previous.person_ids if previous else []),
            gathered.packed, question, cited[0] if cited else (previous.chapter if previous
                                                                 else None)))
        response.trace["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 2)
        log.info("ask", extra={"kind": gathered.plan.kind, "status": response.status,
                               "mode": mode, "ms": response.trace["elapsed_ms"]})
        return response

    def _answer(self, pipeline: EvidencePipeline, g: Evidence) -> tuple[Draft, str, str]:
        """The offline answer (and the question kind that gave it), or the LLM's when one is
        configured and answers well formed."""
        offline, kind = compose(Ctx(g, pipeline.book, CorpusPassages(self.corpus)))
        if self.llm is None:
            return offline, "offline", kind
        try:
            return self.llm.answer(g, pipeline.book, offline, self.corpus.block), "llm", kind
        except Exception as exc:  # the offline answer stands in; the reason is logged
            log.warning("llm answer failed; offline answer used", extra={"error": str(exc)})
            offline.reason = (offline.reason or "") + frames(g.plan.lang).phrase(
                "llm.fallback", error=type(exc).__name__)
            return offline, "offline", kind

    def _response(self, pipeline: EvidencePipeline, draft: Draft, mode: str, g: Evidence,
                  session_id: str) -> AskResponse:
        checks = [check_quote(text, chunk_id, self.corpus.block) for text, chunk_id in draft.quotes]
        for stage in draft.stages:
            blocks = {r.chunk_id for r in self._stage_sources(g, stage.title)}
            stage.quotes = [c for c in checks if c.chunk_id in blocks]
        cited = list(dict.fromkeys(c.chunk_id for c in checks))
        citations = [Citation(chunk_id=c, chapter=b.chapter) for c in cited
                     if (b := self.corpus.block(c)) is not None]
        status = draft.status
        if any(not c.located for c in checks):
            draft.reason = (draft.reason or "") + frames(g.plan.lang).phrase("quotes.unlocated")
        people = pipeline.people.people
        return AskResponse(
            status="answered" if status == "answered" else "insufficient",
            answer=draft.answer, reason=draft.reason, mode="llm" if mode == "llm" else "offline",
            session_id=session_id,
            plan=PlanView(kind=g.plan.kind, people=[people[p].name for p in g.plan.person_ids],
                          person_ids=g.plan.person_ids, cleaned=g.plan.cleaned,
                          follow_up=g.plan.follow_up, asks=g.plan.asks, moment=g.plan.moment,
                          focus=list(g.plan.focus), kinds=list(g.plan.kinds), lang=g.plan.lang),
            citations=citations, quotes=checks, stages=draft.stages,
            context=AnswerContext(
                knowledge=[KnowledgeItem(id=h.record.id, kind=type(h.record).__name__.lower(),
                                         text=h.text, score=h.score) for h in g.knowledge],
                evidence=[EvidenceItem(chunk_id=c, chapter=b.chapter, text=b.display_text,
                                       origin=g.origins.get(c, "lexical"))
                          for c in g.packed if (b := self.corpus.block(c)) is not None]),
            trace={"query": g.query, "expansions": g.expansions,
                   "plan_records": [r.id for r in g.plan_records],
                   "ranking": [{"chunk_id": c, "origin": g.origins.get(c, "lexical"),
                                "decision": g.decisions.get(c)} for c in g.ranking[:40]],
                   "packed": g.packed})

    def _lexical_trace(self, question: str, g: Evidence, options: SearchOptions
                       ) -> dict[str, object]:
        """The lexical side of the evidence, explained: terms, each channel's rank, score and
        matched terms, the fusion (the first `TRACE_CANDIDATES` candidates)."""
        assert g.lexical is not None
        trace = self.corpus.retriever.explain_ranking(question, g.expansions, g.lexical, options,
                                                      TRACE_CANDIDATES)
        return trace.model_dump(mode="json", exclude={"packed", "tokens_used"})

    @staticmethod
    def _stage_sources(g: Evidence, title: str) -> list[SourceView]:
        if g.journey is None:
            return []
        return [s for st in g.journey.stages if st.title == title for s in st.sources]

    def _session(self, session_id: str) -> SessionState | None:
        return self.sessions.get(session_id)

    def session_known(self, session_id: str) -> bool:
        """Whether a follow-up in this session would find it (the entry points refuse one that
        would not, rather than answer it as a first question)."""
        return self._session(session_id) is not None

    def _remember(self, session_id: str, state: SessionState) -> None:
        self.sessions.put(session_id, state)


class CorpusPassages:
    """The corpus as the composers read it (`kb.answering.drafting.Passages`)."""

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus

    def block(self, chunk_id: str) -> Block | None:
        return self._corpus.block(chunk_id)

    def document_frequency(self, term: str) -> int:
        return self._corpus.retriever.document_frequency(term)

    @property
    def n_docs(self) -> int:
        return self._corpus.retriever.n_docs

