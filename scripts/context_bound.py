"""How low can the irrelevant share go on the `kb` evidence order? For each answerable question,
the shortest prefix of the ranking that covers every core quote; the cheapest `--share` of the
questions (0.9: the all-core bar) are packed exactly that prefix (a perfect per-question cut),
the rest one block each. The irrelevant share of that packing is a floor no cut of this order
can beat: below it only a better ranking helps.

    .venv/bin/python scripts/context_bound.py eval/questions/dev_ch7_11.jsonl --chapters 7-11
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from cli.common import load_corpus_for, settings
from ingest.corpus import parse_chapter_range
from kb.answering.eval_strategy import kb_strategy
from kb.knowledge.loading import load_active_bundle
from providers.memory import MemoryProvider
from retrieval.evaluation import covers, label
from retrieval.questions import load_questions
from retrieval.retriever import SearchOptions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("--chapters", default=None)
    parser.add_argument("--share", type=float, default=0.9)
    args = parser.parse_args()
    cfg = settings()
    corpus = load_corpus_for(cfg)
    retriever = corpus.retriever.subset(parse_chapter_range(args.chapters))
    bundle = load_active_bundle(cfg, corpus.blocks)
    provider = MemoryProvider()
    provider.load(bundle)
    titles = {n: c.title for n, c in corpus.chapters.items()}
    run = kb_strategy(bundle, provider, titles, retriever, cfg,
                      SearchOptions(budget=10**6, max_blocks=None), lexical_cut=0.0)
    blocks = {b.id: b for b in corpus.blocks}
    rows: list[tuple[int, int]] = []  # (blocks needed, irrelevant among them)
    for q in load_questions(args.questions, corpus.chapters):
        if not q.question.answerable:
            continue
        ranking = run(q).ranking
        positions = [min((i for i, c in enumerate(ranking) if covers(blocks[c], span)),
                         default=None) for span in q.core]
        if any(p is None for p in positions):
            rows.append((10**6, 1))
            continue
        need = max(p for p in positions if p is not None) + 1
        rows.append((need, sum(label(blocks[c], q) == "irrelevant" for c in ranking[:need])))
    rows.sort()
    kept = math.ceil(args.share * len(rows))
    packed = sum(n for n, _ in rows[:kept]) + (len(rows) - kept)
    irrelevant = sum(i for _, i in rows[:kept]) + (len(rows) - kept)
    print(f"{args.questions.name}: {len(rows)} answerable; all-core {kept}/{len(rows)} with a "
          f"perfect cut → irrelevant share ≥ {irrelevant / packed:.3f} "
          f"({packed / len(rows):.1f} blocks a question)")


if __name__ == "__main__":
    main()
