"""Naming people: one resolver from every id, name, alias and nickname (either script) to a person,
built once per load, and the closest names when a name is unknown.

Every reader goes through it (the API, the CLI, both providers), so a person named by their name
costs what a person named by their id costs: one normalization and one dictionary lookup, no
store read. An unknown name is answered from the same tables: the known names that contain it
or that it contains, then the closest by `difflib` among the names sharing a character with it
(no other name can reach the cutoff), so a miss costs no query per person either.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core.errors import NotFound
from core.text import normalize
from kb.knowledge.models import Person

if TYPE_CHECKING:
    from kb.knowledge.views import Pair

MAX_SUGGESTIONS = 5
SIMILARITY_CUTOFF = 0.4
"""difflib ratio below which a name is not suggested (one shared character of two is 0.5)."""
ID_CUTOFF = 0.5
"""difflib ratio below which an id is not suggested."""


@dataclass(frozen=True)
class NameEntry:
    """One way of naming a person: its match key, as written, and whose name it is."""

    key: str
    written: str
    person_id: str
    person_name: str
    primary: bool


def name_entries(person: Person) -> list[NameEntry]:
    """The person's name and aliases, each normalized key once (the name first)."""
    entries: list[NameEntry] = []
    seen: set[str] = set()
    for position, written in enumerate(person.all_names):
        key = normalize(written)
        if key and key not in seen:
            seen.add(key)
            entries.append(NameEntry(key, written, person.id, person.name, position == 0))
    return entries


def choose(name: str, matches: Sequence[NameEntry]) -> str:
    """The person id a name denotes among the entries sharing its key; a name is taken as a
    person's own name before anyone's alias. Ambiguity raises NotFound listing the candidates."""
    primary = {m.person_id for m in matches if m.primary}
    candidates = primary or {m.person_id for m in matches}
    if len(candidates) == 1:
        return next(iter(candidates))
    names = sorted({f"{m.person_name} ({m.person_id})" for m in matches
                    if m.person_id in candidates})
    raise NotFound(f"ambiguous person {name!r}; it names {', '.join(names)}", names,
                   sorted(candidates))


def _label(entry: NameEntry) -> str:
    return entry.person_name if entry.primary else f"{entry.written}（{entry.person_name}）"


