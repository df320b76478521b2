"""Name suggestions as a reader types: names, aliases, nicknames and star names, either script.

The explorer's search box and the MCP tool `find_person` ask this, one keystroke at a time, so it
is an in-memory index built once per bundle (a few hundred people, a few thousand name forms)
rather than a store query. Matching is on `normalize`d keys, so a name typed in traditional script
finds the simplified one and the reverse; a person appears once, under the best of their matching
forms.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from core.text import normalize
from kb.knowledge.models import Person

MatchKind = Literal["name", "alias", "star"]
MAX_SUGGESTIONS = 50
SIMILARITY_CUTOFF = 0.6
"""difflib ratio for a typo's suggestions (one wrong character of two is 0.5, one extra of two 0.8)."""


class NameMatch(BaseModel):
    """A person a typed text may mean, and the form of their name that matched it."""

    id: str
    name: str
    matched: str = Field(description="the name, alias or star name that matched, as written")
    kind: MatchKind
    exact: bool = Field(description="the typed text is this form (after script folding)")
    aliases: list[str]
    group: str | None
    star: str | None = Field(default=None, description="the hero's star (天雄星), if one of the 108")
    first_chapter: int | None


@dataclass(frozen=True)
class _Form:
    key: str
    written: str
    kind: MatchKind
    person: Person


KIND_ORDER: dict[MatchKind, int] = {"name": 0, "alias": 1, "star": 2}
"""Between two equally good matches a person's own name wins over an alias, then a star name."""


class PeopleDirectory:
    """Every name form of every person, ranked for prefix-first suggestions.

    `stars` maps person ids to star names (天雄星); `weights` (e.g. mentions in the book) breaks
    ties so that the better-known of two people sharing a surname comes first when the reader has
    typed only that surname."""

    def __init__(self, people: Iterable[Person], stars: Mapping[str, str] | None = None,
                 weights: Mapping[str, float] | None = None) -> None:
        self._stars = dict(stars or {})
        self._weights = dict(weights or {})
        self._forms: list[_Form] = []
        for person in people:
            written: list[tuple[str, MatchKind]] = [(person.name, "name")]
            written += [(alias, "alias") for alias in person.aliases]
            if person.id in self._stars:
                written.append((self._stars[person.id], "star"))
            seen: set[str] = set()
            for text, kind in written:
                key = normalize(text)
                if key and key not in seen:
                    seen.add(key)
                    self._forms.append(_Form(key, text, kind, person))
        self._keys = sorted({form.key for form in self._forms})

    def __len__(self) -> int:
        return len({form.person.id for form in self._forms})

    def suggest(self, text: str, limit: int = 10) -> list[NameMatch]:
        """People whose name forms are, start with or contain the typed text, in that order; then
        names inside the text and close spellings (so a typo still gets suggestions); each
        group by kind, weight and length. Empty text: nothing."""
        query = normalize(text)
        if not query:
            return []
        best: dict[str, tuple[tuple[int, int, float, int, str], _Form]] = {}
        close = set(difflib.get_close_matches(query, self._keys, n=MAX_SUGGESTIONS,
                                              cutoff=SIMILARITY_CUTOFF))
        for form in self._forms:
            if form.key == query:
                place = 0
            elif form.key.startswith(query):
                place = 1
            elif query in form.key:
                place = 2
            elif len(form.key) >= 2 and form.key in query:
                place = 3  # a name inside what was typed (a doubled character)
            elif form.key in close:
                place = 4
            else:
                continue
            rank = (place, KIND_ORDER[form.kind], -self._weights.get(form.person.id, 0.0),
                    len(form.key), form.person.id)
            current = best.get(form.person.id)
            if current is None or rank < current[0]:
                best[form.person.id] = (rank, form)
        ordered = sorted(best.values(), key=lambda item: item[0])
        return [self._match(form, rank[0] == 0)
                for rank, form in ordered[:max(0, min(limit, MAX_SUGGESTIONS))]]

    def _match(self, form: _Form, exact: bool) -> NameMatch:
        person = form.person
        return NameMatch(id=person.id, name=person.name, matched=form.written, kind=form.kind,
                         exact=exact, aliases=person.aliases, group=person.group,
                         star=self._stars.get(person.id), first_chapter=person.first_chapter)
