"""`kbx eval --strategy kb`: the evidence order of `/ask`, on the in-process reference provider."""

from __future__ import annotations

from core.errors import BundleError
from core.settings import Settings
from ingest.chunking import chunk_corpus
from ingest.corpus import read_corpus
from ingest.store import Corpus
from kb.answering.evidence import EvidencePipeline
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from providers.memory import MemoryProvider
from retrieval.evaluation import Evidence, Strategy
from retrieval.questions import LabeledQuestion
from retrieval.retriever import Retriever, SearchOptions


def active_bundle(cfg: Settings, corpus: Corpus) -> KnowledgeBundle:
    """The merged (curated + extracted) bundle when one was built, else the curated one.

    Validated against the ingested blocks; when only some chapters were ingested (`kbx ingest
    --chapters 7-11`) and the bundle cites others, against the whole corpus instead (chunking is
    deterministic, so the ids of the ingested chapters are the same)."""
    try:
        return load_bundle(cfg.active_bundle_dir(), corpus.blocks)
    except BundleError:
        whole = chunk_corpus(read_corpus(cfg.corpus), cfg.chunk_size)
        if len(whole) == len(corpus.blocks):
            raise
        return load_bundle(cfg.active_bundle_dir(), whole)


def _pipeline_for(bundle: KnowledgeBundle, budget: int, expansion: bool,
                  titles: dict[int, str]) -> EvidencePipeline:
    provider = MemoryProvider()
    provider.load(bundle)
    return EvidencePipeline(provider, bundle, budget, expansion, titles)


def kb_strategy(corpus: Corpus, retriever: Retriever, cfg: Settings,
                options: SearchOptions) -> Strategy:
    bundle = active_bundle(cfg, corpus)
    pipeline = _pipeline_for(bundle, cfg.knowledge_budget, cfg.query_expansion,
                             {n: c.title for n, c in corpus.chapters.items()})

    def run(q: LabeledQuestion) -> Evidence:
        gathered = pipeline.gather(q.question.question, retriever, options)
        return Evidence(gathered.ranking, gathered.packed)

    return run
