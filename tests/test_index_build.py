"""The batch-by-batch index build (retrieval.index_build) against the one-sort reference
(`BM25Index.from_postings`), and indexes saved and opened memory-mapped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.text import to_simplified
from ingest.chunking import chunk_corpus
from ingest.corpus import Chapter
from retrieval.bm25 import BM25Index
from retrieval.corpus import load_corpus, load_index, save_corpus, save_index
from retrieval.index_build import batches, build_channel
from retrieval.retriever import Retriever
from retrieval.vectorized import CHANNEL_POSTINGS

pytestmark = pytest.mark.slow  # indexes of the whole book

pytest_plugins = ["tests.retrieval_fixtures"]


def _same(a: BM25Index, b: BM25Index) -> None:
    left, right = a.to_arrays(), b.to_arrays()
    assert left.keys() == right.keys()
    for key in left:
        assert np.array_equal(left[key], right[key]), key


@pytest.fixture(scope="module")
def texts(chapters: list[Chapter]) -> list[str]:
    return [to_simplified(b.text) for b in chunk_corpus(chapters, 600)]


@pytest.mark.parametrize("channel", sorted(CHANNEL_POSTINGS))
@pytest.mark.parametrize("max_chars", [1 << 20, 40_000, 1])
def test_batches_build_the_reference_index_on_the_whole_book(texts: list[str], channel: str,
                                                              max_chars: int) -> None:
    postings = CHANNEL_POSTINGS[channel]
    reference = BM25Index.from_postings(*postings(texts), len(texts))
    _same(build_channel(texts, postings, max_chars=max_chars), reference)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="林冲鲁智深，。ab 的了", max_size=30), min_size=1, max_size=12),
       st.integers(min_value=1, max_value=40))
def test_any_documents_any_batch_size(documents: list[str], max_chars: int) -> None:
    for postings in CHANNEL_POSTINGS.values():
        reference = BM25Index.from_postings(*postings(documents), len(documents))
        _same(build_channel(documents, postings, max_chars=max_chars), reference)


def test_batches_cover_every_document_once() -> None:
    texts = ["x" * n for n in (5, 1, 9, 3, 3, 20, 2)]
    ranges = list(batches(texts, max_chars=8))
    assert ranges[0][0] == 0 and ranges[-1][1] == len(texts)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    assert all(end > start for start, end in ranges)


def test_saved_index_opens_memory_mapped_and_scores_alike(whole_book_index: BM25Index,
                                                          tmp_path: Path) -> None:
    save_index(whole_book_index.to_arrays(), tmp_path / "index_ngram")
    opened = load_index(tmp_path / "index_ngram")
    assert isinstance(opened.posting_docs.base, np.memmap)  # shared pages, not a copy
    _same(opened, whole_book_index)
    terms = ["林冲", "鲁智深", "智深", "菜园"]
    assert np.array_equal(opened.scores(to_simplified(" ".join(terms)).split()),
                          whole_book_index.scores(terms))


@pytest.fixture(scope="module")
def whole_book_index(texts: list[str]) -> BM25Index:
    return build_channel(texts, CHANNEL_POSTINGS["ngram"])


def test_a_saved_store_answers_as_the_built_one(chapters: list[Chapter], tmp_path: Path) -> None:
    few = [c for c in chapters if 7 <= c.number <= 9]
    blocks = chunk_corpus(few, 600)
    from retrieval.corpus import Corpus

    built = Corpus({c.number: c for c in few}, Retriever.build(blocks))
    save_corpus(built, tmp_path / "blocks", {"chapters": [7, 8, 9]})
    opened = load_corpus(tmp_path / "blocks")
    for question in ("林冲和鲁智深怎么认识", "野猪林", "高太尉"):
        assert opened.retriever.rank(question).fused == built.retriever.rank(question).fused
    assert opened.folds.get(8) is not None
    assert opened.folds.get(8).text == built.folds.get(8).text  # type: ignore[union-attr]
