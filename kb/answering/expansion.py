"""Query expansion for wording gaps: the canonical names of the people a question calls by another
form, and the corpus profile's map from the words readers use to the words the novel uses (报仇 →
杀/搠/剜 …). Switchable by `KBX_QUERY_EXPANSION`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from core.text import normalize, to_simplified
from kb.knowledge.models import Person


def wording_expansions(question: str, wordings: Mapping[str, Sequence[str]]) -> list[str]:
    """The novel's words for the reader's words in the question (the corpus profile's map, applied
    when its key occurs; they join the lexical query, never replacing the question's own words)."""
    text = to_simplified(question)
    return [w for key, words in wordings.items() if key in text for w in words]


def alias_expansions(named: Iterable[tuple[Person, str]]) -> list[str]:
    """The canonical name of each person the question calls by another form (a nickname → the name).

    Other aliases are not added: for a hub character they match nearly every block and drown the
    question's own words."""
    return [person.name for person, written in named
            if normalize(written) != normalize(person.name)]


def expansions_for(question: str, named: Iterable[tuple[Person, str]],
                   wordings: Mapping[str, Sequence[str]], enabled: bool = True) -> list[str]:
    """Extra query phrases: canonical names for aliases, and the novel's wording for modern words."""
    if not enabled:
        return []
    return list(dict.fromkeys([*alias_expansions(named), *wording_expansions(question, wordings)]))
