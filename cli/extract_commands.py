"""`kbx extract [--offline|--llm] [--chapters …]` and `kbx extract report`.

Extraction writes one part per chapter under `<data_dir>/<corpus>/extracted/parts/`, rebuilds the
extracted bundle in `extracted/` and the merged bundle (curated + extracted, curated wins) in
`bundle/`, which `kbx kb load` (and the service) then load instead of the curated bundle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import (
    chapters_option,
    console,
    handle_errors,
    load_corpus_for,
    print_json,
    rich_console,
    settings,
)

if TYPE_CHECKING:  # the extractors (and the OpenAI client) load only when `kbx extract` runs
    from core.llm import ChatClient
    from core.settings import Settings
    from extract.pipeline import ChapterExtractor, Inputs, RunSummary
    from extract.report import QualityReport

JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]

extract_app = typer.Typer(help="Extract knowledge for the whole book (offline cues or an LLM).",
                          invoke_without_command=True, no_args_is_help=False,
                          rich_markup_mode=None)


def _inputs(cfg: Settings) -> Inputs:
    from extract.pipeline import load_inputs

    return load_inputs(cfg, load_corpus_for(cfg).blocks)


@extract_app.callback()
@handle_errors
def extract(ctx: typer.Context,
            offline: Annotated[bool, typer.Option("--offline/--llm",
                                                  help="cue-word extractor (default) or the LLM")] = True,
            chapters: Annotated[str | None, typer.Option("--chapters", help="e.g. 23 or 7-11,23")] = None,
            concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64,
                                                     help="LLM requests in flight")] = 4,
            price_prompt: Annotated[float, typer.Option("--price-prompt", min=0,
                                                        help="LLM price per 1k prompt tokens")] = 0.0,
            price_completion: Annotated[float, typer.Option("--price-completion", min=0,
                                                            help="LLM price per 1k completion tokens")] = 0.0,
            json_out: JsonOpt = False) -> None:
    """Extract the chapters (all by default), replace their parts and rebuild both bundles."""
    if ctx.invoked_subcommand is not None:
        return
    from core.llm import ChatClient, Pricing
    from extract.cache import ReplyCache
    from extract.llm_extractor import LLMExtractor
    from extract.offline import OfflineExtractor
    from extract.pipeline import Paths
    from kb.knowledge.profile import read_profile

    cfg = settings()
    inputs = _inputs(cfg)
    client: ChatClient | None = None
    if offline:
        extractor: ChapterExtractor = OfflineExtractor(inputs.roster, inputs.texts)
    else:
        pricing = Pricing(price_prompt, price_completion) if price_prompt or price_completion else None
        client = ChatClient(cfg, pricing=pricing)
        extractor = LLMExtractor(client, inputs.roster, inputs.texts, ReplyCache(Paths.of(cfg).cache),
                                 concurrency=concurrency, book=read_profile(cfg.bundle).book)
    try:
        summary = _run_with_progress(cfg, inputs, extractor, chapters_option(chapters))
    finally:
        if client is not None:
            client.close()
    if json_out:
        print_json(summary.__dict__)
        return
    _print_summary(summary, client)


def _run_with_progress(cfg: Settings, inputs: Inputs, extractor: ChapterExtractor,
                       chapters: set[int] | None) -> RunSummary:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from extract.pipeline import run

    unit = "chapters" if extractor.method == "offline" else "blocks"
    with Progress(TextColumn(f"extracting {unit} ({extractor.method})"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=rich_console(), transient=True) as bar:
        task = bar.add_task("extract", total=None)
        return run(cfg, inputs, extractor, chapters,
                   progress=lambda done, total: bar.update(task, completed=done, total=total))


def _print_summary(summary: RunSummary, client: ChatClient | None) -> None:
    from rich.table import Table

    table = Table(title=f"{summary.method} extraction of {len(summary.chapters)} chapters")
    for col in ("bundle", "people", "events", "relations", "states", "chapters"):
        table.add_column(col, justify="right")
    for name, counts in (("extracted", summary.extracted), ("merged", summary.merged)):
        table.add_row(name, *(str(counts.get(k, 0)) for k in ("people", "events", "relations", "states",
                                                               "chapters")))
    console.print(table)
    console.print("tallies: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.counters.items())),
                  highlight=False)
    console.print("timings: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in summary.seconds.items()))
    if client is not None:
        usage = client.usage
        cost = "" if usage.cost is None else f", cost {usage.cost:.4f}"
        console.print(f"LLM: {usage.calls} calls, {usage.prompt_tokens} prompt + "
                      f"{usage.completion_tokens} completion tokens{cost}")
    failed = summary.counters.get("blocks_failed", 0)
    if failed:
        console.print(f"[yellow]{failed} blocks failed; run the same command again to retry them "
                      "(answered blocks come from the cache)[/]")
    console.print(f"merged bundle: {summary.bundle_dir}  "
                  f"(the service and `kbx kb load` use it from now on)", highlight=False)


@extract_app.command("report")
@handle_errors
def report(json_out: JsonOpt = False) -> None:
    """Precision and recall of the offline extractor against the curated relations (ch 7–11)."""
    from extract.report import quality_report

    result = quality_report(_inputs(settings()))
    if json_out:
        print_json(result)
        return
    _print_report(result)


def _print_report(result: QualityReport) -> None:
    from rich.table import Table

    chapters = f"{result.chapters[0]}–{result.chapters[-1]}" if result.chapters else "none"
    table = Table(title=f"offline extractor vs curated relations, chapters {chapters}")
    for col in ("level", "found", "curated", "matched", "precision", "recall"):
        table.add_column(col, justify="right")
    rows = [("related pairs", result.pairs), ("pairs + type", result.typed),
            *((f"  {kind}", score) for kind, score in result.by_type.items())]
    for name, score in rows:
        table.add_row(name, str(score.found), str(score.curated), str(score.matched),
                      f"{score.precision:.2f}", f"{score.recall:.2f}")
    console.print(table)
    console.print(f"extracted pairs not curated: {', '.join(result.wrong_pairs) or '—'}", highlight=False)
    console.print(f"curated pairs missed: {len(result.missed_pairs)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add `kbx extract` to the main app."""
    app.add_typer(extract_app, name="extract")
