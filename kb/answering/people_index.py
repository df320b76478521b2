"""Finding people inside questions: every name and alias (normalized, 2+ characters) → a person,
by longest match over the question."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.text import normalize, normalize_with_offsets
from kb.knowledge.models import Person

FOUND_CACHE = 4096


@dataclass
class PeopleIndex:
    """Normalized names and aliases → person id, for finding people inside questions."""

    people: dict[str, Person]
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, people: Iterable[Person]) -> PeopleIndex:
        """A person's own name always finds them; an alias finds its person only when no other
        person has it (an alias two people share, 张大哥 or 知府, names neither)."""
        index = cls({p.id: p for p in people})
        ordered = sorted(index.people.values(), key=lambda p: (p.origin != "curated", p.id))
        primary: dict[str, str] = {}
        holders: dict[str, set[str]] = {}
        for person in ordered:
            primary.setdefault(normalize(person.name), person.id)
            for name in person.aliases:
                holders.setdefault(normalize(name), set()).add(person.id)
        bearers: dict[str, list[str]] = {}
        for person in ordered:
            bearers.setdefault(normalize(person.name), []).append(person.id)
        index.homonyms = {k: tuple(ids) for k, ids in bearers.items() if len(ids) > 1}
        for key, person_id in primary.items():
            if len(key) >= 2:
                index.names[key] = person_id
        for key, ids in holders.items():
            if len(key) >= 2 and key not in index.names and len(ids) == 1:
                index.names[key] = next(iter(ids))
        index._add_title_variants()
        index.longest = max((len(k) for k in index.names), default=0)
        return index

    longest: int = 0
    homonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A name several people bear (two women called 甲婆) → their ids; the name finds the first of them, and
    the evidence step picks, in a pair, the one beside the other person."""
    _found: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict, repr=False)
    """Texts already searched (a question is searched by the planner, the evidence step and the
    composer; a record's text again for every question it answers). Bounded by `FOUND_CACHE`."""

    def _add_title_variants(self) -> None:
        """A woman found by another title form of her name (甲皇后 for 甲后) that nobody bears and
        that no two people's forms make (`kb.knowledge.title_variants`)."""
        from kb.knowledge.title_variants import variant_forms

        derived: dict[str, set[str]] = {}
        for key, person_id in self.names.items():
            for form in variant_forms(key):
                derived.setdefault(form, set()).add(person_id)
        for form, ids in derived.items():
            if form not in self.names and len(ids) == 1:
                self.names[form] = next(iter(ids))

    def find(self, question: str) -> list[tuple[str, str]]:
        """(person id, the matched text as written) in question order, each person once."""
        found = self._found.get(question)
        if found is None:
            found = tuple(self._search(question))
            if len(self._found) >= FOUND_CACHE:
                self._found.clear()
            self._found[question] = found
        return list(found)

    def _search(self, question: str) -> list[tuple[str, str]]:
        text, offsets = normalize_with_offsets(question)
        found: list[tuple[str, str]] = []
        seen: set[str] = set()
        i = 0
        while i < len(text):
            for length in range(min(self.longest, len(text) - i), 1, -1):
                person_id = self.names.get(text[i:i + length])
                if person_id:
                    if person_id not in seen:
                        seen.add(person_id)
                        found.append((person_id, question[offsets[i]:offsets[i + length - 1] + 1]))
                    i += length
                    break
            else:
                i += 1
        return found
