"""The figures README.md and docs/figures.md quote, rendered from one file of today's runs.

`scripts/figures.py` runs the evaluations and benchmarks (the project's own `kbx eval`,
`kbx kb eval`, `kbx bench` commands) and writes `docs/figures.json`; everything below only reads
that file. README.md holds the key figures between two markers and docs/figures.md all of them;
both blocks are exactly `render_key` and `render_all` of the file, which a test checks, so a
figure in the README can no longer disagree with another place or with the run it came from
(the `kb` strategy's whole-book hit@3 was given three ways in three places).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

BEGIN = "<!-- figures:begin (scripts/figures.py writes this block from docs/figures.json) -->"
END = "<!-- figures:end -->"
RETRIEVAL_SETS = ("dev_ch7_11", "dev_book", "dev3_book", "heldout_book")
"""Question sets whose retrieval figures are run again every time. The held-out sets measured
once (heldout2_book) or not yet (heldout3_book) are not: a figure regenerated at every change
would be a figure tuned against."""
STRATEGIES = ("rrf", "ngram", "unigram", "kb")
ANSWER_SETS = ("answers_dev", "dev_ch7_11", "dev_book", "dev3_book")
METRICS = (("hit@1", "hit@1"), ("hit@3", "hit@3"), ("hit@5", "hit@5"), ("mrr@10", "mrr@10"),
           ("any core", "context_any_core"), ("all core", "context_all_core"),
           ("irrelevant", "irrelevant_share"))


KEY_METRICS = ("hit@3", "mrr@10", "context_all_core", "irrelevant_share")


def read_figures(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> list[str]:
    header = list(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def _f(value: float) -> str:
    return f"{value:.3f}"


def _n(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:g}"


def _measured(figures: Mapping[str, Any]) -> str:
    m = figures["measured"]
    load = ", ".join(f"{x:.2f}" for x in m["load_average"])
    return (f"Measured {m['date']} on commit {m['commit']} ({m['machine']}, load average {load} "
            f"at the start) by `{m['command']}`.")


def _answers_row(name: str, s: Mapping[str, Any]) -> list[object]:
    n = s["answerable"]
    return [name, f"{s['states_answer']}/{n} ({s['states_answer_share']:.3f})", f"{s['in_lead']}/{n}",
            f"{s['answerable_refused']}", f"{s['unanswerable_refused']}/{s['unanswerable']}",
            f"{s['quotes_located']}/{s['quotes']}"]


ANSWER_HEADER = ("set", "states the answer", "in the lead", "answerable refused",
                 "unanswerable refused", "quotes located")


def _knowledge(figures: Mapping[str, Any]) -> list[str]:
    k = figures["knowledge"]
    return [f"Pairs right (`kbx kb eval --pairs eval/kb/pairs_dev.jsonl`): **{k['pairs_right']} / "
            f"{k['pairs']}**; journeys' key stages found (`--journeys eval/kb/journeys_dev.jsonl`): "
            f"**{k['key_stages_found']} / {k['key_stages']} = {k['key_stage_recall']:.3f}**."]


def _bench(figures: Mapping[str, Any]) -> list[str]:
    b = figures.get("bench")
    if not b:
        return []
    r, kb, ask = b["retrieval"], b["kb"], b["ask"]
    return _table(("benchmark", "p50 ms", "p99 ms", "beside"), [
        ["two channels + RRF + packing (`kbx bench retrieval`)", _f(r["fused_p50_ms"]),
         _f(r["fused_p99_ms"]), f"bm25s's top-k + the same RRF: {_f(r['fused_bm25s_p50_ms'])} / "
                                f"{_f(r['fused_bm25s_p99_ms'])}"],
        ["one channel's top-10 (ours)", _f(r["channel_p50_ms"]), _f(r["channel_p99_ms"]),
         f"bm25s {_f(r['channel_bm25s_p50_ms'])}, rank_bm25 {_f(r['channel_rank_bm25_p50_ms'])} "
         f"(p50)"],
        ["pair, FalkorDB embedded (`kbx bench kb`)", _f(kb["falkordb_pair_p50_ms"]),
         _f(kb["falkordb_pair_p99_ms"]), f"networkx {_f(kb['memory_pair_p50_ms'])} / "
                                         f"{_f(kb['memory_pair_p99_ms'])}"],
        ["offline `/ask` through FalkorDB (`kbx bench ask`)", _f(ask["p50_ms"]), _f(ask["p99_ms"]),
         f"CPU {_f(ask['cpu_p50_ms'])} / {_f(ask['cpu_p99_ms'])}; {ask['runs']:,} runs of "
         f"{ask['questions']} questions"],
    ]) + ["", f"Timings are wall time on a shared 2-core machine, measured {_when(b['measured'])}: "
              "they move with its load; docs/performance.md has the speed targets and their "
              "history."]


def _when(measured: Mapping[str, Any]) -> str:
    load = ", ".join(f"{x:.2f}" for x in measured["load_average"])
    return f"{measured['date']} on commit {measured['commit']} at load average {load}"


def render_key(figures: Mapping[str, Any]) -> str:
    """README's block: the `kb` and `rrf` strategies on each set, the answers, pairs, speed."""
    retrieval = figures["retrieval"]
    rows = [[name, strategy, *(_f(retrieval[name][strategy][key]) for key in KEY_METRICS)]
            for name in RETRIEVAL_SETS if name in retrieval for strategy in ("rrf", "kb")]
    lines = [_measured(figures), "",
             *_table(("set (`kbx eval`)", "strategy", "hit@3", "mrr@10", "all core", "irrelevant"),
                     rows),
             "", *_table(ANSWER_HEADER, [_answers_row(name, figures["answers"][name])
                                         for name in ANSWER_SETS if name in figures["answers"]]),
             "", *_knowledge(figures)]
    bench = _bench(figures)
    return "\n".join([*lines, *([""] + bench if bench else [])])


