"""Query expansion for wording gaps: the other names of the people a question names (a name → the
forms the text calls the person by), and the corpus profile's map from the words readers use to the words
the novel uses (报仇 → 杀/搠/剜 …). Switchable by `KBX_QUERY_EXPANSION`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from core.text import normalize, to_simplified
from kb.knowledge.models import Person


def wording_expansions(question: str, wordings: Mapping[str, Sequence[str]]) -> list[str]:
    """The novel's words for the reader's words in the question (the corpus profile's map, applied
    when its key occurs; they join the lexical query, never replacing the question's own words)."""
    text = to_simplified(question)
    return [w for key, words in wordings.items() if key in text for w in words]


OTHER_FORMS = 2
"""Other forms added per person named, for people of a discovered lexicon (origin `extracted`):
the discovery lists a person's aliases most used first, so these are the forms the text calls
them by most; more would let a main character's many forms drown the question's own words. A
curated lexicon lists aliases in its readers' order, not by use, so its people add none."""


def alias_expansions(named: Iterable[tuple[Person, str]]) -> list[str]:
    """For each person the question names: their name when it is called by another form (a
    nickname → the name), and, written by their name, their first `OTHER_FORMS` other forms
    (甲乙 → 甲公, 丙; a discovered person only, see `OTHER_FORMS`), none
    contained in the written form or containing it (甲丙 adds nothing 丙 does not)."""
    found: list[str] = []
    for person, written in named:
        said = normalize(written)
        if said != normalize(person.name):
            found.append(person.name)
            continue
        if person.origin != "extracted":
            continue
        others = [a for a in person.aliases if len(normalize(a)) >= 2 and normalize(a) != said
                  and normalize(a) not in said and said not in normalize(a)]
        found += others[:OTHER_FORMS]
    return found


def expansions_for(question: str, named: Iterable[tuple[Person, str]],
                   wordings: Mapping[str, Sequence[str]], enabled: bool = True) -> list[str]:
    """Extra query phrases: canonical names for aliases, and the novel's wording for modern words."""
    if not enabled:
        return []
    return list(dict.fromkeys([*alias_expansions(named), *wording_expansions(question, wordings)]))
