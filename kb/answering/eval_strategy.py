"""`kbx eval --strategy kb`: the evidence order of `/ask`, for the evaluation of retrieval."""

from __future__ import annotations

from collections.abc import Mapping

from core.settings import Settings
from kb.answering.evidence import LEXICAL_CUT, EvidencePipeline
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.protocol import RelationProvider
from retrieval.evaluation import Evidence, Strategy
from retrieval.questions import LabeledQuestion
from retrieval.retriever import Retriever, SearchOptions


def kb_strategy(bundle: KnowledgeBundle, provider: RelationProvider, titles: Mapping[int, str],
                retriever: Retriever, cfg: Settings, options: SearchOptions,
                lexical_cut: float = LEXICAL_CUT) -> Strategy:
    """The `/ask` evidence order over a provider that holds `bundle`; `lexical_cut` as
    `kb.answering.evidence.LEXICAL_CUT` (the sweep varies it)."""
    pipeline = EvidencePipeline(provider, bundle, cfg.knowledge_budget, cfg.query_expansion,
                                titles, lexical_cut)

    def run(q: LabeledQuestion) -> Evidence:
        gathered = pipeline.gather(q.question.question, retriever, options)
        return Evidence(gathered.ranking, gathered.packed)

    return run
