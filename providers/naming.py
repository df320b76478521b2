"""Name resolution shared by every provider: exact match after `normalize`, close names on a miss."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.errors import NotFound, QueryRejected
from core.text import normalize
from kb.knowledge.models import Person

MAX_SUGGESTIONS = 5
SIMILARITY_CUTOFF = 0.4
"""difflib ratio below which a name is not suggested (one shared character of two is 0.5)."""


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
    raise NotFound(f"ambiguous person {name!r}; it names {', '.join(names)}", names)


def _label(entry: NameEntry) -> str:
    return entry.person_name if entry.primary else f"{entry.written}（{entry.person_name}）"


def suggestions(name: str, entries: Iterable[NameEntry]) -> list[str]:
    """Closest known names: names containing the query (or contained in it), then difflib."""
    key = normalize(name)
    if not key:  # an empty or punctuation-only name is close to nothing
        return []
    by_key: dict[str, NameEntry] = {}
    for entry in sorted(entries, key=lambda e: (not e.primary, e.person_id, e.key)):
        by_key.setdefault(entry.key, entry)
    containing = sorted((k for k in by_key if k in key or key in k),
                        key=lambda k: (abs(len(k) - len(key)), k))
    close = difflib.get_close_matches(key, sorted(by_key), n=MAX_SUGGESTIONS,
                                      cutoff=SIMILARITY_CUTOFF)
    labels: list[str] = []
    for k in [*containing, *close]:
        label = _label(by_key[k])
        if label not in labels:
            labels.append(label)
    return labels[:MAX_SUGGESTIONS]


def unknown_person(name: str, entries: Iterable[NameEntry]) -> NotFound:
    close = suggestions(name, entries)
    hint = f"; closest: {', '.join(close)}" if close else ""
    if not normalize(name):
        return NotFound("person name: must not be empty", [])
    return NotFound(f"unknown person {name!r}{hint}", close)


def unknown_id(kind: str, record_id: str, known: Iterable[str]) -> NotFound:
    close = difflib.get_close_matches(record_id, sorted(known), n=MAX_SUGGESTIONS, cutoff=0.5)
    hint = f"; closest: {', '.join(close)}" if close else ""
    return NotFound(f"unknown {kind} {record_id!r}{hint}", close)


def check_hops(max_hops: int, limit: int) -> None:
    if not 1 <= max_hops <= limit:
        raise QueryRejected(f"max_hops must be between 1 and {limit}, not {max_hops}")
