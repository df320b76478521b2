#!/usr/bin/env python3
"""Regenerate every figure README.md quotes from today's runs, with the project's own commands.

    .venv/bin/python scripts/figures.py             # run everything (a few minutes), write
                                                    # docs/figures.json, README's block, docs/figures.md
    .venv/bin/python scripts/figures.py --no-bench  # the evaluations only (keeps the last bench figures)
    .venv/bin/python scripts/figures.py --render    # rewrite both blocks from docs/figures.json
    .venv/bin/python scripts/figures.py --check     # exit 1 when a block is not docs/figures.json's

The runs use a data directory of their own (a temporary one; `--data-dir` to keep it): the whole
book ingested, the curated bundle (the default graph before any extraction) loaded into the
embedded FalkorDB on a free port, then `kbx eval` for each question set and strategy,
`kbx eval --answers`, `kbx kb eval` and `kbx bench retrieval|kb|ask`, each with `--json`.
tests/test_figures.py holds README's block to docs/figures.json, and the tests' floors (answers
stated, hit@3 …) read their figures from it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import (  # noqa: E402
    ANSWER_SETS,
    RETRIEVAL_SETS,
    STRATEGIES,
    block_of,
    read_figures,
    render_all,
    render_key,
    with_block,
)

FIGURES = ROOT / "docs" / "figures.json"
README = ROOT / "README.md"
DOC = ROOT / "docs" / "figures.md"
KBX = ROOT / ".venv" / "bin" / "kbx"
QUESTIONS = "eval/questions"
CHAPTERS = {"dev_ch7_11": "7-11"}
"""Sets evaluated on their own chapters' index, as their README figures always were."""


class Runner:
    """`kbx … --json` in the figures' data directory; every command kept for the record."""

    def __init__(self, data_dir: Path) -> None:
        self.env = {**os.environ, "KBX_DATA_DIR": str(data_dir), "KBX_LOG_LEVEL": "WARNING"}
        for name in ("FALKORDB_URL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "KBX_PROVIDER",
                     "KBX_BUNDLE", "KBX_CORPUS_NAME"):
            self.env.pop(name, None)  # the defaults: embedded store, offline, curated bundle
        self.commands: list[str] = []

    def __call__(self, *args: str, json_out: bool = True) -> Any:
        argv = [str(KBX), *args, *(["--json"] if json_out else [])]
        self.commands.append("kbx " + shlex.join(argv[1:]))
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT, env=self.env, capture_output=True, text=True)
        print(f"  {time.perf_counter() - started:6.1f} s  {self.commands[-1]}", file=sys.stderr)
        if done.returncode != 0:
            raise SystemExit(f"{self.commands[-1]} failed ({done.returncode}):\n{done.stderr}")
        return json.loads(done.stdout) if json_out else done.stdout


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "per_question"}


def run_evaluations(kbx: Runner) -> dict[str, Any]:
    retrieval: dict[str, Any] = {}
    for name in RETRIEVAL_SETS:
        chapters = ["--chapters", CHAPTERS[name]] if name in CHAPTERS else []
        retrieval[name] = {s: _summary(kbx("eval", "--questions", f"{QUESTIONS}/{name}.jsonl",
                                           "--strategy", s, *chapters)) for s in STRATEGIES}
    answers = {name: _summary(kbx("eval", "--answers", "--questions", f"{QUESTIONS}/{name}.jsonl"))
               for name in ANSWER_SETS}
    kb = kbx("kb", "eval", "--provider", "memory", "--pairs", "eval/kb/pairs_dev.jsonl",
             "--journeys", "eval/kb/journeys_dev.jsonl")["summary"]
    knowledge = {"pairs": kb["pairs"], "pairs_right": kb["pairs_right"],
                 "key_stages": kb["key_stages"],
                 "key_stages_found": round(kb["key_stage_recall"] * kb["key_stages"]),
                 "key_stage_recall": kb["key_stage_recall"]}
    return {"retrieval": retrieval, "answers": answers, "knowledge": knowledge}


