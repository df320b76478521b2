#!/usr/bin/env python3
"""CPU time of a search over the whole book against the same search over a chapter window, in
this process (CPU seconds, so the figure does not depend on what else the machine runs).

    .venv/bin/python scripts/window_cost.py            # KBX_DATA_DIR's ingested store

Each dev question is searched over the whole book, then over 16 windows of 30–80 chapters;
the window is made per search (`Retriever.subset`, as /search does), nothing kept between.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.settings import Settings  # noqa: E402
from retrieval.corpus import open_corpus  # noqa: E402

QUESTIONS = REPO / "eval" / "questions" / "dev_book.jsonl"


def cpu_ms(work) -> float:  # type: ignore[no-untyped-def]
    began = time.process_time()
    work()
    return (time.process_time() - began) * 1000


def main() -> None:
    cfg = Settings()
    corpus = open_corpus(cfg.resolved_data_dir(), cfg.corpus_name, cfg.corpus, cfg.chunk_size)
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text("utf-8").splitlines()
                 if line.strip()]
    windows = [range(a, a + 30 + (13 * i) % 51) for i, a in
               enumerate(1 + (7 * i) % 40 for i in range(16))]
    retriever = corpus.retriever
    for question in questions[:5]:  # warm
        retriever.search(question)
        retriever.subset(windows[0]).search(question)
    plain = [cpu_ms(lambda q=q: retriever.search(q)) for q in questions]
    windowed = [cpu_ms(lambda q=q, w=w: retriever.subset(w).search(q))
                for q in questions for w in windows]
    making = [cpu_ms(lambda w=w: retriever.subset(w)) for w in windows for _ in range(10)]
    print(json.dumps({
        "questions": len(questions), "windows": len(windows),
        "plain_search_cpu_ms": {"mean": round(statistics.fmean(plain), 2),
                                "p50": round(statistics.median(plain), 2)},
        "window_search_cpu_ms": {"mean": round(statistics.fmean(windowed), 2),
                                 "p50": round(statistics.median(windowed), 2),
                                 "max": round(max(windowed), 2)},
        "making_a_window_cpu_ms": {"mean": round(statistics.fmean(making), 3)},
    }))


if __name__ == "__main__":
    main()
