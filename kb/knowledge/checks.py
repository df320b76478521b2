"""Structural checks of a knowledge bundle: unique ids, unique event order, references resolve."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.errors import BundleError
from kb.knowledge.models import ChapterSummary, Event, Person, Record, Relation, State

MAX_REPORTED = 40


@dataclass(frozen=True)
class Entry:
    """A record and where it was read: `path:line` on disk, `people#3` in memory."""

    record: Record
    where: str


@dataclass
class Problems:
    """Collects every problem so that one BundleError reports them all."""

    source: str
    items: list[str] = field(default_factory=list)

    def add(self, where: str, record_id: str, message: str) -> None:
        self.items.append(f"{where}: {record_id}: {message}")

    def raise_if_any(self) -> None:
        if not self.items:
            return
        shown = self.items[:MAX_REPORTED]
        more = len(self.items) - len(shown)
        tail = f"\n  … and {more} more" if more else ""
        raise BundleError(f"invalid knowledge bundle {self.source} ({len(self.items)} "
                          f"problem{'s' if len(self.items) > 1 else ''}):\n  "
                          + "\n  ".join(shown) + tail)


def _unique_ids(entries: list[Entry], problems: Problems) -> None:
    seen: dict[str, str] = {}
    for entry in entries:
        first = seen.setdefault(entry.record.id, entry.where)
        if first != entry.where:
            problems.add(entry.where, entry.record.id, f"duplicate id (first at {first})")


def _unique_order(entries: list[Entry], problems: Problems) -> None:
    seen: dict[int, str] = {}
    for entry in entries:
        if isinstance(entry.record, Event):
            first = seen.setdefault(entry.record.order, entry.record.id)
            if first != entry.record.id:
                problems.add(entry.where, entry.record.id,
                             f"event order {entry.record.order} already used by {first}")


def _event_problems(event: Event, people: set[str]) -> list[str]:
    found = []
    persons = event.person_ids
    for person in persons:
        if person not in people:
            found.append(f"participant {person!r} is not a person of the bundle")
    if len(set(persons)) != len(persons):
        found.append("a person is listed twice among the participants")
    return found


def _relation_problems(relation: Relation, people: set[str], events: set[str]) -> list[str]:
    found = [f"{end} {person!r} is not a person of the bundle"
             for end, person in (("source", relation.source), ("target", relation.target))
             if person not in people]
    if relation.source == relation.target:
        found.append("source and target are the same person")
    found += [f"event {event!r} is not an event of the bundle"
              for event in relation.events if event not in events]
    return found


def _state_problems(state: State, people: set[str]) -> list[str]:
    found = []
    if state.person not in people:
        found.append(f"person {state.person!r} is not a person of the bundle")
    if state.until_chapter is not None and state.until_chapter < state.chapter:
        found.append(f"until_chapter {state.until_chapter} is before chapter {state.chapter}")
    return found


def _record_problems(record: Record, people: set[str], events: set[str]) -> list[str]:
    if isinstance(record, Event):
        return _event_problems(record, people)
    if isinstance(record, Relation):
        return _relation_problems(record, people, events)
    if isinstance(record, State):
        return _state_problems(record, people)
    if isinstance(record, ChapterSummary) and record.id != f"ch{record.chapter:03d}":
        return [f"a chapter summary id must be ch{record.chapter:03d}"]
    return []


def check_structure(entries: list[Entry], problems: Problems) -> None:
    """Add a problem for every duplicate id or order and every reference that does not resolve."""
    _unique_ids(entries, problems)
    _unique_order(entries, problems)
    people = {e.record.id for e in entries if isinstance(e.record, Person)}
    events = {e.record.id for e in entries if isinstance(e.record, Event)}
    for entry in entries:
        for message in _record_problems(entry.record, people, events):
            problems.add(entry.where, entry.record.id, message)
