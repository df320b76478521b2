"""A chapter window (`Retriever.subset`) answers exactly as an index built over its chapters.

The window reads the whole book's index through a mask (`retrieval.window`); the reference is
what `subset` did before: `Retriever.build` over the window's blocks. Every question of the dev
sets, over windows of one chapter to the whole book, must give the same trace: the same
candidates in the same order, the same scores to the last bit, the same matched and known
terms, the same packing; with `explain`, the same term-by-term explanations.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from retrieval.bm25 import BM25Index
from retrieval.corpus import Corpus, load_corpus, save_corpus
from retrieval.retriever import Retriever, SearchOptions
from retrieval.window import WindowIndex

pytest_plugins = ["tests.retrieval_fixtures"]

QUESTIONS = Path(__file__).resolve().parent.parent / "eval" / "questions"
WINDOWS = [range(7, 12), range(1, 31), range(15, 71), range(38, 109), range(120, 121),
           [3, 9, 50, 51, 52, 118], range(1, 121)]


def _questions() -> list[str]:
    found = []
    for name in ("dev_ch7_11.jsonl", "dev_book.jsonl"):
        with (QUESTIONS / name).open(encoding="utf-8") as lines:
            found += [json.loads(line)["question"] for line in lines if line.strip()]
    return list(dict.fromkeys(found))


def _trace(retriever: Retriever, question: str, options: SearchOptions) -> dict[str, object]:
    return retriever.search(question, options).model_dump(exclude={"elapsed_ms"})


@pytest.fixture(scope="module")
def saved(whole_book: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """The whole book as the service reads it: saved, then opened memory-mapped."""
    directory = tmp_path_factory.mktemp("store") / "blocks"
    save_corpus(whole_book, directory, {"chapters": sorted(whole_book.chapters)})
    return load_corpus(directory)


@pytest.mark.parametrize("selected", WINDOWS, ids=lambda w: f"{min(w)}-{max(w)}x{len(w)}")
def test_a_window_ranks_as_an_index_built_over_its_chapters(saved: Corpus,
                                                             selected: range | list[int]) -> None:
    built = Retriever.build([b for b in saved.blocks if b.chapter in set(selected)])
    window = saved.retriever.subset(selected)
    assert all(isinstance(i, WindowIndex) for i in window.indexes.values())
    assert [b.id for b in window.blocks] == [b.id for b in built.blocks]
    questions = _questions()
    assert len(questions) > 40
    for strategy in ("rrf", "ngram", "unigram"):
        options = SearchOptions(strategy=strategy)
        for question in questions:
            assert _trace(window, question, options) == _trace(built, question, options), \
                (strategy, question)


def test_explanations_and_statistics_are_the_windows(saved: Corpus) -> None:
    chapters = range(20, 41)
    built = Retriever.build([b for b in saved.blocks if b.chapter in set(chapters)])
    window = saved.retriever.subset(chapters)
    options = SearchOptions(explain=True)
    for question in _questions()[:12]:
        assert _trace(window, question, options) == _trace(built, question, options), question
    for term in ("林冲", "宋江", "梁山泊", "一个", "不存在的词"[:3]):
        assert window.document_frequency(term) == built.document_frequency(term)
    assert window.n_docs == built.n_docs < saved.retriever.n_docs


def test_a_window_of_a_window_reads_the_index_underneath(saved: Corpus) -> None:
    outer = saved.retriever.subset(range(10, 61))
    inner = outer.subset(range(30, 41))
    direct = saved.retriever.subset(range(30, 41))
    for index in inner.indexes.values():
        assert isinstance(index, WindowIndex) and isinstance(index.index, BM25Index)
    options = SearchOptions()
    for question in _questions()[:10]:
        assert _trace(inner, question, options) == _trace(direct, question, options)


def test_a_window_shares_the_postings_it_reads(saved: Corpus) -> None:
    """Nothing proportional to the postings is copied: the window holds the index itself."""
    window = saved.retriever.subset(range(1, 121))
    for name, index in window.indexes.items():
        assert isinstance(index, WindowIndex)
        assert index.index is saved.retriever.indexes[name]
        assert np.shares_memory(index.index.posting_docs,
                                saved.retriever.indexes[name].posting_docs)  # type: ignore[attr-defined]


def test_chapters_outside_the_corpus_give_an_empty_window(saved: Corpus) -> None:
    window = saved.retriever.subset([999])
    assert window.n_docs == 0
    assert window.search("林冲").candidates == []
