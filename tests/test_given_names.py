"""A person named by their one-character given name alone (extract.given_names): read only after
the full name in the block, at a clause's start, before a speech verb or an action word, and
never when two people of the block share the character."""

from __future__ import annotations

from extract.cues import default_cues
from extract.given_names import given_name_mentions
from extract.names import Mention

CUES = default_cues()
FULL = {"lv_bu": "吕布", "li_su": "李肃", "zhang_bu": "张布"}


def _given(text: str, named: list[Mention], carried: tuple[str, ...] | list[str] = ()
           ) -> list[tuple[str, int]]:
    return [(m.person, m.start) for m in given_name_mentions(text, named, FULL, CUES, carried)]


def test_the_given_name_speaks_after_the_full_name() -> None:
    text = "吕布见了此马，大喜。布曰：“兄赐此龙驹。”"
    assert _given(text, [Mention("lv_bu", 0, 2, "吕布")]) == [("lv_bu", 10)]


def test_a_word_inside_a_clause_or_before_the_full_name_is_no_mention() -> None:
    assert _given("布曰：“好。”吕布见了此马", [Mention("lv_bu", 7, 9, "吕布")]) == []
    assert _given("吕布见了，遂置酒散布。", [Mention("lv_bu", 0, 2, "吕布")]) == []


def test_two_people_of_one_given_name_leave_it_unread() -> None:
    text = "吕布与张布相见。布曰：“好。”"
    named = [Mention("lv_bu", 0, 2, "吕布"), Mention("zhang_bu", 3, 5, "张布")]
    assert _given(text, named) == []


def test_a_person_named_in_full_in_the_block_before_is_carried() -> None:
    text = "是夜，布提刀径入帐中。"
    assert _given(text, [], carried=["lv_bu"]) == [("lv_bu", 3)]


def test_a_given_name_before_any_act_is_read_unless_it_makes_a_word() -> None:
    named = [Mention("lv_bu", 0, 2, "吕布")]
    assert _given("吕布引兵至。布大叫一声，杀入阵中。", named) == [("lv_bu", 6)]
    assert _given("吕布引兵至。布阵已定，众军皆喜。", named) == []  # 布阵 is a word


def test_a_given_name_owning_a_relative_named_after_it_is_read_inside_a_clause() -> None:
    text = "吕布引兵去了。早有人报知布妻严氏。"
    named = [Mention("lv_bu", 0, 2, "吕布"), Mention("yan_shi", 14, 16, "严氏")]
    assert _given(text, named) == [("lv_bu", 12)]
    # no name after the kin noun: 布妻 alone is not read inside the clause
    assert _given("吕布引兵去了。早有人报知布妻。", named[:1]) == []
    # the character makes a word with the one before it: 散布 is a word, not 布
    assert _given("吕布引兵去了。遂散布妻严氏之言。", [named[0], Mention("yan_shi", 11, 13, "严氏")]) == []
    # after a surname the character is another's given name: 凌布子 is 凌布's son, not 吕布's
    assert _given("吕布引兵去了。凌布子严氏亦至。", [named[0], Mention("yan_shi", 10, 12, "严氏")]) == []