def render_all(figures: Mapping[str, Any]) -> str:
    """docs/figures.md's block: every strategy and measure, with the commands."""
    retrieval = figures["retrieval"]
    lines = [_measured(figures), ""]
    for name in RETRIEVAL_SETS:
        if name not in retrieval:
            continue
        first = retrieval[name][STRATEGIES[0]]
        scope = f"chapters {first['chapters'][0]}–{first['chapters'][-1]}" if first["chapters"] else \
            "the whole book"
        lines += [f"**{name}** ({first['answerable']} answerable of {first['questions']}, {scope}; "
                  f"budget {_n(first['budget'])}, at most {first['max_blocks']} blocks, policy "
                  f"{first['policy']}):", "",
                  *_table(("strategy", *(h for h, _ in METRICS), "avg blocks"),
                          [[s, *(_f(retrieval[name][s][key]) for _, key in METRICS),
                            f"{retrieval[name][s]['avg_blocks']:.2f}"] for s in STRATEGIES]), ""]
    lines += ["**Offline answers** (`kbx eval --answers`):", "",
              *_table(ANSWER_HEADER, [_answers_row(name, figures["answers"][name])
                                      for name in ANSWER_SETS if name in figures["answers"]]),
              "", *_knowledge(figures)]
    bench = _bench(figures)
    lines += ["", *bench] if bench else []
    lines += ["", "The commands, in the order they ran:", "", "```",
              *figures["measured"]["commands"], "```"]
    return "\n".join(lines)


_BLOCK = re.compile(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), re.S)


def block_of(text: str) -> str | None:
    """The figures block of a Markdown file, or None when it has none."""
    match = _BLOCK.search(text)
    return match.group(1).removesuffix("\n") if match else None


def with_block(text: str, block: str) -> str:
    """The file's text with its figures block replaced by `block` (ValueError: no markers)."""
    if _BLOCK.search(text) is None:
        raise ValueError(f"no figures block ({BEGIN} … {END})")
    return _BLOCK.sub(lambda _: f"{BEGIN}\n{block}\n{END}", text, count=1)
