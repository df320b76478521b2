"""The passage reader's question words (kb.answering.passage_words), on the real 三国演义 text:
clauses are weighed apart, asking phrases never become content, and a word is the book's when it
is written in one block only or in a wording of the language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from core.settings import REPO_ROOT
from ingest.corpus import read_corpus
from kb.answering.passage_words import asking_clauses, clauses, never_written
from kb.knowledge.language import language
from retrieval.bm25 import lucene_idf
from retrieval.corpus import build_corpus

SANGUO = REPO_ROOT.parent / "shared" / "corpus" / "sanguo" / "zh-hans"
CHAPTERS = 40


def test_no_word_spans_a_comma() -> None:
    parts = clauses("煮酒论英雄那回，刘备吓得筷子都掉了，他是咋圆过去的？")
    assert len(parts) == 3
    assert not any("掉他" in p or "掉了他" in p for p in parts)


def test_the_clause_that_asks_is_told_from_its_setting() -> None:
    """甲去打乙，是谁射死了乙: the second clause asks, the first sets the scene."""
    parts = asking_clauses("翼德去打武陵，太守金旋败回城下，是谁在城头上一箭把他射死的？")
    assert [asks for _, asks in parts] == [False, False, True]


def test_asking_phrases_are_cut_before_their_words() -> None:
    assert not any("回事" in p for p in clauses("凤仪亭那场风波是怎么回事？"))
    assert not any("哪" in p for p in clauses("刘备骑着的卢马跳过的是哪条河？"))
    assert not any("地方" in p for p in clauses("庞统是在什么地方死的？", ("什么地方",)))


@pytest.fixture(scope="module")
def sanguo_ctx() -> Any:
    if not SANGUO.exists():
        pytest.skip("the 三国 corpus is not on this machine")
    chapters = [c for c in read_corpus(SANGUO) if c.number <= CHAPTERS]
    corpus = build_corpus(chapters, 600)
    retriever = corpus.retriever
    passages = SimpleNamespace(document_frequency=retriever.document_frequency,
                               n_docs=retriever.n_docs)
    wordings = {k: tuple(v) for k, v in language().wordings.items()}
    blocks = {b.id: b for b in corpus.blocks}
    return SimpleNamespace(passages=passages, block_of=blocks.get, blocks=blocks,
                           book=SimpleNamespace(profile=SimpleNamespace(wordings=wordings)))


def test_a_word_of_one_block_is_the_books(sanguo_ctx: Any) -> None:
    unseen = lucene_idf(1, sanguo_ctx.passages.n_docs) * 2.0
    assert sanguo_ctx.passages.document_frequency("淯水") == 1  # ch. 16, one block
    weights = {"淯水": unseen, "电脑": unseen}
    assert never_written(sanguo_ctx, weights) == ["电脑"]


def test_a_readers_word_is_the_books_in_its_wording(sanguo_ctx: Any) -> None:
    unseen = lucene_idf(1, sanguo_ctx.passages.n_docs) * 2.0
    assert sanguo_ctx.passages.document_frequency("尸体") == 0
    assert never_written(sanguo_ctx, {"尸体": unseen, "电脑": unseen}) == ["电脑"]


def test_a_particle_glued_to_a_word_is_not_the_word(sanguo_ctx: Any) -> None:
    unseen = lucene_idf(1, sanguo_ctx.passages.n_docs) * 2.0
    assert sanguo_ctx.passages.document_frequency("又认") == 0
    assert never_written(sanguo_ctx, {"又认": unseen}) == []  # 又 + 认: no word of its own
    assert never_written(sanguo_ctx, {"要背叛": unseen}) == []  # 背叛: once, ch. 36
    assert never_written(sanguo_ctx, {"要争风": unseen}) == ["要争风"]


def test_an_untold_act_between_two_people_is_asked_of_them() -> None:
    from kb.answering.kinds.untold_act import detect

    def plan(asks: str, ids: list[str]) -> Any:
        return SimpleNamespace(asks=asks, named_ids=ids)

    assert detect(plan("chapter", ["a", "b"]))
    assert not detect(plan("chapter", ["a"]))
    assert not detect(plan("relation", ["a", "b"]))  # what they are to each other is asked


def test_the_old_texts_words_reach_only_the_passage_reader() -> None:
    from kb.answering.passage_words import book_wordings

    ctx = SimpleNamespace(book=SimpleNamespace(profile=SimpleNamespace(
        wordings={"抓住": ("拿", "捉")})))
    assert book_wordings(ctx)["抓住"] == ("拿", "捉", "获")  # 被潘璋部将马忠所获
    assert "获" not in language().wordings.get("抓住", ())  # the records say 擒获 themselves


def test_an_act_told_once_of_others_is_not_told_of_the_asked_pair(sanguo_ctx: Any) -> None:
    from kb.answering.kinds.untold_act import _told_of_others
    from kb.knowledge.models import Person

    unseen = lucene_idf(1, sanguo_ctx.passages.n_docs) * 2.0
    people = {"a": Person(id="a", name="张飞", aliases=["翼德"]),
              "b": Person(id="b", name="刘备", aliases=["玄德"]),
              "c": Person(id="c", name="徐庶", aliases=["元直"])}

    def ctx(*ids: str) -> Any:
        return SimpleNamespace(**vars(sanguo_ctx), people=SimpleNamespace(people=people),
                               plan=SimpleNamespace(person_ids=list(ids)),
                               g=SimpleNamespace(packed=[], ranking=list(sanguo_ctx.blocks)))

    # ch. 36: 今在新野，助逆臣刘备，背叛朝廷 (of 徐庶, in his mother's letter's scene)
    assert _told_of_others(ctx("a", "b"), {"要背叛": unseen}) == ["背叛"]
    assert _told_of_others(ctx("c", "b"), {"要背叛": unseen}) == []
    assert _told_of_others(ctx("a", "b"), {"跑去": unseen}) == []  # a reader's word: 奔, 投
