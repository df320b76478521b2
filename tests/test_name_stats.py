"""The statistics of full names: what proves a surname-initial string a name when it does not
speak, or when the segmenter's dictionary knows it as a word (invented names: the rules are the
language's and the genre's)."""

from __future__ import annotations

from extract.name_stats import TextStats, _plain_name, _titled_name, full_names, listed_beside
from kb.knowledge.genre import genre
from kb.knowledge.surnames import surnames


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


def test_an_official_named_after_his_title_is_a_name_though_he_never_speaks() -> None:
    """太守刘焉: the title before proves the silent 刘焉, whose given name is a particle (焉)."""
    words, names = genre().people, surnames()
    texts = ["时太守刘焉出榜招军。", "太守刘焉令人迎之。", "刘焉大惊。", "众皆退，刘焉独坐。",
             "将军何往？", "将军何往乎？", "将军何往耶？", "将军何往也？"]
    stats = TextStats.of(texts, names, words)
    found = full_names(stats, names, words)
    assert "刘焉" in found
    assert "何往" not in found  # 何 is a word of grammar: 将军何往 is a phrase after an address


def test_a_titled_string_needs_a_name_s_parts() -> None:
    words = genre().people
    assert _titled_name("刘焉", "刘", words)
    assert not _titled_name("何往", "何", words)     # a pronoun for a surname
    assert not _titled_name("师自", "师", words)     # a preposition for a given name
    assert not _titled_name("林武师", "林", words)   # a word of the language for a given name


def test_a_ruler_named_after_his_state_s_mark_stands_whole() -> None:
    """吴主孙亮 in most of its uses: 主 before it is the title's end, not part of a longer unit."""
    words, names = genre().people, surnames()
    texts = ["吴主孙亮曰：“可。”", "吴主孙亮大怒。", "吴主孙亮问曰：“何如？”", "吴主孙亮谓左右曰：“退。”",
             "立孙亮为太子。"]
    stats = TextStats.of(texts, names, words)
    assert "孙亮" in full_names(stats, names, words)
