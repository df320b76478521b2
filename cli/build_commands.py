"""`kbx build PATH --book NAME [--llm]` and `kbx books`: a novel becomes a book the service reads.

The build runs every step in a temporary directory beside `<data>/<book>/` (`extract.build`),
loads the checked bundle into the book's graph (`kbx:<book>`, atomically: a failed load leaves
the old graph), and only then swaps the directory in; any failure leaves the book as it was.
Bad input (a missing path, no chapter, bytes that are not UTF-8) is one line and exit code 2.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import console, handle_errors, print_json, rich_console, settings

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from core.books import BookManifest
    from core.llm import ChatClient
    from core.settings import Settings
    from extract.build import BuildRequest, Built, Tick

JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


class RichSteps:
    """One progress bar per step, left on screen with what the step made."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.tasks: dict[str, TaskID] = {}
        self.started: dict[str, float] = {}

    def begin(self, step: str, total: int | None = None) -> Tick:
        task = self.progress.add_task(step, total=total, note="")
        self.tasks[step], self.started[step] = task, time.perf_counter()

        def tick(done: int, of: int) -> None:
            self.progress.update(task, completed=done, total=of)

        return tick

    def end(self, step: str, note: str = "") -> None:
        task = self.tasks[step]
        total = self.progress.tasks[task].total or 1
        self.progress.update(task, completed=total, total=total, note=note)


def build_command(
    path: Annotated[Path, typer.Argument(help="a directory of NNN.txt chapters, or one UTF-8 "
                                               "file with 第…回 headings")],
    book: Annotated[str, typer.Option("--book", help="the book's name: its directory "
                                                     "<data>/<book>/, its graph kbx:<book>")],
    title: Annotated[str | None, typer.Option("--title", help="default: the text's own")] = None,
    llm: Annotated[bool, typer.Option("--llm/--offline", help="records extracted by the LLM "
                                                             "per block (OPENAI_BASE_URL / "
                                                             "OPENAI_API_KEY), or offline "
                                                             "(default)")] = False,
    chunk_size: Annotated[int | None, typer.Option("--chunk-size", min=100, max=5000,
                                                   help="block length (default 600)")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64,
                                             help="LLM requests in flight")] = 4,
    price_prompt: Annotated[float, typer.Option("--price-prompt", min=0,
                                                help="LLM price per 1k prompt tokens")] = 0.0,
    price_completion: Annotated[float, typer.Option(
        "--price-completion", min=0, help="LLM price per 1k completion tokens")] = 0.0,
    json_out: JsonOpt = False,
) -> None:
    """Build a book from its text: blocks and indexes, people (discovered from the text when the
    book has no curated bundle), events, relations, states, loaded into the book's graph."""
    from core.books import check_book_name
    from extract.build import BuildRequest
    from ingest.corpus import read_corpus

    root = settings(chunk_size=chunk_size)
    check_book_name(book)
    read_corpus(path)  # bad input is one line before any progress is drawn (a few ms to read)
    request = BuildRequest(book=check_book_name(book), corpus=path, title=title, llm=llm,
                           chunk_size=root.chunk_size, curated=_curated(root, book, path),
                           concurrency=concurrency)
    client = _client(root, price_prompt, price_completion) if llm else None
    started = time.perf_counter()
    try:
        built, seconds = _build(root, request, client, quiet=json_out)
    finally:
        if client is not None:
            client.close()
    total = time.perf_counter() - started
    if json_out:
        print_json(built.manifest.model_dump(mode="json") | {"load_seconds": seconds,
                                                             "total_seconds": round(total, 2)})
        return
    _print_built(built, total)


def _curated(root: Settings, book: str, path: Path) -> Path | None:
    """The curated bundle, for the configured corpus built under its own name from its own
    text (水浒传 by default); every other build reads the text alone."""
    from extract.pipeline import LEXICON_FILE

    same_text = path.exists() and root.corpus.exists() and path.resolve() == root.corpus.resolve()
    curated = book == root.corpus_name and same_text and (root.bundle / LEXICON_FILE).is_file()
    return root.bundle if curated else None


def _client(root: Settings, price_prompt: float, price_completion: float) -> ChatClient:
    from core.errors import ConfigError
    from core.llm import ChatClient, Pricing

    if not root.llm_configured:
        raise ConfigError("--llm: no chat endpoint configured (set OPENAI_BASE_URL, or "
                          "OPENAI_API_KEY)")
    pricing = Pricing(price_prompt, price_completion) if price_prompt or price_completion \
        else None
    return ChatClient(root, pricing=pricing)


def _build(root: Settings, request: BuildRequest, client: ChatClient | None,
           quiet: bool) -> tuple[Built, float]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from core.atomic import replace_directory
    from core.books import book_dir
    from extract.build import LLM_CACHE, build_book

    target = book_dir(root, request.book)
    made: list[Built] = []
    loaded: list[float] = []
    columns = (TextColumn("{task.description:<34}"), BarColumn(bar_width=24),
               MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("{task.fields[note]}"))
    with Progress(*columns, console=rich_console(), disable=quiet) as progress:
        steps = RichSteps(progress)

        def write(directory: Path) -> None:
            built = build_book(root, request, directory, steps,
                               llm_cache=target / LLM_CACHE, client=client)
            loaded.append(_load_graph(root, built, steps))
            made.append(built)

        replace_directory(target, write, keep=(LLM_CACHE, "sessions"))
    _warm_cache(root, made[0])
    return made[0], loaded[0]


