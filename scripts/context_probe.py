"""Can any cut or re-ranking of the `kb` candidates reach all-core ≥ 0.90 with an irrelevant
share ≤ 0.50 (issue 10's context bar)? Two probes over the first 20 candidates of each
answerable question:

- **origins**: how often a block that a knowledge record points to is core, against a block the
  lexical channels alone brought;
- **learned cut**: a logistic model on the candidate's features (its rank, both channels' score
  shares and ranks, pointed or not and by how many plan records, the rank of the knowledge hit
  that points to it, the share of the question's focus bigrams and characters it holds, the best
  80-character window's share, the plan's kind) fitted on one question file and applied to
  another: blocks are packed best first while the model's probability is at least the threshold
  (one block at least), and all-core and the irrelevant share are reported per threshold.

    .venv/bin/python scripts/context_probe.py \\
        --train eval/questions/dev_book.jsonl --test eval/questions/dev_ch7_11.jsonl:7-11
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cli.common import load_corpus_for, settings
from core.text import to_simplified
from ingest.corpus import parse_chapter_range
from kb.answering.evidence import EvidencePipeline
from kb.knowledge.loading import load_active_bundle
from providers.memory import MemoryProvider
from retrieval.evaluation import covers, label
from retrieval.questions import load_questions
from retrieval.retriever import SearchOptions

CANDIDATES = 20
KINDS = ("pair", "journey", "open")


@dataclass
class Question:
    labels: list[str]
    features: list[list[float]]
    pointed: list[bool]
    covered: list[list[bool]]  # per core quote: which candidates cover it


def _shares(bigrams: list[str], chars: set[str], text: str) -> tuple[float, float, float]:
    whole = sum(b in text for b in bigrams) / len(bigrams) if bigrams else 0.0
    char = sum(c in text for c in chars) / len(chars) if chars else 0.0
    window = max((sum(b in text[s:s + 80] for b in bigrams) / len(bigrams)
                  for s in range(0, max(1, len(text) - 60), 20)), default=0.0) if bigrams else 0.0
    return whole, char, window


def collect(spec: str) -> list[Question]:
    path, _, chapters = spec.partition(":")
    cfg = settings()
    corpus = load_corpus_for(cfg)
    retriever = corpus.retriever.subset(parse_chapter_range(chapters or None))
    bundle = load_active_bundle(cfg, corpus.blocks)
    provider = MemoryProvider()
    provider.load(bundle)
    titles = {n: c.title for n, c in corpus.chapters.items()}
    pipeline = EvidencePipeline(provider, bundle, cfg.knowledge_budget, cfg.query_expansion,
                                titles, lexical_cut=0.0)
    blocks = {b.id: b for b in corpus.blocks}
    out = []
    for q in load_questions(Path(path), corpus.chapters):
        if not q.question.answerable:
            continue
        g = pipeline.gather(q.question.question, retriever, SearchOptions(budget=10**6, max_blocks=None))
        assert g.lexical is not None
        share: dict[tuple[str, str], tuple[float, int]] = {}
        for name, hits in g.lexical.channels.items():
            top = hits[0][1] if hits and hits[0][1] > 0 else 1.0
            for rank, (doc, score) in enumerate(hits):
                share[(name, retriever.blocks[doc].id)] = (score / top, rank)
        hit_rank: dict[str, int] = {}
        for i, h in enumerate(g.knowledge):
            for ref in getattr(h.record, "sources", []):
                hit_rank.setdefault(ref.chunk_id, i)
        pointing = Counter(ref.chunk_id for r in g.plan_records for ref in getattr(r, "sources", []))
        focus = [to_simplified(f) for f in g.plan.focus]
        bigrams = [f[i:i + 2] for f in focus for i in range(max(1, len(f) - 1))]
        chars = set("".join(focus))
        question = Question([], [], [], [[] for _ in q.core])
        for position, chunk_id in enumerate(g.ranking[:CANDIDATES]):
            block = blocks[chunk_id]
            text = to_simplified(corpus.chapters[block.chapter].text[block.start:block.end])
            ngram, ngram_rank = share.get(("ngram", chunk_id), (0.0, 999))
            unigram, unigram_rank = share.get(("unigram", chunk_id), (0.0, 999))
            pointed = g.origins.get(chunk_id, "lexical") != "lexical"
            question.features.append([
                1.0, 1 / (1 + position), ngram, unigram, 1 / (1 + ngram_rank), 1 / (1 + unigram_rank),
                float(pointed), min(pointing[chunk_id], 5) / 5, 1 / (1 + hit_rank.get(chunk_id, 99)),
                *_shares(bigrams, chars, text), *(float(g.plan.kind == k) for k in KINDS)])
            question.labels.append(label(block, q))
            question.pointed.append(pointed)
            for i, span in enumerate(q.core):
                question.covered[i].append(covers(block, span))
        out.append(question)
    return out


def fit(questions: list[Question]) -> np.ndarray:
    x = np.array([f for q in questions for f in q.features])
    y = np.array([lab == "core" for q in questions for lab in q.labels], dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(4000):  # plain gradient descent: a few hundred rows, a dozen features
        p = 1 / (1 + np.exp(-x @ w))
        w -= x.T @ (p - y) / len(y) + 1e-3 * w
    return w


def cut(questions: list[Question], w: np.ndarray, threshold: float) -> tuple[float, float, float]:
    packed = irrelevant = all_core = 0
    for q in questions:
        p = [1 / (1 + math.exp(-float(np.dot(w, f)))) for f in q.features]
        order = sorted(range(len(p)), key=lambda i: -p[i])
        take = [i for i in order if p[i] >= threshold][:12] or order[:1]
        packed += len(take)
        irrelevant += sum(q.labels[i] == "irrelevant" for i in take)
        all_core += all(any(c[i] for i in take) for c in q.covered)
    return all_core / len(questions), irrelevant / packed, packed / len(questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", required=True, help="question file[:chapters]")
    parser.add_argument("--test", required=True, help="question file[:chapters]")
    args = parser.parse_args()
    train, test = collect(args.train), collect(args.test)
    for name, questions in (("train", train), ("test", test)):
        counts = Counter((pointed, lab == "core") for q in questions
                         for pointed, lab in zip(q.pointed[:12], q.labels[:12], strict=True))
        for pointed in (True, False):
            n = counts[(pointed, True)] + counts[(pointed, False)]
            print(f"{name}: {'record-pointed' if pointed else 'lexical only':14} blocks among the "
                  f"first 12: {counts[(pointed, True)]}/{n} core")
    w = fit(train)
    print("threshold  all-core  irrelevant  blocks   (model fitted on --train, applied to --test)")
    for threshold in (0.05, 0.1, 0.15, 0.2, 0.3, 0.5):
        all_core, irrelevant, blocks = cut(test, w, threshold)
        print(f"{threshold:9.2f}  {all_core:8.3f}  {irrelevant:10.3f}  {blocks:6.1f}")


if __name__ == "__main__":
    main()
