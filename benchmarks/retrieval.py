"""`kbx bench retrieval`: our retriever beside bm25s and rank_bm25, measured the same way.

Every library gets the same blocks, the same tokens (our analyzers' terms of the simplified
text), the same queries (all of them, for every library) and the same top-k:

- **build**: each index built `builds` times from the same input, median reported. Ours is
  timed from the simplified texts (its vectorized analyzers are part of its build); the others
  from token lists, and the time our Python analyzers take to make those lists is reported
  beside them, so both ways of counting can be read.
- **one channel, top-k**: the n-gram channel (the larger vocabulary), top-`k` documents of each
  query: ours (`BM25Index.top_for_ids`, which sets a floor from its postings before choosing),
  bm25s `retrieve(k)`, and bm25s `get_scores` followed by our exact selection over a dense score
  vector (`retrieval.topk.top_of_dense`, the same order), rank_bm25 `get_scores` and the same.
- **fused pipeline**: ours (both channels' top-`depth`, RRF, packing) beside a baseline built
  from bm25s: its top-`depth` on each channel, then the same RRF and packing.
- **agreement**: share of queries whose top-10 (full score vectors, scores rounded to 4 places,
  ties by position) equals ours; and share of queries whose timed top-k is exactly the first k
  of our full score vector sorted (ties by position).

`scale` repeats the chapters with new numbers (`ingest.scale`) to see how build time, latency
and memory grow; the peak memory is that of a child process doing what `kbx ingest` does.
"""

from __future__ import annotations

import gc
import math
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.baselines import bm25s_index, lucene_okapi
from core.settings import Settings
from core.text import to_simplified
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import read_corpus
from ingest.scale import scaled_chapters
from retrieval.analyzers import ANALYZERS, ngram_terms
from retrieval.bm25 import BM25Index
from retrieval.fusion import rrf_positions
from retrieval.index_build import build_channel
from retrieval.packing import estimate_tokens, pack
from retrieval.retriever import DEFAULT_DEPTH, Retriever, SearchOptions, query_codes, query_text
from retrieval.topk import top_of_dense
from retrieval.vectorized import CHANNEL_POSTINGS

CHANNEL = "ngram"
"""The channel compared one to one (the larger vocabulary of the two)."""
TOP_K = 10


def sample_questions(blocks: Sequence[Block], n: int, seed: int = 7) -> list[str]:
    """Questions drawn from the corpus: a passage of 4-14 characters with a question frame."""
    rng = random.Random(seed)
    frames = ("{}是怎么回事？", "{}", "谁{}？", "{}后来怎样了", "为什么{}")
    questions: list[str] = []
    while len(questions) < n:
        block = rng.choice(blocks)
        start = rng.randrange(max(1, len(block.text) - 14))
        passage = to_simplified(block.text[start:start + rng.randint(4, 14)]).strip()
        if len(ngram_terms(query_text(passage))) >= 2:
            questions.append(rng.choice(frames).format(passage))
    return questions


def percentile(ordered: Sequence[float], share: float) -> float:
    """Nearest rank: the ⌈share·n⌉-th smallest value."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def latency(fn: Callable[[Any], object], items: Sequence[Any]) -> dict[str, float]:
    """Milliseconds per call over every item, after a warm-up pass over the first 20; the garbage
    collector is off while timing (as `timeit` does)."""
    for item in items[:20]:
        fn(item)
    gc.collect()
    gc.disable()
    try:
        times = []
        for item in items:
            started = time.perf_counter()
            fn(item)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        gc.enable()
    times.sort()
    return {"n": len(times), "p50_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99),
            "mean_ms": statistics.fmean(times)}


def median_seconds(build: Callable[[], object], repeat: int) -> dict[str, float]:
    """Median wall and CPU seconds of `repeat` builds (each result dropped before the next); the
    CPU time is what a shared machine disturbs least."""
    walls, cpus = [], []
    for _ in range(repeat):
        gc.collect()
        started, cpu = time.perf_counter(), time.process_time()
        result = build()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        del result
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus)}


def topk(scores: np.ndarray, k: int) -> np.ndarray:
    """The selection every library's dense scores get: ours over a dense vector
    (`retrieval.topk.top_of_dense`: positive scores, best first, ties by position, exactly)."""
    docs: np.ndarray = top_of_dense(scores, k)[0]
    return docs


def _top10(scores: np.ndarray) -> list[int]:
    """The ten best of a full score vector by a full sort, scores rounded to 4 places (bm25s
    scores in float32), ties by position."""
    rounded = np.round(scores.astype(np.float64), 4)
    order = np.lexsort((np.arange(len(rounded)), -rounded))
    return [int(i) for i in order[:10] if rounded[i] > 0]


def _exact_top(index: BM25Index, codes: np.ndarray, k: int) -> bool:
    """Whether the timed top-k (`top_for_ids`) is exactly the first k of every score sorted
    (unrounded, higher first, ties by position): its shortcuts change nothing."""
    ids = index.term_ids(codes)
    scores = index.scores_for_ids(ids)
    order = np.lexsort((np.arange(len(scores)), -scores))[:k]
    order = order[scores[order] > 0]
    docs, values = index.top_for_ids(ids, k)
    return bool(np.array_equal(docs, order) and np.array_equal(values, scores[order]))


def build_peak_mib(cfg: Settings, scale: int) -> float:
    """Peak resident memory (MiB) of a child process that reads the corpus, scales it, cuts the
    blocks, builds both indexes and saves the store: what `kbx ingest` does.

    The child reports its own high-water mark (`VmHWM`, which starts afresh at exec), not
    `ru_maxrss`: Linux carries that over from the forking process, so a child of this benchmark
    would report the benchmark's own peak whenever that is higher."""
    with tempfile.TemporaryDirectory(prefix="kbx-scale-") as tmp:
        command = [sys.executable, "-c",
                   "import sys; from benchmarks.retrieval import _ingest_child, _own_peak_kib; "
                   "_ingest_child(*sys.argv[1:]); print(_own_peak_kib())",
                   str(cfg.corpus), str(scale), str(cfg.chunk_size), tmp]
        done = subprocess.run(command, capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parent.parent)
    return int(done.stdout.split()[-1]) / 1024


