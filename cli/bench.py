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
    ) -> None:
        """Index build and query latency on the whole book, against rank_bm25 and bm25s."""
        from retrieval.benchmark import print_report, run_benchmark

        report = run_benchmark(settings(), n_queries=queries)
        if json_out:
            print_json(report)
        else:
            print_report(report)
