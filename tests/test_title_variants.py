"""A woman found by the title form a reader writes: the short title for each longer one of its
rank and back (kb.knowledge.title_variants), in the resolver and in questions."""

from __future__ import annotations

import pytest

from core.errors import NotFound
from kb.answering.people_index import PeopleIndex
from kb.knowledge.models import Person
from kb.knowledge.names import NameResolver
from kb.knowledge.title_variants import variant_forms

PEOPLE = [Person(id="mao", name="毛后"), Person(id="fu", name="伏皇后", aliases=["伏后"]),
          Person(id="dong", name="董妃"), Person(id="cao_a", name="曹后"),
          Person(id="cao_b", name="曹太后"), Person(id="he", name="何进")]


@pytest.mark.parametrize(("form", "variants"), [
    ("毛后", ["毛皇后", "毛太后"]), ("毛皇后", ["毛后"]), ("董妃", ["董贵妃", "董贵人"]),
    ("皇太后", []), ("皇后", []), ("何进", []),
])
def test_the_short_title_stands_for_each_longer_one_and_back(form: str, variants: list[str]) -> None:
    assert variant_forms(form) == variants


def test_the_resolver_finds_her_by_another_title() -> None:
    resolver = NameResolver.of_people(PEOPLE)
    assert resolver.person_id("毛皇后") == "mao"
    assert resolver.by_name("董貴妃") == "dong"  # either script
    assert resolver.person_id("曹太后") == "cao_b"  # her own name first
    with pytest.raises(NotFound):
        resolver.person_id("何皇后")  # nobody's form


def test_a_form_two_women_make_names_neither() -> None:
    resolver = NameResolver.of_people([Person(id="a", name="刘贵妃"), Person(id="b", name="刘贵人"),
                                       Person(id="c", name="张后"), Person(id="d", name="张太后")])
    with pytest.raises(NotFound):
        resolver.person_id("刘妃")  # both women's short form
    assert resolver.person_id("张皇后") == "c"  # 张太后 gives only 张后: 皇后 and 太后 never swap
    assert "刘妃" not in PeopleIndex.build(resolver_people()).names


def resolver_people() -> list[Person]:
    return [Person(id="a", name="刘贵妃"), Person(id="b", name="刘贵人")]


def test_questions_find_her_by_another_title() -> None:
    index = PeopleIndex.build(PEOPLE)
    assert [pid for pid, _ in index.find("毛皇后是怎么死的？")] == ["mao"]
    assert [pid for pid, _ in index.find("曹太后和曹后")] == ["cao_b", "cao_a"]
