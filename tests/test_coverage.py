"""How much of a question a sentence holds (kb.answering.coverage), on made-up sentences."""

from __future__ import annotations

from kb.answering.coverage import Coverage


def test_a_question_word_may_stand_split_in_the_book_a_cut_bigram_may_not() -> None:
    covered = Coverage({"买刀": 1.0, "上那": 1.0}, words=["买刀"])
    assert covered("今日我也买了这口好刀") == 0.5  # 买 … 刀 within a clause: the asked word
    assert covered("扭回身，就鞍上把那枝箭") == 0.0  # 上那 is no word of the question
    assert covered("买了一壶酒，刀") == 0.0  # not across a clause
