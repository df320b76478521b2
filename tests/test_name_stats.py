"""The statistics of full names: what proves a surname-initial string a name when it does not
speak, or when the segmenter's dictionary knows it as a word (invented names: the rules are the
language's and the genre's)."""

from __future__ import annotations

from extract.name_stats import _plain_name, listed_beside
from kb.knowledge.genre import genre


def test_a_list_of_people_counts_its_other_items() -> None:
    texts = ["钱甲、孙乙、李丙同至。", "孙乙、钱甲引兵。", "城中有粮、钱甲。"]
    listed = listed_beside(texts, {"钱甲"}, {"孙乙", "李丙", "城中有粮"})
    assert listed["孙乙"] == 2
    assert listed["李丙"] == 0  # beside 孙乙, who is no accepted name (yet)
    assert listed["城中有粮"] == 0  # four characters: no name's length


def test_a_surname_and_a_character_no_dictionary_knows_is_a_plain_name() -> None:
    words = genre().people
    assert _plain_name("蔡阳", "蔡", words)          # a general who only fights
    assert not _plain_name("于中", "于", words)      # 于 is a preposition before it
    assert not _plain_name("何也", "何", words)      # a function character for a given name
    assert not _plain_name("方出", "方", words)      # a verb for a given name
    assert not _plain_name("吴军", "吴", words)      # a body of men
