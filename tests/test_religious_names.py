"""A religious name + a title of the genre is a person; a count or a post before the title, or
a piece of a shorter form, is none (invented names)."""

from __future__ import annotations

from extract.religious_names import religious_names


def test_a_religious_name_and_title_used_often_is_a_person() -> None:
    texts = ["寺中乙丙长老说法。乙丙长老道：善哉。"] * 2 + ["一个道人来。"] * 4 + \
        ["那时丁真人道：可。", "见丁真人。", "是丁真人。", "丁真人曰：去。"] * 2
    found = religious_names(texts, ("长老", "道人", "真人"), barred="一那")
    assert set(found) == {"乙丙长老"}  # 一个道人: a count; 时丁真人, 见丁真人: pieces of 丁真人
