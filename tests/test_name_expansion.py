"""Search expands a name to the person's other forms: for a discovered person, the forms the text
uses most (their aliases come most used first); a curated person adds only the name for an alias."""

from __future__ import annotations

from kb.answering.expansion import OTHER_FORMS, alias_expansions
from kb.knowledge.models import Person


def _person(origin: str) -> Person:
    return Person(id="zhao_yi", name="赵乙", aliases=["赵公", "子丙", "赵子丙", "赵将军"],
                  confidence=0.9, origin=origin)


def test_a_discovered_name_brings_its_most_used_forms() -> None:
    person = _person("extracted")
    assert alias_expansions([(person, "赵乙")]) == ["赵公", "子丙"][:OTHER_FORMS]


def test_an_alias_brings_the_name_only() -> None:
    assert alias_expansions([(_person("extracted"), "子丙")]) == ["赵乙"]


def test_a_curated_name_adds_nothing() -> None:
    assert alias_expansions([(_person("curated"), "赵乙")]) == []
