"""`kbx ask`, `kbx serve` and `kbx bench ask`: the answering service from the command line."""

from __future__ import annotations

import logging
import math
import os
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import (
    BookOpt,
    book_settings,
    collector_paused,
    console,
    err_console,
    handle_errors,
    print_json,
    settings,
)

if TYPE_CHECKING:  # the answering stack loads when a command needs it, not at `kbx` start
    from fastapi import FastAPI

    from core.settings import Settings
    from kb.answering.answer_models import AskResponse
    from kb.knowledge.protocol import RelationProvider
    from retrieval.questions import Question

QUESTIONS_DIR = Path(__file__).resolve().parent.parent / "eval" / "questions"
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add `ask` and `serve` to the main app and `ask` to `kbx bench`."""
    app.command("ask")(ask_command)
    app.command("serve")(serve_command)
    bench_app.command("ask")(bench_ask_command)


@handle_errors
@collector_paused()
def ask_command(
    question: Annotated[str, typer.Argument(help="the question, simplified or traditional")],
    json_out: JsonOpt = False,
    session: Annotated[str | None, typer.Option("--session", help="continue this session")] = None,
    budget: Annotated[int | None, typer.Option("--budget", help="evidence token budget")] = None,
    max_blocks: Annotated[int | None, typer.Option("--max-blocks", help="block limit")] = None,
    book: BookOpt = None,
) -> None:
    """Answer a question with citations and checked quotes (`--json`: the POST /ask object)."""
    from core.validation import checked_name, checked_question
    from kb.answering.answer_models import AskRequest

    cfg = book_settings(book)
    checked_question(question, cfg.max_question_chars)  # as the API checks it, same words
    if session is not None:
        checked_name(session, "--session")
    request = AskRequest(question=question, session_id=session, budget=budget,
                         max_blocks=max_blocks)
    store = _store_first(cfg)
    try:
        from api.services import open_services
    except BaseException:
        if store is not None:
            store.close()
        raise
    services = open_services(cfg, provider=store, adopt=store is not None,
                             session_dir=cfg.resolved_data_dir() / "sessions")
    try:
        response = services.ask(request, "--session")
    finally:
        services.close()
    if json_out:
        print_json(response)
    else:
        print_answer(response)


def _store_first(cfg: Settings) -> RelationProvider | None:
    """The store, opened before the answering stack is imported (a quarter of a second): when
    no embedded server runs, it starts in a thread meanwhile, as it would have from
    `open_services`, only earlier. None when it cannot be opened: `open_services` tries again
    and serves degraded, saying why."""
    from core.errors import ProviderUnavailable
    from providers.factory import open_provider

    try:
        return open_provider(cfg, start_now=True, linger=True)
    except ProviderUnavailable:
        return None


def print_answer(response: AskResponse) -> None:
    """The answer, then its stages, quote checks, citations and how it was planned."""
    from rich.table import Table

    from cli.tables import print_table
    from kb.answering.drafting import chapter_span

    plan = response.plan
    read_as = response.trace.get("read_as")  # an English question: the Chinese it asks
    console.print(f"[bold]{response.status}[/] · {response.mode} · plan {plan.kind}"
                  + (f" ({', '.join(plan.people)})" if plan.people else "")
                  + (f" · read as {read_as}" if read_as else ""), highlight=False)
    console.rule("answer")
    console.print(response.answer or "–", highlight=False, soft_wrap=True)
    console.rule()
    if response.reason:
        console.print(f"reason: {response.reason}", highlight=False)
    if response.stages:
        table = Table(title="stages")
        for col in ("#", "stage", "chapters", "quotes located"):
            table.add_column(col)
        for number, stage in enumerate(response.stages, start=1):
            located = sum(q.located for q in stage.quotes)
            table.add_row(str(number), stage.title, chapter_span(stage.chapters),
                          f"{located}/{len(stage.quotes)}")
        print_table(table)
    if response.quotes:
        table = Table(title="quote checks")
        for col in ("", "block", "quote"):
            table.add_column(col)
        for quote in response.quotes:
            table.add_row("[green]✓[/]" if quote.located else "[red]✗[/]", quote.chunk_id,
                          quote.text)
        print_table(table)
    if response.citations:
        console.print("citations: " + ", ".join(c.chunk_id for c in response.citations),
                      highlight=False)
    if response.session_id:
        console.print(f"session: {response.session_id} (follow up with --session "
                      f"{response.session_id})", highlight=False)


@handle_errors
def serve_command(
    host: Annotated[str, typer.Option("--host", help="interface to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8000,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=0, max=32,
        help="worker processes; they share the memory-mapped indexes and the one graph "
             "server (default KBX_WORKERS; 0 = one per core)")
    ] = None,
    access_log: Annotated[bool, typer.Option("--access-log/--no-access-log",
                                             help="one JSON line per request")] = True,
    book: Annotated[str | None, typer.Option(
        "--book", help="the book a request that names none reads (default KBX_BOOK, else "
                       "shuihu); every built book is served")] = None,
) -> None:
    """Serve the HTTP API (uvicorn over the app factory; settings from the environment)."""
    import uvicorn

    cfg = settings(book=book)
    book_settings(book)  # an unknown book fails here, before the port opens
    if book is not None:
        os.environ["KBX_BOOK"] = book  # the workers read their settings from the environment
    count = worker_count(cfg.workers if workers is None else workers)
    err_console.print(f"serving http://{host}:{port} (docs at /docs) with {count} "
                      f"worker{'s' if count > 1 else ''}; Ctrl-C stops", highlight=False)
    if count == 1:
        uvicorn.run(worker_app(access_log, cfg), host=host, port=port, log_config=None,
                    access_log=False)
        return
    # each worker is a fresh interpreter that builds its app (and its lease on the graph
    # server) from the environment
    os.environ[ACCESS_LOG_ENV] = "1" if access_log else "0"
    os.environ["KBX_LOG_LEVEL"] = logging.getLevelName(logging.getLogger().level)
    uvicorn.run("cli.serve_commands:worker_app", factory=True, workers=count, host=host,
                port=port, log_config=None, access_log=False)


ACCESS_LOG_ENV = "KBX_ACCESS_LOG"


def worker_count(setting: int) -> int:
    """`KBX_WORKERS`: 0 means one per core the process may use."""
    if setting > 0:
        return setting
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def worker_app(access_log: bool | None = None, cfg: Settings | None = None) -> FastAPI:
    """The app of one serving process: structured logs as `kbx` set them up, the access log on
    unless `--no-access-log`, settings from the environment."""
    from api.app import create_app
    from api.middleware import log as access
    from cli.common import configure_logging

    if access_log is None:  # a worker started by uvicorn: what the parent said, by environment
        configure_logging(os.environ.get("KBX_LOG_LEVEL", "WARNING"))
        access_log = os.environ.get(ACCESS_LOG_ENV, "1") == "1"
    if access_log:
        access.setLevel(logging.INFO)
    return create_app(cfg if cfg is not None else settings(), freeze=True)  # its own process


@handle_errors
def bench_ask_command(
    json_out: JsonOpt = False,
    questions: Annotated[list[Path] | None, typer.Option(
        "--questions", help="question files (default: eval/questions/*.jsonl)")] = None,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="runs over the set")] = 3,
    book: BookOpt = None,
) -> None:
    """Offline POST /ask latency (no LLM) on the whole book: p50 / p99 over the question set."""
    cfg = book_settings(book).model_copy(update={"openai_api_key": None, "openai_base_url": None})
    report = run_ask_benchmark(cfg, load_question_texts(questions or sorted(QUESTIONS_DIR.glob(
        "*.jsonl"))), repeat)
    if json_out:
        print_json(report)
    else:
        print_ask_report(report)


def load_question_texts(paths: list[Path]) -> list[Question]:
    """Every question of the files (labels are not needed for timing, so quotes are not located)."""
    from core.utf8 import read_utf8
    from retrieval.questions import Question

    found: list[Question] = []
    for path in paths:
        lines = read_utf8(path).splitlines()
        found.extend(Question.model_validate_json(line) for line in lines if line.strip())
    if not found:
        raise ValueError("no questions to time (see --questions)")
    return found


def percentile(ordered: list[float], share: float) -> float:
    """Nearest-rank percentile of sorted values: the ⌈share·n⌉-th smallest."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def run_ask_benchmark(cfg: Settings, questions: list[Question], repeat: int) -> dict[str, Any]:
    from api.services import open_services
    from kb.answering.answer_models import AskRequest

    started = time.perf_counter()
    services = open_services(cfg)
    open_ms = (time.perf_counter() - started) * 1000
    try:
        asker = services.require_asker()
        asker.ask(AskRequest(question=questions[0].question))  # warm-up: caches, first query
        times: list[float] = []
        cpu: list[float] = []  # this process's CPU time (the store's own process not counted)
        statuses: dict[str, int] = {}
        located = quotes = 0
        load_before = os.getloadavg()[0]
        for _ in range(repeat):
            for q in questions:
                mark, cpu_mark = time.perf_counter(), time.process_time()
                response = asker.ask(AskRequest(question=q.question))
                times.append((time.perf_counter() - mark) * 1000)
                cpu.append((time.process_time() - cpu_mark) * 1000)
                statuses[response.status] = statuses.get(response.status, 0) + 1
                located += sum(c.located for c in response.quotes)
                quotes += len(response.quotes)
        stats = services.require_provider().stats()
    finally:
        services.close()
    ordered, cpu_ordered = sorted(times), sorted(cpu)
    return {"questions": len(questions), "runs": len(times), "mode": "offline",
            "blocks": len(services.corpus.blocks), "store": stats.backend,
            "open_ms": round(open_ms, 1),
            "p50_ms": round(percentile(ordered, 0.50), 2),
            "p90_ms": round(percentile(ordered, 0.90), 2),
            "p99_ms": round(percentile(ordered, 0.99), 2),
            "mean_ms": round(statistics.fmean(ordered), 2), "max_ms": round(ordered[-1], 2),
            "cpu_p50_ms": round(percentile(cpu_ordered, 0.50), 2),
            "cpu_p99_ms": round(percentile(cpu_ordered, 0.99), 2),
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "cpus": os.cpu_count(),
            "status": statuses, "quotes_located": located, "quotes": quotes}


def print_ask_report(report: dict[str, Any]) -> None:
    from rich.table import Table

    from cli.tables import print_table

    table = Table(title=f"offline /ask over {report['questions']} questions × "
                        f"{report['runs'] // report['questions']} ({report['blocks']} blocks, "
                        f"{report['store']})")
    for col in ("p50 ms", "p90 ms", "p99 ms", "mean ms", "max ms"):
        table.add_column(col, justify="right")
    table.add_row(*(f"{report[k]:.1f}" for k in ("p50_ms", "p90_ms", "p99_ms", "mean_ms",
                                                  "max_ms")))
    print_table(table)
    before, after = report["load_average"]
    console.print(f"CPU time of this process: p50 {report['cpu_p50_ms']:.1f} ms, p99 "
                  f"{report['cpu_p99_ms']:.1f} ms; load average {before:.2f} → {after:.2f} on "
                  f"{report['cpus']} CPUs (wall times grow with the load)", highlight=False)
    console.print(f"open (corpus + store + bundle): {report['open_ms']:.0f} ms; status "
                  f"{report['status']}; quotes located {report['quotes_located']}/"
                  f"{report['quotes']}", highlight=False)
