"""Corpus reading and source blocks on the real novel; normalization and analyzers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import CorpusError
from core.text import normalize, normalize_with_offsets, to_simplified
from ingest.chunking import chunk_chapter, chunk_corpus
from ingest.corpus import Chapter, chinese_number, parse_chapter_range, read_corpus
from retrieval.analyzers import clean_query, ngram_terms, unigram_terms
from retrieval.bm25 import BM25Index
from retrieval.vectorized import ngram_postings, unigram_postings

pytest_plugins = ["tests.retrieval_fixtures"]


def test_whole_book_has_121_chapters_and_about_1600_blocks(chapters: list[Chapter]) -> None:
    assert [c.number for c in chapters] == list(range(121))
    blocks = chunk_corpus(chapters)
    assert 1400 <= len(blocks) <= 1800
    assert 50 <= sum(1 for b in blocks if 7 <= b.chapter <= 11) <= 65


def test_blocks_tile_each_chapter_exactly_with_ids_in_order(chapters: list[Chapter]) -> None:
    for chapter in chapters:
        blocks = chunk_chapter(chapter)
        assert "".join(b.text for b in blocks) == chapter.text
        assert [b.id for b in blocks] == [f"ch{chapter.number:03d}_chunk_{i:03d}"
                                          for i in range(1, len(blocks) + 1)]
        for before, after in zip(blocks, blocks[1:], strict=False):
            assert before.end == after.start
        for b in blocks:
            assert chapter.text[b.start:b.end] == b.text


def test_blocks_end_at_paragraph_or_sentence_ends(chapters: list[Chapter]) -> None:
    blocks = [b for c in chapters for b in chunk_chapter(c)]
    good = [b for b in blocks if b.text.endswith("\n") or b.end == len(b.text) + b.start
            and b.text[-1] in "。！？」』…" or b.text[-1] in "。！？」』…"]
    assert len(good) / len(blocks) > 0.98


def test_chunking_is_deterministic_and_sized(chapters: list[Chapter]) -> None:
    chapter = chapters[7]
    assert chunk_chapter(chapter, 600) == chunk_chapter(chapter, 600)
    assert all(len(b.text) <= 600 * 1.35 + 1 for b in chunk_chapter(chapter, 600))
    assert len(chunk_chapter(chapter, 300)) > len(chunk_chapter(chapter, 600))


def test_single_file_with_headings(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("序言一段。\n第一回　開篇\n話說天下大勢。\n第十二回　後來\n又一段。\n", encoding="utf-8")
    chapters = read_corpus(book)
    assert [(c.number, c.title) for c in chapters] == [(0, "引首"), (1, "第一回　開篇"),
                                                       (12, "第十二回　後來")]
    assert chapters[1].text == "話說天下大勢。"


@pytest.mark.parametrize("setup,message", [
    (lambda p: p / "missing", "no such file"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "no chapter files"),
    (lambda p: (p / "x.txt").write_bytes(b"\xff\xfe\x00bad") and p / "x.txt", "not UTF-8"),
    (lambda p: (p / "plain.txt").write_text("沒有回目的文字。") and p / "plain.txt", "no chapter heading"),
])
def test_bad_corpus_paths_name_the_file(tmp_path: Path, setup, message: str) -> None:  # type: ignore[no-untyped-def]
    path = setup(tmp_path)
    with pytest.raises(CorpusError, match=message) as info:
        read_corpus(path)
    assert str(path) in str(info.value)


def test_chinese_numbers_and_ranges() -> None:
    assert [chinese_number(x) for x in ("七", "十一", "二十", "一百零五", "一百二十", "42")] == [
        7, 11, 20, 105, 120, 42]
    assert parse_chapter_range("7-9,12") == {7, 8, 9, 12}
    with pytest.raises(CorpusError, match="--chapters"):
        parse_chapter_range("9-7")


def test_normalization_folds_script_punctuation_and_width() -> None:
    assert normalize("「林沖棒打洪教頭！」") == normalize("林冲棒打洪教头") == "林冲棒打洪教头"
    assert normalize("ＡＢ１") == "ab1"
    text, offsets = normalize_with_offsets("魯，達")
    assert text == "鲁达" and offsets == [0, 2]
    assert to_simplified("喫酒") == "吃酒"


def test_clean_query_drops_question_words() -> None:
    cleaned = clean_query("鲁智深和林冲是怎么认识的？")
    assert "怎么" not in cleaned and "林冲" in cleaned
    assert "林冲是" not in ngram_terms(cleaned)


def test_unigram_channel_drops_function_characters() -> None:
    assert unigram_terms("林冲的刀") == ["林", "冲", "刀"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("林冲鲁智深的了，。「」 a1"), max_size=40),
                min_size=1, max_size=5))
def test_vectorized_analyzers_equal_the_plain_ones(texts: list[str]) -> None:
    for analyzer, postings in ((ngram_terms, ngram_postings), (unigram_terms, unigram_postings)):
        plain = BM25Index.build([analyzer(t) for t in texts])
        fast = BM25Index.from_postings(*postings(texts), len(texts))
        for key, value in plain.to_arrays().items():
            assert (value == fast.to_arrays()[key]).all(), key
