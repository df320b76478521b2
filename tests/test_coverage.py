"""How much of a question a sentence holds (kb.answering.coverage), on made-up sentences."""

from __future__ import annotations

from kb.answering.coverage import Coverage, unseen_terms
from kb.answering.plan import Asserted, Plan
from kb.answering.refusals import _killed_by_another, asked_missing
from kb.answering.wording import asked_form
from retrieval.bm25 import lucene_idf


def test_a_question_word_may_stand_split_in_the_book_a_cut_bigram_may_not() -> None:
    covered = Coverage({"买刀": 1.0, "上那": 1.0}, words=["买刀"])
    assert covered("今日我也买了这口好刀") == 0.5  # 买 … 刀 within a clause: the asked word
    assert covered("扭回身，就鞍上把那枝箭") == 0.0  # 上那 is no word of the question
    assert covered("买了一壶酒，刀") == 0.0  # not across a clause


def test_no_word_is_read_across_a_clause_of_the_question() -> None:
    assert asked_form("搭了车，那妇人是谁？") == "搭了车 那妇人是谁"


def test_the_thing_asked_must_be_in_the_evidence_a_retelling_need_not() -> None:
    def missing(question: str, word: str, held: str) -> bool:
        return asked_missing(Plan("open", [], [], "", question=question), {word: (word,)}, held)

    assert missing("甲最喜欢吃什么水果", "水果", "甲吃了三碗酒")        # 什么水果: what is asked
    assert missing("甲的生日是哪一天", "生日", "甲那一天出门")           # 生日是哪: what is asked
    assert not missing("甲在哪家纸马铺买的", "纸马铺", "去纸马铺买了")   # held: answered
    assert not missing("甲半路上搭车的妇人是谁", "搭车", "妇人来求同载")  # a retelling of the scene


def test_unseen_terms_are_those_weighed_as_never_written() -> None:
    n_docs = 100
    rare = lucene_idf(1, n_docs)
    weights = {"妇人": rare / 2, "搭车": rare * 2.0}
    assert unseen_terms(weights, n_docs) == {"搭车"}


def test_one_death_has_one_killer() -> None:
    said = Asserted("kill", "打死", agent="yi", patient="jia")
    records = {("bing", "jia"): {("killed", "curated", "bing", "jia", True)}}
    assert _killed_by_another(said, ["jia", "yi", "bing"], records)       # 丙 killed 甲, not 乙
    assert not _killed_by_another(said, ["jia", "yi"], records)           # no other named killer
    assert not _killed_by_another(Asserted("kill", "打死", agent="bing", patient="jia"),
                                  ["jia", "yi", "bing"], records)         # the named killer is 丙


def test_a_question_of_one_character_weighs_its_characters() -> None:
    from kb.answering.coverage import character_weights, question_weights

    assert question_weights("甲葬在哪里？", ["甲"], lambda term: 0, 100) == {}
    assert character_weights("甲葬在哪里？", ["甲"]) == {"葬": 1.0}