class NameResolver:
    """Ids, names and aliases → person ids, and the closest names for a miss; immutable."""

    def __init__(self, entries: Iterable[NameEntry], ids: Iterable[str] = ()) -> None:
        self._ids = frozenset(ids)
        self._by_key: dict[str, list[NameEntry]] = {}
        for entry in entries:
            self._by_key.setdefault(entry.key, []).append(entry)
        self._index: tuple[dict[str, NameEntry], dict[str, set[str]]] | None = None
        self._sorted_ids: list[str] | None = None

    def _suggestion_index(self) -> tuple[dict[str, NameEntry], dict[str, set[str]]]:
        """One entry per key to show (a person's own name first) and the keys by character;
        made on the first miss (a lookup never needs them)."""
        if self._index is None:
            shown: dict[str, NameEntry] = {}
            for entry in sorted((e for group in self._by_key.values() for e in group),
                                key=lambda e: (not e.primary, e.person_id, e.key)):
                shown.setdefault(entry.key, entry)
            by_char: dict[str, set[str]] = {}
            for key in shown:
                for ch in key:
                    by_char.setdefault(ch, set()).add(key)
            self._index = (shown, by_char)
        return self._index

    @classmethod
    def of_people(cls, people: Iterable[Person]) -> NameResolver:
        people = list(people)
        return cls((entry for p in people for entry in name_entries(p)), (p.id for p in people))

    def __len__(self) -> int:
        """Distinct normalized names and aliases."""
        return len(self._by_key)

    @property
    def entries(self) -> list[NameEntry]:
        return [entry for group in self._by_key.values() for entry in group]

    @property
    def ids(self) -> frozenset[str]:
        return self._ids

    def to_rows(self) -> list[list[object]]:
        """The table as rows (key, written, person id, person name, primary): how a store
        keeps it; `from_rows` reads it back."""
        return [[e.key, e.written, e.person_id, e.person_name, e.primary] for e in self.entries]

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[object]], ids: Iterable[str]) -> NameResolver:
        return cls((NameEntry(str(k), str(w), str(p), str(n), bool(primary))
                    for k, w, p, n, primary in rows), ids)

    def by_name(self, name: str) -> str:
        """The id of the person a name or alias denotes (either script), or the one woman
        another title form of it names (甲皇后 for 甲后); NotFound suggests."""
        matches = self._by_key.get(normalize(name)) or self._by_variant(name)
        if not matches:
            raise self.unknown(name)
        return choose(name, matches)

    def _by_variant(self, name: str) -> list[NameEntry]:
        """The entries of another title form of a name nobody bears, when they name one person
        (`kb.knowledge.title_variants`)."""
        from kb.knowledge.title_variants import variant_forms

        found = [e for form in variant_forms(normalize(name)) for e in self._by_key.get(form, ())]
        return found if len({e.person_id for e in found}) == 1 else []

    def known(self, key: str) -> str | None:
        """`person_id` for a key that names exactly one person, else None, without working out
        suggestions (for fast paths that fall back to `person_id` when this says None)."""
        if key in self._ids:
            return key
        try:
            return choose(key, self._by_key.get(normalize(key), ()))
        except NotFound:
            return None

    def person_id(self, key: str) -> str:
        """The id of the person an id, a name or an alias denotes; NotFound suggests the closest
        names (or, for something that looks like an id, the closest ids)."""
        if key in self._ids:
            return key
        matches = self._by_key.get(normalize(key)) or self._by_variant(key)
        if matches:
            return choose(key, matches)
        raise self.unknown(key)

    def suggestions(self, name: str) -> list[str]:
        """Closest known names: names containing the query (or contained in it), then difflib
        among the names that share a character with it."""
        key = normalize(name)
        if not key:  # an empty or punctuation-only name is close to nothing
            return []
        shown, by_char = self._suggestion_index()
        sharing = sorted({k for ch in set(key) for k in by_char.get(ch, ())})
        containing = sorted((k for k in sharing if k in key or key in k),
                            key=lambda k: (abs(len(k) - len(key)), k))
        close = difflib.get_close_matches(key, sharing, n=MAX_SUGGESTIONS,
                                          cutoff=SIMILARITY_CUTOFF)
        chosen: dict[str, NameEntry] = {}  # one suggestion a person (a name was offered three
        for k in [*containing, *close]:  # times: as a name and two aliases, two of them one person)
            for entry in self._bearers(k, shown[k]):
                chosen.setdefault(entry.person_id, entry)
        entries = list(chosen.values())[:MAX_SUGGESTIONS]
        labels = [_label(e) for e in entries]
        return [f"{label} ({e.person_id})" if labels.count(label) > 1 else label
                for label, e in zip(labels, entries, strict=True)]  # two of one name: by their ids

    def _bearers(self, key: str, first: NameEntry) -> list[NameEntry]:
        """The entry shown for a key, then one for each other person who bears it (a name that
        is one person's own and another's alias: both are suggested)."""
        others = {e.person_id: e for e in sorted(self._by_key[key], key=lambda e: not e.primary)
                  if e.person_id != first.person_id}
        return [first, *others.values()]

    def close_ids(self, record_id: str) -> list[str]:
        if self._sorted_ids is None:
            self._sorted_ids = sorted(self._ids)
        return difflib.get_close_matches(record_id, self._sorted_ids, n=MAX_SUGGESTIONS,
                                         cutoff=ID_CUTOFF)

    def unknown_id(self, person_id: str) -> NotFound:
        """An unknown person id, with the closest known ids."""
        close = self.close_ids(person_id)
        hint = f"; closest: {', '.join(close)}" if close else ""
        return NotFound(f"unknown person {person_id!r}{hint}", close)

    def unknown(self, name: str) -> NotFound:
        if not normalize(name):
            return NotFound("person name: must not be empty", [])
        close = self.suggestions(name)
        if not close and name.isascii():
            close = self.close_ids(name)
        hint = f"; closest: {', '.join(close)}" if close else ""
        return NotFound(f"unknown person {name!r}{hint}", close)


class PairSource(Protocol):
    """What `pair_ids` needs of a provider (every `RelationProvider` has it)."""

    def person_id(self, key: str) -> str: ...

    def pair(self, a_id: str, b_id: str) -> Pair: ...


def pair_ids(provider: PairSource, a: str, b: str) -> tuple[str, str]:
    """The ids of two people named together. A name several people bear (two old women of one
    name, in two towns of one novel) is the one who shares the story with the other: the
    candidate with the most relations and shared events with them; with none or a tie, the
    ambiguity stands (NotFound listing the candidates)."""
    try:
        a_id = provider.person_id(a)
    except NotFound as exc:
        if not exc.candidates:
            raise
        b_id = provider.person_id(b)
        return _chosen(beside(provider.pair, exc.candidates, b_id), exc), b_id
    try:
        return a_id, provider.person_id(b)
    except NotFound as exc:
        if not exc.candidates:
            raise
        return a_id, _chosen(beside(provider.pair, exc.candidates, a_id), exc)


def beside(pair_of: Callable[[str, str], Pair], candidates: Iterable[str], other: str
           ) -> str | None:
    """Among people of one name, the one who shares the story with `other`: the most relations
    and shared events with them; None with none or a tie (the planner asks it too)."""
    weights = sorted(((len(p.relations) + len(p.shared_events), c)
                      for c in candidates for p in [pair_of(c, other)]), reverse=True)
    if not weights or not weights[0][0] or len(weights) > 1 and weights[0][0] == weights[1][0]:
        return None
    return weights[0][1]


def _chosen(found: str | None, ambiguity: NotFound) -> str:
    if found is None:
        raise ambiguity
    return found