def _own_peak_kib() -> int:
    """This process's peak resident memory (KiB) since it was exec'd."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _ingest_child(corpus: str, scale: str, chunk_size: str, out: str) -> None:
    from retrieval.corpus import Corpus, save_corpus

    chapters = scaled_chapters(read_corpus(Path(corpus)), int(scale))
    blocks = chunk_corpus(chapters, int(chunk_size))
    built = Corpus({c.number: c for c in chapters}, Retriever.build(blocks))
    save_corpus(built, Path(out) / "blocks", {"scale": int(scale)})


def run_benchmark(cfg: Settings, n_queries: int = 500, scale: int = 1, builds: int = 3,
                  k: int = TOP_K, depth: int = DEFAULT_DEPTH, peak: bool = True
                  ) -> dict[str, Any]:
    chapters = scaled_chapters(read_corpus(cfg.corpus), scale)
    blocks = chunk_corpus(chapters, cfg.chunk_size)
    simplified = [to_simplified(b.text) for b in blocks]
    questions = sample_questions(blocks, n_queries)
    texts = [query_text(q) for q in questions]

    ours = {name: build_channel(simplified, postings)
            for name, postings in CHANNEL_POSTINGS.items()}
    retriever = Retriever(blocks, ours)
    index = ours[CHANNEL]
    started, cpu = time.perf_counter(), time.process_time()
    doc_tokens = {name: [analyzer(s) for s in simplified] for name, analyzer in ANALYZERS.items()}
    tokenize_s = {"wall": (time.perf_counter() - started) / len(ANALYZERS),
                  "cpu": (time.process_time() - cpu) / len(ANALYZERS)}
    theirs = {name: bm25s_index(tokens, index.k1, index.b) for name, tokens in doc_tokens.items()}
    okapi = lucene_okapi(doc_tokens[CHANNEL], k1=index.k1, b=index.b)

    build = {
        "ours_from_text": median_seconds(
            lambda: build_channel(simplified, CHANNEL_POSTINGS[CHANNEL]), builds),
        "python_tokens": tokenize_s,
        "bm25s_from_tokens": median_seconds(lambda: bm25s_index(doc_tokens[CHANNEL], 1.2, 0.75),
                                            builds),
        "rank_bm25_from_tokens": median_seconds(
            lambda: lucene_okapi(doc_tokens[CHANNEL], k1=1.2, b=0.75), builds),
        "ours_both_channels_from_text": median_seconds(lambda: Retriever.build(blocks), builds),
    }

    query_tokens = [list(dict.fromkeys(ngram_terms(t))) for t in texts]
    codes = [query_codes(t)[CHANNEL] for t in texts]
    one = {
        "ours": latency(lambda c: index.top_for_ids(index.term_ids(c), k), codes),
        "bm25s_retrieve": latency(
            lambda toks: theirs[CHANNEL].retrieve([toks], k=k, show_progress=False,
                                                  n_threads=0) if toks else None,
            query_tokens),
        "bm25s_scores_topk": latency(lambda toks: topk(theirs[CHANNEL].get_scores(toks), k),
                                     query_tokens),
        "rank_bm25_scores_topk": latency(lambda toks: topk(okapi.get_scores(toks), k),
                                         query_tokens),
    }
    options = SearchOptions()

    def ours_fused(text: str) -> None:
        ranking = retriever.rank(text, depth=depth)
        pack([retriever.costs[d] for d, _ in ranking.fused], options.budget, options.max_blocks,
             options.policy)

    costs = [estimate_tokens(b.display_text) for b in blocks]

    def bm25s_fused(text: str) -> None:  # the query analyzed inside, as `rank` does
        tokens = {name: list(dict.fromkeys(analyzer(text))) for name, analyzer in ANALYZERS.items()}
        rankings = [topk(theirs[name].get_scores(toks), depth).tolist() if toks else []
                    for name, toks in tokens.items()]
        fused = rrf_positions(rankings)
        pack([costs[d] for d, _ in fused], options.budget, options.max_blocks, options.policy)

    fused = {"ours": latency(ours_fused, texts),
             "bm25s_topk_rrf": latency(bm25s_fused, texts),
             "ours_with_trace": latency(lambda q: retriever.search(q), questions[:100])}
    same_bm25s = same_rank = exact = 0
    for toks, query in zip(query_tokens, codes, strict=True):
        mine = _top10(index.scores(toks))
        same_bm25s += mine == _top10(theirs[CHANNEL].get_scores(toks))
        same_rank += mine == _top10(okapi.get_scores(toks))
        exact += _exact_top(index, query, k)
    report: dict[str, Any] = {
        "scale": scale, "chapters": len(chapters), "blocks": len(blocks),
        "characters": sum(len(c.text) for c in chapters), "queries": len(questions),
        "top_k": k, "depth": depth, "builds": builds, "channel": CHANNEL,
        "postings": {name: int(len(ix.posting_docs)) for name, ix in ours.items()},
        "terms": {name: ix.n_terms for name, ix in ours.items()},
        "build_s": build, "one_channel": one, "fused": fused,
        "top10_agreement": {"bm25s": same_bm25s / len(query_tokens),
                            "rank_bm25": same_rank / len(query_tokens)},
        "top_k_exact": exact / len(codes),
        "process_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    best_bm25s = min(one["bm25s_retrieve"]["p50_ms"], one["bm25s_scores_topk"]["p50_ms"])
    report["ratios"] = {
        "bm25s_p50_over_ours": best_bm25s / one["ours"]["p50_ms"],
        "rank_bm25_p50_over_ours": one["rank_bm25_scores_topk"]["p50_ms"] / one["ours"]["p50_ms"],
        "fused_baseline_p50_over_ours": fused["bm25s_topk_rrf"]["p50_ms"] / fused["ours"]["p50_ms"],
    }
    if peak:
        report["ingest_peak_mib"] = build_peak_mib(cfg, scale)
    return report


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"scale {report['scale']}×: {report['chapters']} chapters, "
                  f"{report['characters']:,} characters, {report['blocks']:,} blocks; "
                  f"{report['queries']} questions drawn from the corpus, the same for every "
                  f"library; top-{report['top_k']}; postings {report['postings']}",
                  highlight=False)
    build = report["build_s"]
    table = Table(title=f"index build, {report['channel']} channel (median of "
                        f"{report['builds']}, seconds)")
    for col in ("library", "from", "wall", "cpu"):
        table.add_column(col, justify="right")
    for name, source, key in (("ours", "simplified text", "ours_from_text"),
                              ("(our analyzers in Python)", "simplified text → tokens",
                               "python_tokens"),
                              ("bm25s", "tokens", "bm25s_from_tokens"),
                              ("rank_bm25", "tokens", "rank_bm25_from_tokens"),
                              ("ours, both channels", "simplified text",
                               "ours_both_channels_from_text")):
        table.add_row(name, source, f"{build[key]['wall']:.3f}", f"{build[key]['cpu']:.3f}")
    console.print(table)
    table = Table(title="latency per query (ms)")
    for col in ("what", "p50", "p99", "mean"):
        table.add_column(col, justify="right")
    rows = [(f"{report['channel']} top-{report['top_k']}: ours", report["one_channel"]["ours"]),
            ("  bm25s retrieve(k)", report["one_channel"]["bm25s_retrieve"]),
            ("  bm25s get_scores + same top-k", report["one_channel"]["bm25s_scores_topk"]),
            ("  rank_bm25 get_scores + same top-k", report["one_channel"]["rank_bm25_scores_topk"]),
            (f"two channels top-{report['depth']} + RRF + packing: ours", report["fused"]["ours"]),
            ("  baseline: bm25s top-k per channel + same RRF + packing",
             report["fused"]["bm25s_topk_rrf"]),
            ("  ours with the full trace", report["fused"]["ours_with_trace"])]
    for name, lat in rows:
        table.add_row(name, f"{lat['p50_ms']:.3f}", f"{lat['p99_ms']:.3f}", f"{lat['mean_ms']:.3f}")
    console.print(table)
    ratios, agree = report["ratios"], report["top10_agreement"]
    console.print(f"ratios (p50): best bm25s / ours = {ratios['bm25s_p50_over_ours']:.2f}×, "
                  f"rank_bm25 / ours = {ratios['rank_bm25_p50_over_ours']:.1f}×, fused baseline / "
                  f"ours = {ratios['fused_baseline_p50_over_ours']:.2f}×; top-10 agreement with "
                  f"ours: bm25s {agree['bm25s']:.0%}, rank_bm25 {agree['rank_bm25']:.0%}; our "
                  f"top-{report['top_k']} exactly the full sort's: {report['top_k_exact']:.0%}",
                  highlight=False)
    if "ingest_peak_mib" in report:
        console.print(f"ingest (read, scale, chunk, both indexes, save) peak memory: "
                      f"{report['ingest_peak_mib']:.0f} MiB", highlight=False)

