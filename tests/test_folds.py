"""Folding for matching: the numpy path equals the character loop, chapter folds are saved at
ingest and read back, and quotes are placed the same with or without them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from core.text import _fold_loop, _fold_numpy, fold_with_offsets, normalize_with_offsets
from ingest.chunking import Block
from ingest.corpus import Chapter
from ingest.folds import ChapterFolds
from ingest.locate import QuoteLocator
from kb.knowledge.bundle import KnowledgeBundle

pytest_plugins = ["tests.retrieval_fixtures"]

CHARS = st.sampled_from(list("林沖魯達，。！「」 \n\tＡＢ１ａbc9é㨄丨﹏—…・") + ["\u3000", "\ufeff"])


@given(st.lists(CHARS, max_size=400).map("".join))
def test_numpy_fold_equals_the_loop(text: str) -> None:
    folded, offsets = _fold_numpy(text)
    assert (folded, offsets.tolist()) == _fold_loop(text)


def test_whole_chapters_fold_alike(chapters: list[Chapter]) -> None:
    for chapter in chapters[::10]:
        folded, offsets = fold_with_offsets(chapter.text)
        assert (folded, offsets.tolist()) == normalize_with_offsets(chapter.text)


def test_folds_saved_and_read_back(chapters: list[Chapter], tmp_path: Path) -> None:
    few = chapters[7:10]
    ChapterFolds.compute(few).write(tmp_path, [c.number for c in few])
    read = ChapterFolds.read(tmp_path)
    for chapter in few:
        fold = read.get(chapter.number)
        assert fold is not None
        text, offsets = normalize_with_offsets(chapter.text)
        assert fold.text == text and np.array_equal(fold.offsets, offsets)
    assert read.get(999) is None


def test_quotes_placed_alike_with_saved_folds(kb_blocks: list[Block], kb_chapters: list[Chapter],
                                              kb_mini_bundle: KnowledgeBundle,
                                              tmp_path: Path) -> None:
    ChapterFolds.compute(kb_chapters).write(tmp_path, [c.number for c in kb_chapters])
    plain, saved = QuoteLocator(kb_blocks), QuoteLocator(kb_blocks, ChapterFolds.read(tmp_path))
    refs = [ref for record in kb_mini_bundle.records() for ref in record.sources]
    assert refs
    for ref in refs:
        assert saved.locate(ref.quote, ref.chapter) == plain.locate(ref.quote, ref.chapter)


def test_a_fold_that_does_not_fit_the_blocks_is_not_used(kb_blocks: list[Block],
                                                         kb_chapters: list[Chapter]) -> None:
    wrong = ChapterFolds(texts={c.number: c.text + "多出来的字" for c in kb_chapters})
    located = QuoteLocator(kb_blocks, wrong).locate("林沖大喜，就當結義智深為兄", 7)
    assert located == QuoteLocator(kb_blocks).locate("林沖大喜，就當結義智深為兄", 7)
