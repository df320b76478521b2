"""`kbx`: ingest a novel, search it with explanations, evaluate and benchmark the retriever."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import (
    BookOpt,
    OneLineErrors,
    book_settings,
    chapters_option,
    configure_logging,
    console,
    handle_errors,
    load_corpus_for,
    print_json,
    rich_console,
    settings,
)
from cli.evaluate import eval_command
from core.errors import NotFound
from core.validation import checked_question
from retrieval.packing import Policy

# No command multiplies matrices (numpy sorts, searches and sums here), so BLAS threads are never
# used; OpenBLAS starts one per core at `import numpy` all the same, and they spin a while: the
# import took 0.26 s of CPU instead of 0.14 s, the other core's share taken from whatever runs
# beside (docs/performance.md, "Start-up, round 4"). A value set outside wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

if TYPE_CHECKING:  # each command imports what it uses: `kbx --help` loads none of it
    from retrieval.corpus import Corpus
    from retrieval.retriever import SearchOptions
    from retrieval.trace import SearchTrace

app = typer.Typer(help=__doc__, no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False, rich_markup_mode=None, cls=OneLineErrors)
bench_app = typer.Typer(help="Benchmarks that print figures side by side with baselines.",
                        no_args_is_help=True, rich_markup_mode=None)
app.add_typer(bench_app, name="bench")

CorpusOpt = Annotated[Path | None, typer.Option(
    "--corpus", help="chapter directory or one UTF-8 file with 第…回 headings")]
ChaptersOpt = Annotated[str | None, typer.Option("--chapters", help="e.g. 7-11 or 7,9,12-14")]
StrategyOpt = Annotated[str, typer.Option("--strategy", help="rrf | ngram | unigram")]
BudgetOpt = Annotated[int | None, typer.Option("--budget", min=1, help="evidence token budget")]
MaxBlocksOpt = Annotated[int | None, typer.Option("--max-blocks", min=1, help="block limit")]
PolicyOpt = Annotated[Policy, typer.Option("--policy", help="stop at first overflow, or skip it")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


@app.callback()
def main(log_level: Annotated[str, typer.Option("--log-level", envvar="KBX_LOG_LEVEL",
                                                help="structured (JSON) logs on stderr")] = "WARNING"
         ) -> None:
    configure_logging(log_level)


@app.command()
@handle_errors
def ingest(corpus: CorpusOpt = None, chapters: ChaptersOpt = None,
           chunk_size: Annotated[int | None, typer.Option("--chunk-size", min=100)] = None) -> None:
    """Read the corpus, cut it into source blocks, build both indexes and save them."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.table import Table

    from cli.tables import print_table
    from ingest.chunking import chunk_chapter
    from ingest.corpus import read_corpus
    from ingest.store import store_dir
    from retrieval.corpus import Corpus, save_corpus, whole_indexes
    from retrieval.retriever import Retriever

    cfg = settings(corpus=corpus, chunk_size=chunk_size)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    chapter_list = read_corpus(cfg.corpus)
    selected = chapters_option(chapters, [c.number for c in chapter_list])
    chapter_list = [c for c in chapter_list if selected is None or c.number in selected]
    timings["read"] = time.perf_counter() - started
    blocks = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=rich_console(), transient=True,
                  disable=not rich_console().is_terminal) as progress:
        task = progress.add_task("chunking", total=len(chapter_list))
        for chapter in chapter_list:
            blocks.extend(chunk_chapter(chapter, cfg.chunk_size))
            progress.advance(task)
    timings["chunk"] = time.perf_counter() - started - timings["read"]
    mark = time.perf_counter()
    built = Corpus({c.number: c for c in chapter_list}, Retriever.build(blocks))
    timings["index"] = time.perf_counter() - mark
    mark = time.perf_counter()
    target = store_dir(cfg.resolved_data_dir(), cfg.corpus_name)
    save_corpus(built, target, {"corpus": str(cfg.corpus), "chunk_size": cfg.chunk_size,
                                "chapters": [c.number for c in chapter_list],
                                "blocks": len(blocks)})
    timings["save"] = time.perf_counter() - mark
    table = Table(title=f"ingested into {target}")
    for col in ("chapters", "characters", "blocks", "ngram terms", "unigram terms"):
        table.add_column(col, justify="right")
    idx = whole_indexes(built.retriever)
    table.add_row(str(len(chapter_list)), f"{sum(len(c.text) for c in chapter_list):,}",
                  str(len(blocks)), f"{idx['ngram'].n_terms:,}", f"{idx['unigram'].n_terms:,}")
    print_table(table)
    console.print("timings: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in timings.items()))


def _options(strategy: str, budget: int | None, max_blocks: int | None, policy: Policy,
             explain: bool = False) -> SearchOptions:
    from retrieval.retriever import SearchOptions

    cfg = settings()
    return SearchOptions(strategy=strategy, budget=budget or cfg.budget,
                         max_blocks=max_blocks or cfg.max_blocks, policy=policy, explain=explain,
                         rrf_k=cfg.rrf_k)


@app.command()
@handle_errors
def search(question: Annotated[str, typer.Argument(help="the question, either script")],
           chapters: ChaptersOpt = None, strategy: StrategyOpt = "rrf",
           budget: BudgetOpt = None, max_blocks: MaxBlocksOpt = None,
           policy: PolicyOpt = Policy.STOP,
           explain: Annotated[bool, typer.Option("--explain", help="term-by-term BM25")] = False,
           top: Annotated[int, typer.Option("--top", min=1, help="rows to show")] = 15,
           json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Rank source blocks for a question and show why each was found, ranked and packed."""
    from retrieval.retriever import STRATEGIES

    if strategy not in STRATEGIES:
        raise ValueError(f"--strategy must be one of {', '.join(STRATEGIES)}")
    cfg = book_settings(book)
    question = checked_question(question, cfg.max_question_chars)
    corpus = load_corpus_for(cfg)
    retriever = corpus.retriever.subset(chapters_option(chapters, corpus.chapters))
    trace = retriever.search(question, _options(strategy, budget, max_blocks, policy, explain))
    if json_out:
        print_json(trace)
        return
    _print_trace(trace, corpus, top, explain)


def _print_trace(trace: SearchTrace, corpus: Corpus, top: int, explain: bool) -> None:
    from rich.table import Table

    from cli.tables import print_table

    q = trace.query
    console.print(f"[bold]query[/] {q.question}  →  cleaned: {q.cleaned!r}")
    for channel, terms in q.known_terms.items():
        console.print(f"  {channel}: {len(terms)}/{len(q.terms[channel])} terms in index: "
                      f"{' '.join(terms[:30])}", highlight=False)
    table = Table(title=f"{trace.strategy}, budget {trace.budget}, max {trace.max_blocks} blocks, "
                        f"policy {trace.policy}; ngram and unigram: rank/score")
    for col in ("#", "block", "fused", "ngram", "unigram", "matched terms", "tokens",
                "decision"):
        table.add_column(col, justify="right" if col in ("#", "fused", "tokens") else "left")
    for c in trace.candidates[:top]:
        cells = []
        for channel in ("ngram", "unigram"):
            hit = c.channels.get(channel)
            cells.append(f"{hit.rank}/{hit.score:.2f}" if hit else "–")
        first = c.channels.get("ngram") or c.channels.get("unigram")
        table.add_row(str(c.fused_rank), c.chunk_id, f"{c.fused_score:.4f}", *cells,
                      " ".join(first.matched_terms[:6]) if first else "", str(c.tokens),
                      c.decision.value.replace("_", " "))
    print_table(table)
    console.print(f"packed {len(trace.packed)} blocks, {trace.tokens_used} tokens, "
                  f"{trace.elapsed_ms:.1f} ms")
    for c in trace.candidates[:3] if explain else []:
        for channel, hit in c.channels.items():
            if hit.explanation:
                console.print(f"[bold]{c.chunk_id}[/] {channel} = {hit.explanation.value:.3f}")
                for part in hit.explanation.details:
                    console.print(f"    {part.value:.3f}  {part.description}  "
                                  f"({', '.join(f'{d.description}: {d.value:.3f}' for d in part.details)})",
                                  highlight=False)
    for chunk_id in trace.packed[:3]:
        block = corpus.block(chunk_id)
        if block:
            console.print(f"[bold]{chunk_id}[/] {block.display_text[:120]}…", highlight=False)


@app.command()
@handle_errors
def chunk(chunk_id: Annotated[str, typer.Argument(help="e.g. ch007_chunk_004")],
          json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Show one source block with its chapter, offsets and text."""
    corpus = load_corpus_for(book_settings(book))
    block = corpus.block(chunk_id)
    if block is None:
        import difflib

        close = difflib.get_close_matches(chunk_id, [b.id for b in corpus.blocks], n=3)
        raise NotFound(f"unknown block {chunk_id!r}", close)
    if json_out:
        print_json(block)
        return
    title = corpus.chapters[block.chapter].title
    console.print(f"[bold]{block.id}[/]  {title}  [{block.start}, {block.end})")
    console.print(block.display_text, highlight=False)


app.command("eval")(eval_command)

from cli import bench as _bench  # noqa: E402

_bench.register(bench_app)
# --- further command groups register below this line ---
from cli import kb_commands as _kb_commands  # noqa: E402

_kb_commands.register(app, bench_app)
from cli import serve_commands as _serve_commands  # noqa: E402

_serve_commands.register(app, bench_app)
from cli import extract_commands as _extract_commands  # noqa: E402

_extract_commands.register(app)
from cli import mcp_commands as _mcp_commands  # noqa: E402

_mcp_commands.register(app)
from cli import status_commands as _status_commands  # noqa: E402

_status_commands.register(app)
from cli import build_commands as _build_commands  # noqa: E402

_build_commands.register(app)
