"""The statistics of full names: what proves a surname-initial string a name when it does not
speak, or when the segmenter's dictionary knows it as a word (invented names: the rules are the
language's and the genre's)."""

from __future__ import annotations

from extract.name_stats import listed_beside


def test_a_list_of_people_counts_its_other_items() -> None:
    texts = ["钱甲、孙乙、李丙同至。", "孙乙、钱甲引兵。", "城中有粮、钱甲。"]
    listed = listed_beside(texts, {"钱甲"}, {"孙乙", "李丙", "城中有粮"})
    assert listed["孙乙"] == 2
    assert listed["李丙"] == 0  # beside 孙乙, who is no accepted name (yet)
    assert listed["城中有粮"] == 0  # four characters: no name's length
