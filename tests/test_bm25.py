"""BM25 values written as the formula, a differential test, and invariants."""

from __future__ import annotations

import bm25s
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.baselines import lucene_okapi
from retrieval.bm25 import BM25Index, code_term, lucene_idf, term_code

DOCS = [["林冲", "鲁智深", "林冲"], ["鲁智深", "武松"], ["宋江"], ["林冲", "宋江", "宋江", "武松"]]


def test_idf_worked_by_hand() -> None:
    # N = 4 documents, df = 2: ln(1 + 2.5 / 2.5) = ln 2
    assert lucene_idf(2, 4) == pytest.approx(0.693147, abs=1e-6)
    # df = 1: ln(1 + 3.5 / 1.5) = ln(10/3)
    assert lucene_idf(1, 4) == pytest.approx(1.203973, abs=1e-6)


def test_score_worked_by_hand() -> None:
    """Document 0 of DOCS, k1 = 1.2, b = 0.75, average length 10 / 4 = 2.5, its length 3:
    length norm 1.2 × (0.25 + 0.75 × 3 / 2.5) = 1.38.
    林冲: tf 2, idf ln 2 → 0.693147 × 2 / (2 + 1.38) = 0.410146.
    鲁智深: tf 1, idf ln 2 → 0.693147 × 1 / (1 + 1.38) = 0.291238."""
    index = BM25Index.build(DOCS)
    assert index.scores(["林冲"])[0] == pytest.approx(0.410146, abs=1e-6)
    assert index.scores(["林冲", "鲁智深"])[0] == pytest.approx(0.410146 + 0.291238, abs=1e-6)
    assert index.scores(["林冲"])[2] == 0.0


def test_duplicate_query_terms_count_once() -> None:
    index = BM25Index.build(DOCS)
    assert np.allclose(index.scores(["宋江", "宋江"]), index.scores(["宋江"]))


def test_a_term_no_index_can_hold_is_absent_not_an_error() -> None:
    """A wording of four characters (a reader's word mapped to 盘缠使尽) is asked for its document
    frequency and scored like any query word: it is in no document."""
    index = BM25Index.build(DOCS)
    assert index.df("盘缠使尽") == 0
    assert np.allclose(index.scores(["林冲", "盘缠使尽"]), index.scores(["林冲"]))
    with pytest.raises(ValueError):
        term_code("盘缠使尽")


def test_agrees_with_bm25s_and_rank_bm25() -> None:
    ours = BM25Index.build(DOCS)
    theirs = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    theirs.index(DOCS, show_progress=False)
    okapi = lucene_okapi(DOCS, k1=1.2, b=0.75)
    for query in (["林冲"], ["宋江", "武松"], ["鲁智深", "林冲", "宋江"]):
        assert np.allclose(ours.scores(query), theirs.get_scores(query), atol=1e-5)
        assert np.allclose(ours.scores(query), okapi.get_scores(query))


def test_top_breaks_ties_by_position_and_drops_zero() -> None:
    index = BM25Index.build([["宋江"], ["宋江"], ["武松"]])
    assert [d for d, _ in index.top(["宋江"], 10)] == [0, 1]


def test_term_code_round_trip() -> None:
    for term in ("林", "林冲", "鲁智深"):
        assert code_term(term_code(term)) == term
    with pytest.raises(ValueError):
        term_code("鲁智深林冲")


cjk = st.text(alphabet=st.sampled_from("林冲鲁智深宋江武松杀救"), min_size=1, max_size=3)
docs_strategy = st.lists(st.lists(cjk, min_size=1, max_size=8), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(docs=docs_strategy, query=st.lists(cjk, min_size=1, max_size=5))
def test_explanation_parts_sum_to_score(docs: list[list[str]], query: list[str]) -> None:
    index = BM25Index.build(docs)
    scores = index.scores(query)
    for doc in range(len(docs)):
        explanation = index.explain(query, doc)
        assert explanation.value == pytest.approx(scores[doc])
        assert sum(p.value for p in explanation.details) == pytest.approx(scores[doc])


@settings(max_examples=60, deadline=None)
@given(docs=docs_strategy, query=st.lists(cjk, min_size=1, max_size=5))
def test_block_sharing_no_query_term_scores_zero(docs: list[list[str]], query: list[str]) -> None:
    index = BM25Index.build(docs)
    scores = index.scores(query)
    for doc, terms in enumerate(docs):
        if not set(terms) & set(query):
            assert scores[doc] == 0.0
        else:
            assert scores[doc] > 0.0


def test_matched_terms_many_and_frequencies_agree_with_one_by_one() -> None:
    docs = [["林冲", "智深", "林冲"], ["宋江"], ["智深", "禅杖"], []]
    index = BM25Index.build(docs)
    query = ["智深", "林冲", "没有", "智深", "禅杖"]
    many = index.matched_terms_many(query, [0, 1, 2, 3])
    assert many == {d: index.matched_terms(query, d) for d in range(4)}
    assert many[0] == ["智深", "林冲"] and many[3] == []  # query order, each term once
    assert index.document_frequencies(query) == [index.df(t) for t in query] == [2, 1, 0, 2, 1]
