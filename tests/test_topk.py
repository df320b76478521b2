"""The top-k selection (`retrieval.topk`, `BM25Index.top_for_ids`) against a full sort, on
inputs full of ties: the k-th place shared by many documents must go to the first of them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.analyzers import ANALYZERS, CODE_ANALYZERS
from retrieval.bm25 import BM25Index, term_code
from retrieval.retriever import query_codes
from retrieval.topk import top_among, top_of_dense


def full_sort(scores: np.ndarray, k: int) -> list[int]:
    """The reference order: positive scores, higher first, ties by position."""
    order = np.lexsort((np.arange(len(scores)), -scores))[:k]
    return [int(d) for d in order if scores[d] > 0]


# few distinct values (so many ties) and zeros (not matched)
dense_scores = st.lists(st.sampled_from([0.0, 0.0, 0.5, 1.0, 1.5, 2.25]), max_size=300)


@settings(max_examples=200, deadline=None)
@given(values=dense_scores, k=st.integers(0, 120))
def test_dense_selection_is_the_full_sort(values: list[float], k: int) -> None:
    scores = np.asarray(values, dtype=np.float64)
    docs, chosen = top_of_dense(scores, k)
    assert docs.tolist() == full_sort(scores, k)
    assert np.array_equal(chosen, scores[docs])


@settings(max_examples=200, deadline=None)
@given(values=dense_scores, k=st.integers(0, 120))
def test_selection_among_matched_is_the_full_sort(values: list[float], k: int) -> None:
    scores = np.asarray(values, dtype=np.float64)
    matched = np.flatnonzero(scores > 0)
    docs, _ = top_among(matched, scores[matched], k)
    assert docs.tolist() == full_sort(scores, k)


def test_a_tie_at_the_cut_goes_to_the_first_documents() -> None:
    scores = np.asarray([1.0] * 200 + [2.0] * 3 + [1.0] * 200)
    docs, _ = top_of_dense(scores, 10)
    assert docs.tolist() == [200, 201, 202, *range(7)]


words = st.sampled_from(["林冲", "鲁智深", "宋江", "武松", "杀", "救", "酒", "刀"])
# a handful of distinct documents, each repeated many times: every score is shared
repeated_docs = st.lists(st.lists(words, min_size=1, max_size=6), min_size=1, max_size=6)


@settings(max_examples=80, deadline=None)
@given(docs=repeated_docs, copies=st.integers(1, 40), query=st.lists(words, min_size=1,
                                                                       max_size=5),
       depth=st.sampled_from([1, 3, 10, 25, 100]))
def test_top_for_ids_is_the_full_sort(docs: list[list[str]], copies: int, query: list[str],
                                      depth: int) -> None:
    """Both ways of `top_for_ids` (a floor from a term with at least `depth` documents, or
    every matched document when no term has that many) give the order of a full sort."""
    index = BM25Index.build(docs * copies)
    ids = index.term_ids(np.asarray(sorted({term_code(t) for t in query}), dtype=np.int64))
    scores = index.scores_for_ids(ids)
    found, values = index.top_for_ids(ids, depth)
    assert found.tolist() == full_sort(scores, depth)
    assert np.array_equal(values, scores[found])


def test_top_for_ids_of_no_terms_or_no_depth_is_empty() -> None:
    index = BM25Index.build([["林冲"], ["宋江"]])
    assert index.top_for_ids(np.empty(0, dtype=np.int64), 10)[0].tolist() == []
    assert index.top_for_ids(index.term_ids(np.asarray([term_code("林冲")])), 0)[0].tolist() == []


texts = st.text(alphabet="林冲鲁智深的了是也，。ab 宋江㨄道", max_size=40)


@settings(max_examples=200, deadline=None)
@given(text=texts)
def test_code_analyzers_give_the_codes_of_the_terms(text: str) -> None:
    for name, analyzer in ANALYZERS.items():
        assert CODE_ANALYZERS[name](text) == [term_code(t) for t in analyzer(text)]


def test_query_codes_are_distinct_and_ascending() -> None:
    codes = query_codes("林冲林冲鲁智深")
    for name, analyzer in ANALYZERS.items():
        assert codes[name].tolist() == sorted({term_code(t) for t in analyzer("林冲林冲鲁智深")})
