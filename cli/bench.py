"""Benchmark commands (registered on `kbx bench`)."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.common import handle_errors, print_json, settings


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("retrieval")
    @handle_errors
    def bench_retrieval(
        json_out: Annotated[bool, typer.Option("--json")] = False,
        queries: Annotated[int, typer.Option("--queries", min=50)] = 500,
        scale: Annotated[int, typer.Option(
            "--scale", min=1, max=64, help="repeat the chapters N times (new numbers)")] = 1,
        builds: Annotated[int, typer.Option("--builds", min=1, help="builds per library")] = 3,
        peak: Annotated[bool, typer.Option(
            "--peak/--no-peak", help="measure the ingest peak memory in a child process")] = True,
    ) -> None:
        """Build time, top-10 latency and the fused pipeline beside bm25s and rank_bm25 on the
        same blocks, tokens and queries; `--scale N` on an N× corpus."""
        from benchmarks.retrieval import print_report, run_benchmark

        report = run_benchmark(settings(), n_queries=queries, scale=scale, builds=builds,
                               peak=peak)
        if json_out:
            print_json(report)
        else:
            print_report(report)
