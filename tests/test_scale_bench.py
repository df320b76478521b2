"""The N× corpus of the scale measurements, and `kbx bench retrieval` running every library on
the same queries, tokens and top-k (on five chapters, so that it stays quick)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.retrieval import run_benchmark
from core.settings import Settings
from ingest.corpus import Chapter, read_corpus
from ingest.scale import scaled_chapters, write_chapters

pytestmark = pytest.mark.slow  # a benchmark on the whole book

pytest_plugins = ["tests.retrieval_fixtures"]


def test_scaled_chapters_are_new_numbers_of_the_same_text(chapters: list[Chapter]) -> None:
    three = scaled_chapters(chapters, 3)
    assert len(three) == 3 * len(chapters)
    assert three[:len(chapters)] == chapters  # the first copy keeps its numbers
    numbers = [c.number for c in three]
    assert len(set(numbers)) == len(numbers) and numbers == sorted(numbers)
    assert [c.text for c in three[len(chapters):2 * len(chapters)]] == [c.text for c in chapters]
    with pytest.raises(ValueError):
        scaled_chapters(chapters, 0)


def test_written_scaled_corpus_reads_back(chapters: list[Chapter], tmp_path: Path) -> None:
    two = scaled_chapters([c for c in chapters if 7 <= c.number <= 8], 2)
    write_chapters(two, tmp_path)
    assert read_corpus(tmp_path) == two


@pytest.mark.slow
def test_bench_retrieval_same_queries_for_every_library(chapters: list[Chapter],
                                                       tmp_path: Path) -> None:
    write_chapters([c for c in chapters if 7 <= c.number <= 11], tmp_path / "corpus")
    report = run_benchmark(Settings(corpus=tmp_path / "corpus"), n_queries=60, scale=2,
                           builds=1, peak=True)
    assert report["blocks"] == 2 * 57 and report["queries"] == 60 and report["top_k"] == 10
    for lat in [*report["one_channel"].values(), report["fused"]["ours"],
                report["fused"]["bm25s_topk_rrf"]]:
        assert lat["n"] == 60  # every library on every query
    assert report["top10_agreement"] == {"bm25s": 1.0, "rank_bm25": 1.0}
    assert set(report["build_s"]) == {"ours_from_text", "python_tokens", "bm25s_from_tokens",
                                      "rank_bm25_from_tokens", "ours_both_channels_from_text"}
    assert report["ingest_peak_mib"] > 0
