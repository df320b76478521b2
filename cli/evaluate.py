"""`kbx eval`: the FORMAT.md metrics for one strategy, or the budget sweep."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import (
    BookOpt,
    book_settings,
    chapters_option,
    console,
    handle_errors,
    load_corpus_for,
    print_json,
    rich_console,
)
from core.errors import ConfigError
from retrieval.packing import Policy

if TYPE_CHECKING:  # loaded when `kbx eval` runs, not at `kbx` start
    from core.settings import Settings
    from retrieval.corpus import Corpus
    from retrieval.evaluation import Strategy
    from retrieval.questions import LabeledQuestion
    from retrieval.retriever import Retriever, SearchOptions

SWEEP_BUDGETS = (2000, 4000, 8000, 16000)
SWEEP_CUTS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9)
"""Lexical cuts the `kb` sweep tries at the default budget and block limit."""
EVAL_STRATEGIES = ("rrf", "ngram", "unigram", "kb")
"""`retrieval.retriever.STRATEGIES` and `kb` (a test holds them equal)."""


def lexical_strategy(retriever: Retriever, options: SearchOptions) -> Strategy:
    from retrieval.evaluation import Evidence

    def run(q: LabeledQuestion) -> Evidence:
        trace = retriever.search(q.question.question, options)
        return Evidence([c.chunk_id for c in trace.candidates], trace.packed)

    return run


def make_strategy(name: str, corpus: Corpus, retriever: Retriever, cfg: Settings,
                  options: SearchOptions, cut: float | None = None) -> Strategy:
    """The evidence order a strategy produces; `kb` is exactly the order `/ask` uses."""
    if name == "kb":
        from kb.answering.eval_strategy import kb_strategy
        from kb.knowledge.loading import load_active_bundle
        from providers.memory import MemoryProvider

        bundle = load_active_bundle(cfg, corpus.blocks)
        provider = MemoryProvider()
        provider.load(bundle)
        titles = {n: c.title for n, c in corpus.chapters.items()}
        from kb.answering.evidence import LEXICAL_CUT

        strategy: Strategy = kb_strategy(bundle, provider, titles, retriever, cfg, options,
                                         LEXICAL_CUT if cut is None else cut)
        return strategy
    return lexical_strategy(retriever, options)


def run_eval(questions: list[LabeledQuestion], corpus: Corpus, retriever: Retriever,
             cfg: Settings, strategy: str, options: SearchOptions, label: str,
             cut: float | None = None) -> tuple[dict[str, float], list[dict[str, object]]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from retrieval.evaluation import evaluate

    run = make_strategy(strategy, corpus, retriever, cfg, options, cut)
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), console=rich_console(),
                  transient=True,
                  disable=not rich_console().is_terminal) as progress:
        task = progress.add_task(label, total=len(questions))
        return evaluate(questions, run, {b.id: b for b in corpus.blocks},
                        progress=lambda: progress.advance(task))


@handle_errors
def eval_command(
    questions: Annotated[Path, typer.Option("--questions", help="FORMAT.md question file")],
    chapters: Annotated[str | None, typer.Option("--chapters", help="e.g. 7-11")] = None,
    strategy: Annotated[str, typer.Option("--strategy", help="rrf | ngram | unigram | kb")] = "rrf",
    budget: Annotated[int | None, typer.Option("--budget", min=1)] = None,
    max_blocks: Annotated[int | None, typer.Option("--max-blocks", min=1)] = None,
    policy: Annotated[Policy, typer.Option("--policy")] = Policy.STOP,
    json_out: Annotated[bool, typer.Option("--json")] = False,
    sweep: Annotated[bool, typer.Option("--sweep", help="budgets 2k/4k/8k/16k, no block limit")] = False,
    cut: Annotated[float | None, typer.Option(
        "--cut", min=0.0, max=1.0,
        help="kb: pack a block no record points to only while its best channel score is at "
             "least this share of the top (default kb.answering.evidence.LEXICAL_CUT; 0 = off)")
    ] = None,
    answers: Annotated[bool, typer.Option(
        "--answers", help="ask every question offline and check the answer holds its `expect` "
                          "strings (answers_dev.jsonl); refusals are counted")] = False,
    book: BookOpt = None,
) -> None:
    """Evaluate retrieval on a question file: hit@k, MRR, context coverage, irrelevant share;
    with `--answers`, the answers themselves."""
    from rich.table import Table

    from cli.tables import print_table
    from retrieval.questions import load_questions
    from retrieval.retriever import SearchOptions

    if strategy not in EVAL_STRATEGIES:
        raise ConfigError(f"--strategy must be one of {', '.join(EVAL_STRATEGIES)}")
    cfg = book_settings(book)
    corpus = load_corpus_for(cfg)
    if answers:
        run_answer_eval(questions, corpus, cfg, json_out)
        return
    selected = chapters_option(chapters, corpus.chapters)
    retriever = corpus.retriever.subset(selected)
    labeled = load_questions(questions, corpus.chapters)
    if sweep:
        _sweep(labeled, corpus, retriever, cfg, strategy, policy, json_out, selected, cut)
        return
    options = SearchOptions(strategy="rrf" if strategy == "kb" else strategy,
                            budget=budget or cfg.budget, max_blocks=max_blocks or cfg.max_blocks,
                            policy=policy, rrf_k=cfg.rrf_k)
    summary, rows = run_eval(labeled, corpus, retriever, cfg, strategy, options, strategy, cut)
    result = _result(strategy, options, selected, labeled, summary, rows)
    if json_out:
        print_json(result)
        return
    table = Table(title=f"{questions.name}: {strategy}, budget {options.budget}, "
                        f"max {options.max_blocks} blocks, {policy.value}")
    for header in ("answerable", "hit@1", "hit@3", "hit@5", "mrr@10", "any core", "all core",
                   "avg blocks", "irrelevant"):  # (the JSON keys: context_any_core …)
        table.add_column(header, justify="right")
    table.add_row(str(result["answerable"]), *(f"{summary[k]:.3f}" for k in
                  ("hit@1", "hit@3", "hit@5", "mrr@10", "context_any_core", "context_all_core",
                   "avg_blocks", "irrelevant_share")))
    print_table(table)
    misses = [r["id"] for r in rows if r["answerable"] and not r["first_core_rank"]]
    if misses:
        console.print(f"no core block ranked: {', '.join(map(str, misses))}", highlight=False)


def _result(strategy: str, options: SearchOptions, chapters: set[int] | None,
            labeled: list[LabeledQuestion], summary: dict[str, float],
            rows: list[dict[str, object]]) -> dict[str, Any]:
    return {"strategy": strategy, "budget": options.budget, "max_blocks": options.max_blocks,
            "policy": options.policy.value,
            "chapters": sorted(chapters) if chapters else None, "questions": len(labeled),
            "answerable": sum(1 for q in labeled if q.question.answerable), **summary,
            "per_question": rows}


def _sweep(labeled: list[LabeledQuestion], corpus: Corpus, retriever: Retriever, cfg: Settings,
           strategy: str, policy: Policy, json_out: bool, chapters: set[int] | None,
           cut: float | None = None) -> None:
    from rich.table import Table

    from cli.tables import print_table
    from retrieval.retriever import SearchOptions

    results = []
    for budget in SWEEP_BUDGETS:
        options = SearchOptions(strategy="rrf" if strategy == "kb" else strategy, budget=budget,
                                max_blocks=None, policy=policy, rrf_k=cfg.rrf_k)
        summary, rows = run_eval(labeled, corpus, retriever, cfg, strategy, options,
                                 f"budget {budget}", cut)
        results.append(_result(strategy, options, chapters, labeled, summary, rows))
    cuts = []
    if strategy == "kb":  # the lexical cut at the default budget and block limit
        options = SearchOptions(strategy="rrf", budget=cfg.budget, max_blocks=cfg.max_blocks,
                                policy=policy, rrf_k=cfg.rrf_k)
        for value in SWEEP_CUTS:
            summary, rows = run_eval(labeled, corpus, retriever, cfg, strategy, options,
                                     f"cut {value}", value)
            cuts.append({"cut": value, **_result(strategy, options, chapters, labeled, summary,
                                                 rows)})
    if json_out:
        print_json([{k: v for k, v in r.items() if k != "per_question"} for r in
                     [*results, *cuts]])
        return
    if cuts:
        _print_cuts(cuts)
    n = results[0]["answerable"]
    table = Table(title=f"{strategy}, policy {policy.value}, no block limit ({n} answerable)")
    for col in ("budget", "all core packed", "any core packed", "avg blocks", "irrelevant share",
                "hit@3"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(f"{r['budget']:,}", f"{round(r['context_all_core'] * n)}/{n}",
                      f"{round(r['context_any_core'] * n)}/{n}", f"{r['avg_blocks']:.1f}",
                      f"{r['irrelevant_share']:.0%}", f"{r['hit@3']:.2f}")
    print_table(table)


def _print_cuts(cuts: list[dict[str, Any]]) -> None:
    from rich.table import Table

    from cli.tables import print_table

    n = cuts[0]["answerable"]
    table = Table(title=f"kb, budget {cuts[0]['budget']:,}, max {cuts[0]['max_blocks']} blocks: "
                        f"the lexical cut ({n} answerable)")
    for col in ("cut", "all core", "any core", "avg blocks", "irrelevant share", "hit@3"):
        table.add_column(col, justify="right")
    for r in cuts:
        table.add_row(f"{r['cut']:.1f}", f"{r['context_all_core']:.3f}",
                      f"{r['context_any_core']:.3f}", f"{r['avg_blocks']:.1f}",
                      f"{r['irrelevant_share']:.3f}", f"{r['hit@3']:.3f}")
    print_table(table)


def run_answer_eval(path: Path, corpus: Corpus, cfg: Settings, json_out: bool) -> None:
    """`kbx eval --answers`: offline answers (no LLM) over the in-memory graph of the active
    bundle, checked against each question's `expect` groups."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table

    from cli.tables import print_table
    from kb.answering.answer_eval import evaluate_answers
    from kb.answering.service import AskService
    from kb.knowledge.loading import load_active_bundle
    from providers.memory import MemoryProvider
    from retrieval.questions import load_questions

    offline = cfg.model_copy(update={"openai_api_key": None, "openai_base_url": None})
    bundle = load_active_bundle(offline, corpus.blocks)
    provider = MemoryProvider()
    provider.load(bundle)
    service = AskService(offline, corpus, provider, bundle=bundle)
    questions = [q.question for q in load_questions(path, corpus.chapters)]
    with Progress(TextColumn("answers"), BarColumn(), MofNCompleteColumn(),
                  console=rich_console(), transient=True,
                  disable=not rich_console().is_terminal) as progress:
        task = progress.add_task("answers", total=len(questions))
        report = evaluate_answers(service.ask, questions, lambda: progress.advance(task))
    summary = report.summary()
    if json_out:
        print_json({**summary, "per_question": [
            {**vars(r), "states_answer": r.states_answer} for r in report.rows]})
        return
    table = Table(title=f"{path.name}: offline answers")
    for col in ("answerable", "states the answer", "in the lead", "answerable refused",
                "unanswerable refused", "quotes located"):
        table.add_column(col, justify="right")
    n = summary["answerable"]
    table.add_row(str(n), f"{summary['states_answer']}/{n} ({summary['states_answer_share']:.3f})",
                  f"{summary['in_lead']}/{n}", str(summary["answerable_refused"]),
                  f"{summary['unanswerable_refused']}/{summary['unanswerable']}",
                  f"{summary['quotes_located']}/{summary['quotes']}")
    print_table(table)
    for row in report.rows:
        if row.answerable and not row.states_answer:
            lacking = " & ".join("/".join(g) for g in row.missing)
            console.print(f"{row.id} {row.status}: {row.question} — lacks {lacking or '-'}"
                          + (f" ({row.reason})" if row.reason else ""), highlight=False)
        elif not row.answerable and row.status != "insufficient":
            console.print(f"{row.id} answered an unanswerable question: {row.question}",
                          highlight=False)