def _load_graph(root: Settings, built: Built, steps: RichSteps) -> float:
    """The checked bundle into the book's graph, replaced atomically (the old graph stays when
    this fails, and so does the old directory)."""
    from core.books import settings_of
    from providers.factory import graph_name, open_provider

    cfg = settings_of(root, built.manifest)
    steps.begin(f"load graph {graph_name(cfg)}")
    store = open_provider(cfg, start_now=True, linger=True)
    try:
        report = store.load(built.bundle)
    finally:
        store.close()
    steps.end(f"load graph {graph_name(cfg)}", f"{report.backend}, {report.seconds:.1f} s")
    return report.seconds


def _warm_cache(root: Settings, built: Built) -> None:
    """The checked bundle into the book's bundle cache under its final path, so that the first
    reader of the book does not place every quote again."""
    from core.books import settings_of
    from kb.knowledge.bundle_cache import key_for_blocks
    from kb.knowledge.loading import bundle_cache

    cfg = settings_of(root, built.manifest)
    bundle_cache(cfg).put(key_for_blocks(cfg.active_bundle_dir(), built.blocks), built.bundle)


def _print_built(built: Built, total: float) -> None:
    from rich.table import Table

    from cli.tables import print_table

    m = built.manifest
    table = Table(title=f"built {m.name} ({m.title}) from {m.corpus}: {m.source} knowledge")
    for col in ("people", "aliases", "events", "relations", "states", "chapters", "time"):
        table.add_column(col, justify="right")
    c = m.counts
    table.add_row(*(str(v) for v in (c.people, c.aliases, c.events, c.relations, c.states)),
                  f"{c.chapters} / {m.text_chapters}", f"{total:.1f} s")
    print_table(table)
    if built.discovery is not None and built.discovery.ambiguous:
        shared = sorted(built.discovery.ambiguous, key=lambda a: -a.mentions)
        console.print("forms two or more people share (resolved passage by passage): "
                      + "、".join(f"{a.form}×{a.mentions}" for a in shared[:12])
                      + (f" … {len(shared)} in all" if len(shared) > 12 else ""),
                      highlight=False)
    if m.llm:
        cost = f", cost {m.llm['cost']:.4f}" if "cost" in m.llm else ""
        console.print(f"LLM: {int(m.llm['calls'])} calls, {int(m.llm['prompt_tokens'])} prompt + "
                      f"{int(m.llm['completion_tokens'])} completion tokens{cost}",
                      highlight=False)
        failed = built.summary.counters.get("blocks_failed", 0) if built.summary else 0
        if failed:
            console.print(f"[yellow]{failed} blocks failed; run the same command again to retry "
                          "them (answered blocks come from the cache)[/]")
    console.print(f"next: kbx ask '…' --book {m.name}   or   kbx serve (the explorer lists "
                  "every book)", highlight=False)


def books_command(json_out: JsonOpt = False) -> None:
    """The books built here: name, title, where their knowledge came from, counts, when."""
    from rich.table import Table

    from cli.tables import print_table
    from core.books import built_books, default_book, for_book, read_manifest, title_of

    root = settings()
    rows: list[tuple[str, str, BookManifest | None]] = []
    for name in built_books(root):
        rows.append((name, title_of(for_book(root, name)), read_manifest(root, name)))
    if json_out:
        print_json([{"name": n, "title": t, "default": n == default_book(root),
                     **(m.model_dump(mode="json", exclude={"name", "title"}) if m else
                        {"source": "curated", "built_at": None})} for n, t, m in rows])
        return
    table = Table(title=f"{len(rows)} books in {root.resolved_data_dir()}")
    for col in ("book", "title", "source", "people", "aliases", "events", "relations", "states",
                "chapters", "built"):
        table.add_column(col, justify="right" if col not in ("book", "title", "source", "built")
                         else "left")
    for name, title, m in rows:
        mark = " *" if name == default_book(root) else ""
        if m is None:
            table.add_row(name + mark, title, "curated", *["–"] * 6,
                          "ingested (kbx ingest)" if _ingested(root, name) else "not built")
            continue
        c = m.counts
        table.add_row(name + mark, title, m.source, *(str(v) for v in (
            c.people, c.aliases, c.events, c.relations, c.states, c.chapters)), m.built_at)
    print_table(table)
    console.print("* read when no --book is given (KBX_BOOK)", highlight=False)


def _ingested(root: Settings, name: str) -> bool:
    return (root.resolved_data_dir() / name / "blocks" / "manifest.json").is_file()


def register(app: typer.Typer) -> None:
    app.command("build")(handle_errors(build_command))
    app.command("books")(handle_errors(books_command))
