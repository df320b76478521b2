"""The lexical retriever: two BM25 channels fused by RRF, then packed, with a full trace."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from pydantic import TypeAdapter

from core.text import to_simplified
from ingest.chunking import Block
from retrieval.analyzers import ANALYZERS, CODE_ANALYZERS, clean_query
from retrieval.bm25 import BM25Index, IntArray, SearchIndex
from retrieval.fusion import K, rrf_positions
from retrieval.index_build import build_channel
from retrieval.packing import Decision, Policy, estimate_tokens, pack
from retrieval.trace import Candidate, QueryTrace, SearchTrace
from retrieval.vectorized import CHANNEL_POSTINGS
from retrieval.window import WindowIndex

STRATEGIES = ("rrf", "ngram", "unigram")
DEFAULT_DEPTH = 100


@dataclass(frozen=True)
class SearchOptions:
    strategy: str = "rrf"
    budget: int = 8000
    max_blocks: int | None = 12
    policy: Policy = Policy.STOP
    depth: int = DEFAULT_DEPTH
    rrf_k: int = K
    explain: bool = False

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}: {self.strategy!r}")


@dataclass
class Ranking:
    """The fast path's result: each channel's list and the fused list, as (block position, score)."""

    channels: dict[str, list[tuple[int, float]]]
    fused: list[tuple[int, float]]


def query_text(question: str, expansions: Iterable[str] = ()) -> str:
    """The cleaned question plus expansion phrases (aliases, wordings), as one simplified text."""
    return " ".join([clean_query(question), *(to_simplified(e) for e in expansions)])


def query_terms(text: str) -> dict[str, list[str]]:
    """Distinct terms per channel of a query text (for the trace)."""
    return {name: list(dict.fromkeys(analyzer(text))) for name, analyzer in ANALYZERS.items()}


def query_codes(text: str) -> dict[str, IntArray]:
    """Distinct term codes per channel of a query text, ascending (the hot path; the same terms
    as above). Ascending codes give ascending term positions, so a query's postings are joined
    in index order and its scores summed in an order that does not depend on hashing."""
    return {name: np.asarray(sorted(set(analyzer(text))), dtype=np.int64)
            for name, analyzer in CODE_ANALYZERS.items()}


def window(index: SearchIndex, members: IntArray) -> WindowIndex:
    """A window over a channel's index (a window of a window reads the index underneath)."""
    if isinstance(index, WindowIndex):
        return WindowIndex(index.index, index.members[members])
    if not isinstance(index, BM25Index):
        raise TypeError(f"no chapter window over {type(index).__name__}")
    return WindowIndex(index, members)


CANDIDATES = TypeAdapter(list[Candidate])
"""Validates a search's candidates in one call: a hundred candidates with a hit per channel,
each built as its own model, cost a serving worker more CPU than ranking them."""


