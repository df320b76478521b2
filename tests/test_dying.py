"""Whose death a sentence tells (kb.answering.dying), on invented people: the one named last
before the death word, read through passives, speech, doubts, objects and killings."""

from __future__ import annotations

import pytest

from kb.answering.dying import dies_in
from kb.answering.people_index import PeopleIndex
from kb.knowledge.models import Person

PEOPLE = PeopleIndex.build([Person(id="zhao", name="赵甲"), Person(id="qian", name="钱乙"),
                            Person(id="sun", name="孙夫人")])


@pytest.mark.parametrize(("sentence", "person", "dies"), [
    ("赵甲大叫一声而亡。", "zhao", True),
    ("赵甲引兵至城下。甲大叫一声而亡。", "zhao", True),          # the given name alone, opening
    ("赵甲被钱乙所杀，死于马下。", "zhao", True),                # 被钱乙: 钱乙 is the agent
    ("赵甲被钱乙所杀，死于马下。", "qian", False),
    ("赵甲嘱曰：“我死之后，汝可依计行之。”", "zhao", False),      # said, not told
    ("赵甲拔剑欲自刎。", "zhao", False),                        # a threat
    ("赵甲死战不退。", "zhao", False),                          # 死 of a manner
    ("赵甲连搠死数人。", "zhao", False),                        # others die
    ("钱乙大怒，拔剑杀甲。", "zhao", True),                      # a killing done to him
    ("钱乙誓杀赵甲。", "zhao", False),                          # a vow
    ("孙夫人乃弃钱乙于地，翻身投井而死。", "sun", True),          # 钱乙 is acted on
    ("孙夫人乃弃钱乙于地，翻身投井而死。", "qian", False),
])
def test_whose_death_a_sentence_tells(sentence: str, person: str, dies: bool) -> None:
    assert dies_in(sentence, person, PEOPLE) is dies


def test_a_death_word_without_a_name_is_said_of_the_one_named_before() -> None:
    assert dies_in("言讫而亡。", "zhao", PEOPLE, before="赵甲大叫曰：“奈何死乎！”")
    assert not dies_in("言讫而亡。", "zhao", PEOPLE)


def test_a_quoted_sentence_says_who_its_one_character_names_are() -> None:
    from kb.answering.short_names import short_names

    block = "赵甲与钱乙饮酒。钱乙出言不逊。甲大怒，拔剑杀乙。"
    assert short_names("甲大怒，拔剑杀乙。", block, PEOPLE) == [("甲", "zhao"), ("乙", "qian")]
    assert short_names("赵甲大怒，拔剑杀乙。", block, PEOPLE) == [("乙", "qian")]  # 赵甲 in full
    assert short_names("众皆大怒。", block, PEOPLE) == []
