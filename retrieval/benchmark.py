"""`kbx bench retrieval`: our retriever beside rank_bm25 and bm25s on the same tokens, whole book."""

from __future__ import annotations

import logging
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from core.settings import Settings
from core.text import to_simplified
from ingest.corpus import read_corpus
from retrieval.analyzers import ngram_terms
from retrieval.corpus import build_corpus
from retrieval.packing import pack
from retrieval.retriever import Retriever, SearchOptions, query_text

CHANNEL = "ngram"
"""The channel compared against the other libraries (the larger vocabulary of the two)."""


def sample_questions(retriever: Retriever, n: int, seed: int = 7) -> list[str]:
    """Questions drawn from the corpus: a passage of 4-14 characters with a question frame."""
    rng = random.Random(seed)
    frames = ("{}是怎么回事？", "{}", "谁{}？", "{}后来怎样了", "为什么{}")
    questions: list[str] = []
    while len(questions) < n:
        block = rng.choice(retriever.blocks)
        start = rng.randrange(max(1, len(block.text) - 14))
        passage = to_simplified(block.text[start:start + rng.randint(4, 14)]).strip()
        if len(ngram_terms(query_text(passage))) >= 2:
            questions.append(rng.choice(frames).format(passage))
    return questions


def _latency(fn: Callable[[Any], object], items: Sequence[Any]) -> dict[str, float]:
    for item in items[:20]:  # warm-up
        fn(item)
    times = []
    for item in items:
        started = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return {"p50_ms": statistics.median(times),
            "p99_ms": times[min(len(times) - 1, math.ceil(len(times) * 0.99) - 1)],
            "mean_ms": statistics.fmean(times)}


def _time_build(blocks: Sequence[Any], repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        started = time.perf_counter()
        Retriever.build(blocks)
        best = min(best, time.perf_counter() - started)
    return best * 1000


def run_benchmark(cfg: Settings, n_queries: int = 500) -> dict[str, Any]:
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every build at DEBUG

    corpus = build_corpus(read_corpus(cfg.corpus), cfg.chunk_size)
    retriever = corpus.retriever
    questions = sample_questions(retriever, n_queries)
    texts = [query_text(q) for q in questions]
    options = SearchOptions()

    def hot_path(text: str) -> None:
        ranking = retriever.rank(text)
        pack([retriever.costs[d] for d, _ in ranking.fused], options.budget, options.max_blocks,
             options.policy)

    index = retriever.indexes[CHANNEL]
    simplified = [to_simplified(b.text) for b in retriever.blocks]
    doc_tokens = [ngram_terms(s) for s in simplified]
    query_tokens = [list(dict.fromkeys(ngram_terms(t))) for t in texts]
    started = time.perf_counter()
    theirs = bm25s.BM25(method="lucene", k1=index.k1, b=index.b)
    theirs.index(doc_tokens, show_progress=False)
    bm25s_build = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    okapi = LuceneOkapi(doc_tokens, k1=index.k1, b=index.b)
    rank_bm25_build = (time.perf_counter() - started) * 1000

    ours = _latency(lambda toks: index.scores(toks), query_tokens)
    other = _latency(lambda toks: theirs.get_scores(toks), query_tokens)
    slow = _latency(lambda toks: okapi.get_scores(toks), query_tokens[:100])
    agreement = top10_agreement(index, theirs, okapi, query_tokens[:100])
    report: dict[str, Any] = {
        "blocks": len(retriever.blocks), "queries": len(questions),
        "index_build_ms": _time_build(retriever.blocks),
        "search_fusion_packing": _latency(hot_path, texts),
        "search_with_trace": _latency(lambda q: retriever.search(q), questions[:100]),
        "one_channel_scoring": {"channel": CHANNEL, "ours": ours, "bm25s": other,
                                "rank_bm25": slow},
        "library_build_ms": {"bm25s": bm25s_build, "rank_bm25": rank_bm25_build},
        "top10_agreement": agreement,
    }
    report["ratios"] = {
        "bm25s_p50_over_ours": other["p50_ms"] / ours["p50_ms"],
        "rank_bm25_p50_over_ours": slow["p50_ms"] / ours["p50_ms"],
    }
    return report


class LuceneOkapi:
    """rank_bm25's BM25Okapi with Lucene's idf and without the (k1+1) factor, as we score."""

    def __new__(cls, corpus: list[list[str]], k1: float, b: float) -> Any:
        from rank_bm25 import BM25Okapi

        class _Lucene(BM25Okapi):  # type: ignore[misc]
            def _calc_idf(self, nd: dict[str, int]) -> None:
                self.idf = {w: math.log(1 + (self.corpus_size - f + 0.5) / (f + 0.5))
                            for w, f in nd.items()}

            def get_scores(self, query: list[str]) -> np.ndarray:
                return super().get_scores(query) / (self.k1 + 1)  # type: ignore[no-any-return]

        return _Lucene(corpus, k1=k1, b=b, epsilon=0)


def top10_agreement(index: Any, theirs: Any, okapi: Any, queries: list[list[str]]) -> dict[str, float]:
    """Share of queries whose top-10 documents (by score, ties broken alike) match ours."""
    same_bm25s = same_rank = 0
    for toks in queries:
        ours = index.scores(toks)
        mine = _top10(ours)
        same_bm25s += mine == _top10(theirs.get_scores(toks))
        same_rank += mine == _top10(okapi.get_scores(toks))
    n = max(1, len(queries))
    return {"bm25s": same_bm25s / n, "rank_bm25": same_rank / n}


def _top10(scores: np.ndarray) -> list[int]:
    rounded = np.round(scores.astype(np.float64), 4)
    order = np.lexsort((np.arange(len(rounded)), -rounded))
    return [int(i) for i in order[:10] if rounded[i] > 0]


def print_report(report: dict[str, Any]) -> None:
    console = Console()
    console.print(f"whole book: {report['blocks']} blocks, {report['queries']} questions drawn "
                  f"from the corpus; index built in {report['index_build_ms']:.0f} ms (both channels)")
    table = Table(title="latency (ms)")
    for col in ("what", "p50", "p99", "mean"):
        table.add_column(col, justify="right")
    rows = [("two channels + RRF + packing", report["search_fusion_packing"]),
            ("the same with the full trace", report["search_with_trace"])]
    scoring = report["one_channel_scoring"]
    rows += [(f"{scoring['channel']} scoring: ours", scoring["ours"]),
             (f"{scoring['channel']} scoring: bm25s", scoring["bm25s"]),
             (f"{scoring['channel']} scoring: rank_bm25", scoring["rank_bm25"])]
    for name, lat in rows:
        table.add_row(name, f"{lat['p50_ms']:.3f}", f"{lat['p99_ms']:.3f}", f"{lat['mean_ms']:.3f}")
    console.print(table)
    ratios, agree = report["ratios"], report["top10_agreement"]
    console.print(f"ratios (p50): bm25s / ours = {ratios['bm25s_p50_over_ours']:.2f}×, "
                  f"rank_bm25 / ours = {ratios['rank_bm25_p50_over_ours']:.1f}×")
    console.print(f"top-10 agreement with ours: bm25s {agree['bm25s']:.0%}, "
                  f"rank_bm25 {agree['rank_bm25']:.0%}")