def run_benchmarks(kbx: Runner) -> dict[str, Any]:
    r = kbx("bench", "retrieval", "--no-peak")
    kb = kbx("bench", "kb", "--samples", "2000", "--runs", "1")
    ask = kbx("bench", "ask")
    pair = {b["backend"]: b["runs"][0]["pair"] for b in kb["backends"]}
    return {
        "retrieval": {"fused_p50_ms": r["fused"]["ours"]["p50_ms"],
                      "fused_p99_ms": r["fused"]["ours"]["p99_ms"],
                      "fused_bm25s_p50_ms": r["fused"]["bm25s_topk_rrf"]["p50_ms"],
                      "fused_bm25s_p99_ms": r["fused"]["bm25s_topk_rrf"]["p99_ms"],
                      "channel_p50_ms": r["one_channel"]["ours"]["p50_ms"],
                      "channel_p99_ms": r["one_channel"]["ours"]["p99_ms"],
                      "channel_bm25s_p50_ms": r["one_channel"]["bm25s_scores_topk"]["p50_ms"],
                      "channel_rank_bm25_p50_ms": r["one_channel"]["rank_bm25_scores_topk"]["p50_ms"],
                      "queries": r["queries"], "blocks": r["blocks"]},
        "kb": {"falkordb_pair_p50_ms": pair["falkordb"]["p50_ms"],
               "falkordb_pair_p99_ms": pair["falkordb"]["p99_ms"],
               "memory_pair_p50_ms": pair["memory"]["p50_ms"],
               "memory_pair_p99_ms": pair["memory"]["p99_ms"], "samples": kb["samples"]},
        "ask": {key: ask[key] for key in ("p50_ms", "p99_ms", "cpu_p50_ms", "cpu_p99_ms",
                                          "questions", "runs")},
    }


def _commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return head + ("+" if dirty else "")


def measure(data_dir: Path, bench: bool, previous: dict[str, Any] | None) -> dict[str, Any]:
    kbx = Runner(data_dir)
    load = list(os.getloadavg())
    kbx("ingest", json_out=False)
    kbx("kb", "load")
    figures: dict[str, Any] = run_evaluations(kbx)
    if bench:
        started = {"commit": _commit(), "date": time.strftime("%Y-%m-%d"),
                   "load_average": list(os.getloadavg())}
        figures["bench"] = {**run_benchmarks(kbx), "measured": started}
    elif previous and "bench" in previous:  # kept, with when and where it was measured
        figures["bench"] = {"measured": {k: previous["measured"][k]
                                         for k in ("commit", "date", "load_average")},
                            **previous["bench"]}  # (a bench's own "measured", when it has one)
    figures = {"measured": {"date": time.strftime("%Y-%m-%d"), "commit": _commit(),
                            "machine": f"{os.cpu_count()} cores", "load_average": load,
                            "command": "python scripts/figures.py" + ("" if bench else " --no-bench"),
                            "commands": kbx.commands}, **figures}
    return figures


def write_blocks(figures: dict[str, Any]) -> None:
    README.write_text(with_block(README.read_text(encoding="utf-8"), render_key(figures)),
                      encoding="utf-8")
    DOC.write_text(with_block(DOC.read_text(encoding="utf-8"), render_all(figures)),
                   encoding="utf-8")


def check() -> int:
    figures = read_figures(FIGURES)
    stale = [path.name for path, render in ((README, render_key), (DOC, render_all))
             if block_of(path.read_text(encoding="utf-8")) != render(figures)]
    if stale:
        print(f"figures out of date in {', '.join(stale)}: python scripts/figures.py --render "
              f"(or run it again)", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--render", action="store_true")
    parser.add_argument("--no-bench", action="store_true")
    parser.add_argument("--data-dir", type=Path)
    args = parser.parse_args()
    if args.check:
        return check()
    if not args.render:
        previous = read_figures(FIGURES) if FIGURES.exists() else None
        with tempfile.TemporaryDirectory(prefix="kbx-figures-") as tmp:
            data_dir = args.data_dir or Path(tmp)
            try:
                figures = measure(data_dir, not args.no_bench, previous)
            finally:
                subprocess.run([sys.executable, "-c", "from pathlib import Path; "
                                "from providers.embedded import EmbeddedServer; "
                                f"EmbeddedServer(Path({str(data_dir / 'falkordb')!r})).stop(force=True)"],
                               cwd=ROOT, check=False)
        FIGURES.write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n",
                           encoding="utf-8")
    write_blocks(read_figures(FIGURES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
