"""`kbx extract [--offline|--llm] [--chapters …] [--no-gate]` and `kbx extract report`.

Extraction writes one part per chapter under `<data_dir>/<corpus>/extracted/parts/`, rebuilds the
extracted bundle in `extracted/`, measures it against the curated bundle and writes the merged
bundle in `bundle/`: the curated records plus only the extracted kinds whose measured precision
passes the gate (`extract.gate`, decision in `bundle/gate.json`), which `kbx kb load` and the
service load. `kbx extract report` measures the offline extractor and writes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import (
    BookOpt,
    book_settings,
    chapters_option,
    console,
    fail,
    handle_errors,
    load_corpus_for,
    print_json,
    rich_console,
    settings,
)

if TYPE_CHECKING:  # the extractors (and the OpenAI client) load only when `kbx extract` runs
    from core.llm import ChatClient
    from core.settings import Settings
    from extract.gate import Gate
    from extract.pipeline import ChapterExtractor, Inputs, RunSummary
    from extract.report import QualityReport, Score

JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]

extract_app = typer.Typer(help="Extract knowledge for the whole book (offline cues or an LLM).",
                          invoke_without_command=True, no_args_is_help=False,
                          rich_markup_mode=None)


def _inputs(cfg: Settings) -> Inputs:
    from extract.pipeline import load_inputs

    corpus = load_corpus_for(cfg)
    return load_inputs(cfg, corpus.blocks, titles={n: c.title for n, c in corpus.chapters.items()})


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
            gate: Annotated[bool, typer.Option(
                "--gate/--no-gate", help="merge only the kinds measured precise enough (default); "
                                         "--no-gate merges everything (a novel with no curated "
                                         "records)")] = True,
            json_out: JsonOpt = False) -> None:
    """Extract the chapters (all by default), replace their parts, rebuild the extracted bundle,
    measure it and write the merged bundle (curated + the kinds that pass the gate)."""
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
        summary = _run_with_progress(cfg, inputs, extractor,
                                     chapters_option(chapters, {b.chapter for b in inputs.blocks}),
                                     gate)
    finally:
        if client is not None:
            client.close()
    if json_out:
        print_json(summary.__dict__)
        return
    _print_summary(summary, client)


def _run_with_progress(cfg: Settings, inputs: Inputs, extractor: ChapterExtractor,
                       chapters: set[int] | None, gated: bool) -> RunSummary:
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
                  MofNCompleteColumn(), TimeElapsedColumn(), console=rich_console(),
                  transient=True,
                  disable=not rich_console().is_terminal) as bar:
        task = bar.add_task("extract", total=None)
        return run(cfg, inputs, extractor, chapters,
                   progress=lambda done, total: bar.update(task, completed=done, total=total),
                   gated=gated)


def _print_summary(summary: RunSummary, client: ChatClient | None) -> None:
    from rich.table import Table

    from cli.tables import print_table

    table = Table(title=f"{summary.method} extraction of {len(summary.chapters)} chapters")
    for col in ("bundle", "people", "events", "relations", "states", "chapters"):
        table.add_column(col, justify="right")
    for name, counts in (("extracted", summary.extracted), ("merged", summary.merged)):
        table.add_row(name, *(str(counts.get(k, 0)) for k in ("people", "events", "relations", "states",
                                                               "chapters")))
    print_table(table)
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
    if summary.gate is not None:
        _print_gate(summary.gate)
    console.print(f"merged bundle: {summary.bundle_dir}  (curated records + the kinds admitted "
                  f"above; `kbx kb load` and the service use it)", highlight=False)


def _print_gate(gate: Gate) -> None:
    from rich.table import Table

    from cli.tables import print_table

    chapters = _span(gate.chapters)
    table = Table(title=f"precision gate: ≥ {gate.threshold} over ≥ {gate.min_found} records, "
                        f"{gate.method} records of chapters {chapters}")
    for col in ("kind", "found", "correct", "enters", "why"):
        table.add_column(col, justify="left" if col in ("kind", "why") else "right")
    for kind in gate.kinds:
        table.add_row(kind.kind, str(kind.found), str(kind.correct),
                      "yes" if kind.admitted else "no", kind.reason)
    print_table(table)
    if gate.added:
        added = ", ".join(f"{k} {v}" for k, v in gate.added.items())
        console.print(f"extracted records added to the curated ones: {added}", highlight=False)


def _span(chapters: list[int]) -> str:
    if not chapters:
        return "none"
    if chapters == list(range(chapters[0], chapters[-1] + 1)):
        return f"{chapters[0]}–{chapters[-1]}"
    return ",".join(map(str, chapters))


@extract_app.command("report")
@handle_errors
def report(chapters: Annotated[str | None, typer.Option(
               "--chapters", help="e.g. 7-11,23 (default: every chapter the curated bundle covers)")] = None,
           discovered: Annotated[bool, typer.Option(
               "--discovered", help="extract with the people discovered from the text and no "
                                    "corpus tables, as a book without a lexicon is")] = False,
           json_out: JsonOpt = False) -> None:
    """Precision and recall of the offline extractor against the curated records (people,
    relations by pair, by pair + type and per type, events, states, fates), per chapter and
    overall, and what the precision gate would admit. Writes nothing."""
    from extract.gate import decide
    from extract.pipeline import from_text_alone, measure_offline

    cfg = settings()
    inputs = _inputs(cfg)
    if discovered:
        inputs = from_text_alone(inputs)
    wanted = chapters_option(chapters, {b.chapter for b in inputs.blocks})
    result = measure_offline(inputs, wanted)
    if json_out:
        print_json(result)
        return
    _print_report(result)
    _print_gate(decide(result, ""))


def _pr(score: Score) -> str:
    return f"{score.precision:.2f} / {score.recall:.2f}" if score.found or score.curated else "—"


def _print_report(result: QualityReport) -> None:
    from rich.table import Table

    from cli.tables import print_table

    chapters = _span(result.chapters)
    table = Table(title=f"per chapter: precision / recall (offline extractor vs curated, "
                        f"chapters {chapters})")
    for col in ("ch", "people", "pairs", "pairs + type", "events", "states", "fates"):
        table.add_column(col, justify="right")
    for row in result.per_chapter:
        table.add_row(str(row.chapter), _pr(row.people), _pr(row.pairs), _pr(row.typed),
                      _pr(row.events), _pr(row.states), _pr(row.fates))
    print_table(table)
    overall = Table(title=f"overall, chapters {chapters}")
    for col in ("measure", "found", "curated", "correct", "recalled", "precision", "recall"):
        overall.add_column(col, justify="left" if col == "measure" else "right")
    rows = [("people", result.overall["people"]),
            ("pairs, per chapter", result.overall["pairs"]),
            ("pairs+type, per ch.", result.overall["typed"]),
            ("pairs, book", result.book["book_pairs"]),
            ("pairs+type, book", result.book["book_typed"]),
            ("events", result.overall["events"]),
            ("events, same block", result.overall["events_same_block"]),
            ("states", result.overall["states"]),
            ("fates (deaths)", result.overall["fates"]),
            *((f"  {kind}", score) for kind, score in result.by_type.items())]
    for name, score in rows:
        overall.add_row(name, str(score.found), str(score.curated), str(score.correct),
                        str(score.recalled), f"{score.precision:.3f}", f"{score.recall:.3f}")
    print_table(overall)


@extract_app.command("discover-report")
@handle_errors
def discover_report(people: Annotated[str | None, typer.Option(
                        "--people", help="labelled people (JSON lines: id, name, aliases); default: "
                                         "the curated lexicon.jsonl of the bundle")] = None,
                    show: Annotated[int, typer.Option("--show", min=0,
                                                      help="misses and errors listed")] = 15,
                    json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Discover the book's people and aliases from its text alone and measure them against
    labelled people: recall by mentions, alias recall and precision, merged pairs. Writes nothing.
    A book built from its text has no curated lexicon: give `--people`."""
    import time
    from pathlib import Path

    from extract.discover import discover_lexicon
    from extract.discovery_report import read_labelled, score_discovery
    from extract.pipeline import LEXICON_FILE
    from extract.text import ChapterTexts

    cfg = book_settings(book)
    if people is None and not (cfg.bundle / LEXICON_FILE).exists():
        raise fail(f"--people: the book {cfg.corpus_name!r} has no curated lexicon to measure "
                   "against; give a file of labelled people (JSON lines: id, name, aliases)")
    labelled = read_labelled(Path(people) if people else cfg.bundle / LEXICON_FILE)
    texts = ChapterTexts(load_corpus_for(cfg).blocks)
    started = time.perf_counter()
    discovery = discover_lexicon(texts)
    seconds = time.perf_counter() - started
    score = score_discovery(discovery.entries, labelled, texts)
    summary = {**score.summary(), "discovered_people": len(discovery.entries),
               "ambiguous_forms": len(discovery.ambiguous), "seconds": round(seconds, 2)}
    if json_out:
        print_json({**summary, "missed": score.missed, "unresolved": score.unresolved,
                    "wrong_aliases": score.wrong_aliases, "merged": score.merged})
        return
    for key, value in summary.items():
        console.print(f"{key:>24}: {value}", highlight=False)
    for title, rows in (("missed (name, mentions)", sorted(score.missed, key=lambda r: -r[1])),
                        ("aliases not resolving to their person", score.unresolved),
                        ("wrong aliases (discovered person, alias, its owner)", score.wrong_aliases),
                        ("merged pairs", score.merged)):
        if rows:
            console.print(f"{title}: " + "; ".join(" ".join(map(str, r)) for r in rows[:show]),
                          highlight=False)


def register(app: typer.Typer) -> None:
    """Add `kbx extract` to the main app."""
    app.add_typer(extract_app, name="extract")
