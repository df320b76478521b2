"""On a book built from its text, an act a question asserts may be missing from the records and
told in a passage: one clause that names the doer before the act and the one it is done to after
it counts, whoever else its sentence names; a plan or a fear (欲, 若) does not (invented names)."""

from __future__ import annotations

from kb.answering.people_index import PeopleIndex
from kb.answering.plan import Asserted
from kb.answering.refusals import _stated
from kb.knowledge.models import Person

PEOPLE = PeopleIndex.build([Person(id=i, name=n, origin="extracted") for i, n in
                            (("a", "钱甲"), ("b", "孙乙"), ("c", "周丙"))])
KILL = Asserted("kill", "杀", agent="a", patient="b")


def stated(sentence: str, asserted: Asserted = KILL) -> bool:
    return _stated(asserted, ["a", "b"], [sentence], PEOPLE)


def test_a_clause_of_the_two_tells_it_though_the_sentence_names_a_third() -> None:
    assert stated("钱甲既杀孙乙，传令起行，只留周丙守城。")


def test_the_roles_reversed_or_a_plan_do_not() -> None:
    assert not stated("孙乙既杀钱甲，传令起行，只留周丙守城。")
    assert not stated("钱甲欲杀孙乙，周丙苦谏乃止。")
    assert not stated("钱甲见了孙乙，周丙杀了一个军士。")