@dataclass
class Retriever:
    """Blocks and one BM25 index per channel; positions in `blocks` are the index's documents."""

    blocks: list[Block]
    indexes: Mapping[str, SearchIndex]
    costs: list[int] = field(default_factory=list, repr=False)
    """each block's estimated tokens (computed when not given)"""

    def __post_init__(self) -> None:
        self.position = {b.id: i for i, b in enumerate(self.blocks)}
        if not self.costs:
            self.costs = [estimate_tokens(b.display_text) for b in self.blocks]
        self._chapters: IntArray | None = None

    @classmethod
    def build(cls, blocks: Sequence[Block]) -> Retriever:
        """Both channels' indexes, built batch by batch (`retrieval.index_build`)."""
        simplified = [to_simplified(b.text) for b in blocks]
        indexes = {name: build_channel(simplified, postings)
                   for name, postings in CHANNEL_POSTINGS.items()}
        return cls(list(blocks), indexes)

    def subset(self, chapters: Iterable[int] | None) -> Retriever:
        """A retriever over the given chapters only, with their own BM25 statistics (N, df,
        avgdl), exactly as if built over their blocks; None = everything.

        Nothing is built: each channel's index is read through a window (`retrieval.window`),
        so a window costs about what a search costs, whatever chapters a caller asks for, and
        nothing is kept between calls (no cache to bound, lock or let go stale)."""
        if chapters is None:
            return self
        if self._chapters is None:
            self._chapters = np.fromiter((b.chapter for b in self.blocks), dtype=np.int64,
                                         count=len(self.blocks))
        wanted = np.asarray(sorted(set(chapters)), dtype=np.int64)
        members = np.flatnonzero(np.isin(self._chapters, wanted)).astype(np.int64)
        positions = members.tolist()
        return Retriever([self.blocks[i] for i in positions],
                         {name: window(index, members) for name, index in self.indexes.items()},
                         [self.costs[i] for i in positions])

    def rank(self, text: str, strategy: str = "rrf", depth: int = DEFAULT_DEPTH,
             rrf_k: int = K) -> Ranking:
        """Channel rankings and their fusion for a query text; no trace, no packing (hot path)."""
        used = list(self.indexes) if strategy == "rrf" else [strategy]
        codes = query_codes(text)
        channels, chosen = {}, []
        for name in used:
            index = self.indexes[name]
            docs, scores = index.top_for_ids(index.term_ids(codes[name]), depth)
            channels[name] = list(zip(docs.tolist(), scores.tolist(), strict=True))
            chosen.append(docs)
        fused = rrf_positions(chosen, k=rrf_k) if strategy == "rrf" else channels[strategy]
        return Ranking(channels, fused)

    def search(self, question: str, options: SearchOptions | None = None,
               expansions: Sequence[str] = ()) -> SearchTrace:
        """Rank, pack and explain: the whole trace of one search."""
        options = options or SearchOptions()
        started = time.perf_counter()
        ranking = self.rank(query_text(question, expansions), options.strategy, options.depth,
                            options.rrf_k)
        trace = self.explain_ranking(question, expansions, ranking, options)
        trace.elapsed_ms = (time.perf_counter() - started) * 1000
        return trace

    def explain_ranking(self, question: str, expansions: Sequence[str], ranking: Ranking,
                        options: SearchOptions, limit: int | None = None) -> SearchTrace:
        """The trace of a ranking already made (terms, channel ranks and scores, fusion, the
        packing of the lexical order), for its first `limit` candidates; nothing is ranked again."""
        terms = query_terms(query_text(question, expansions))
        ordered = [d for d, _ in ranking.fused]
        decisions = pack([self.costs[d] for d in ordered], options.budget, options.max_blocks,
                         options.policy)
        candidates = self._candidates(ranking, decisions, terms, options.explain, limit)
        packed = [self.blocks[d].id for d, decision in zip(ordered, decisions, strict=True)
                  if decision is Decision.SELECTED]
        chosen = set(packed)
        return SearchTrace(
            strategy=options.strategy, rrf_k=options.rrf_k, depth=options.depth,
            budget=options.budget, max_blocks=options.max_blocks, policy=options.policy.value,
            query=self._query_trace(question, expansions, terms), candidates=candidates,
            packed=packed,
            tokens_used=sum(self.costs[d] for d in ordered if self.blocks[d].id in chosen),
            elapsed_ms=0.0,
        )

    @property
    def n_docs(self) -> int:
        return len(self.blocks)

    def document_frequency(self, term: str) -> int:
        """Blocks holding an n-gram term (bigram or trigram of the simplified text)."""
        return self.indexes["ngram"].df(term)

    def _query_trace(self, question: str, expansions: Sequence[str],
                     terms: dict[str, list[str]]) -> QueryTrace:
        known = {n: [t for t, df in zip(ts, self.indexes[n].document_frequencies(ts), strict=True)
                     if df > 0] for n, ts in terms.items()}
        return QueryTrace(question=question, simplified=to_simplified(question),
                          cleaned=clean_query(question).strip(), expansions=list(expansions),
                          terms=terms, known_terms=known)

    def _candidates(self, ranking: Ranking, decisions: list[Decision],
                    terms: dict[str, list[str]], explain: bool, limit: int | None = None
                    ) -> list[Candidate]:
        fused = ranking.fused if limit is None else ranking.fused[:limit]
        shown = {d for d, _ in fused}
        positions = {name: {d: (r, s) for r, (d, s) in enumerate(hits, start=1)}
                     for name, hits in ranking.channels.items()}
        matched = {name: self.indexes[name].matched_terms_many(
                       terms[name], [d for d in ranks if d in shown])
                   for name, ranks in positions.items()}
        rows = []
        for fused_rank, ((doc, fused_score), decision) in enumerate(
                zip(fused, decisions, strict=False), start=1):
            hits = {}
            for name, ranks in positions.items():
                if doc in ranks:
                    rank, score = ranks[doc]
                    index = self.indexes[name]
                    hits[name] = {"rank": rank, "score": score,
                                  "matched_terms": matched[name][doc],
                                  "explanation": index.explain(terms[name], doc) if explain
                                  else None}
            block = self.blocks[doc]
            rows.append({"chunk_id": block.id, "chapter": block.chapter, "channels": hits,
                         "fused_score": fused_score, "fused_rank": fused_rank,
                         "tokens": self.costs[doc], "decision": decision})
        return CANDIDATES.validate_python(rows)
