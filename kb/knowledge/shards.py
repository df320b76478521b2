"""Curated knowledge written chapter by chapter: one reviewable shard per chapter, assembled here.

A shard is `shards/chNNN.jsonl` in a bundle directory: one record a line, each tagged with
`"record"` (person, event, relation, state or chapter). Readers write chapters side by side, so
two record kinds may recur across shards and are merged:

- a **person** line for the same id in several shards (each reader introduces the people of their
  chapters): the names must agree; aliases are united in order, the earliest `first_chapter` and
  the longest profile are kept, sources follow in chapter order;
- a **relation** line for the same id (a later chapter adds what changed it): sources are
  united in chapter order, so the first source stays where the relation begins; chapters and
  events are united; descriptions are joined.

People that shards refer to without a line of their own come from the corpus lexicon
(`lexicon.jsonl`). Events, states and chapter summaries are unique. Every problem is reported as
`shards/chNNN.jsonl:line: record-id: message`, all at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from core.text import to_simplified
from core.utf8 import read_utf8, utf8_problem
from ingest.chunking import Block
from kb.knowledge.checks import Entry, Problems
from kb.knowledge.models import ChapterSummary, Event, Person, Relation, SourceRef, State
from kb.knowledge.roles import RoleVocabulary, read_roles

SHARD_DIR = "shards"
LEXICON_FILE = "lexicon.jsonl"
SHARD_MODELS: dict[str, type[BaseModel]] = {
    "person": Person, "event": Event, "relation": Relation, "state": State,
    "chapter": ChapterSummary,
}
VAGUE_TYPES = frozenset({"acquaintance", "colleague"})


def has_shards(directory: Path) -> bool:
    return (directory / SHARD_DIR).is_dir()


@dataclass
class _Read:
    """Every shard line parsed and checked on its own, before merging."""

    people: dict[str, list[Entry]] = field(default_factory=dict)
    relations: dict[str, list[Entry]] = field(default_factory=dict)
    unique: list[Entry] = field(default_factory=list)


def chapter_texts(blocks: Iterable[Block]) -> dict[int, str]:
    """Each chapter's text rebuilt from its blocks at their offsets (gaps are line breaks)."""
    parts: dict[int, list[Block]] = {}
    for block in blocks:
        parts.setdefault(block.chapter, []).append(block)
    texts = {}
    for chapter, chunks in parts.items():
        chunks.sort(key=lambda b: b.start)
        text: list[str] = []
        at = 0
        for b in chunks:
            text.append("\n" * max(0, b.start - at))
            text.append(b.text[max(0, at - b.start):])
            at = max(at, b.end)
        texts[chapter] = "".join(text)
    return texts


def _verbatim_problems(sources: list[SourceRef], texts: Mapping[int, str]) -> list[str]:
    """A curated quote is copied from its chapter: found there exactly, and exactly once."""
    found = []
    for n, ref in enumerate(sources):
        if ref.chapter is None:
            found.append(f"sources[{n}]: a curated quote names its chapter")
            continue
        text = texts.get(ref.chapter)
        if text is None:
            continue  # a chapter outside the corpus read: the locator reports it
        count = text.count(ref.quote)
        if count == 0:
            found.append(f"sources[{n}]: quote not verbatim in chapter {ref.chapter}: "
                         f"{ref.quote[:24]!r}")
        elif count > 1:
            found.append(f"sources[{n}]: quote occurs {count} times in chapter {ref.chapter}; "
                         f"make it unique: {ref.quote[:24]!r}")
    return found


UNDIRECTED_TYPES = frozenset({"sworn_brothers", "spouse", "siblings", "family", "in_law", "lovers",
                              "friend", "enemy", "fought", "ally", "colleague", "acquaintance"})
"""Relation types with no direction: their two people stand in alphabetical order."""


def relation_id(source: str, target: str, type_: str) -> str:
    """rel_<source>_<target>_<type>; for an undirected type the two ids in alphabetical order."""
    a, b = sorted((source, target)) if type_ in UNDIRECTED_TYPES else (source, target)
    return f"rel_{a}_{b}_{type_}"


def _line_problems(record: BaseModel, chapter: int, roles: RoleVocabulary) -> list[str]:
    found = []
    if isinstance(record, Relation):
        chapters = [s.chapter or 0 for s in record.sources]
        if chapters != sorted(chapters):
            found.append("sources out of chapter order: the first source is where it begins")
        expected = relation_id(record.source, record.target, record.type)
        if record.id != expected:
            found.append(f"a relation's id says who, whom and what: {expected}")
        if record.type in UNDIRECTED_TYPES and record.directed:
            found.append(f"{record.type} has no direction: directed must be false")
    elif isinstance(record, Event):
        if record.chapter != chapter:
            found.append(f"event of chapter {record.chapter} in the shard of chapter {chapter}")
        found += [f"role {p.role!r} of {p.person} is not in the role vocabulary (roles.json)"
                  for p in record.participants if not roles.knows(p.role)]
    elif isinstance(record, State | ChapterSummary) and record.chapter != chapter:
        found.append(f"record of chapter {record.chapter} in the shard of chapter {chapter}")
    return found


def _read_shards(directory: Path, texts: Mapping[int, str], roles: RoleVocabulary,
                 problems: Problems) -> _Read:
    read = _Read()
    for path in sorted((directory / SHARD_DIR).glob("ch*.jsonl")):
        chapter = int(path.stem[2:])
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.add(f"{SHARD_DIR}/{path.name}", "?", utf8_problem(data, exc))
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{SHARD_DIR}/{path.name}:{number}"
            entry = _parse(line, where, problems)
            if entry is None:
                continue
            record = entry.record
            for message in (_verbatim_problems(record.sources, texts)
                            + _line_problems(record, chapter, roles)):
                problems.add(where, record.id, message)
            if isinstance(record, Person):
                read.people.setdefault(record.id, []).append(entry)
            elif isinstance(record, Relation):
                read.relations.setdefault(record.id, []).append(entry)
            else:
                read.unique.append(entry)
    return read


def _parse(line: str, where: str, problems: Problems) -> Entry | None:
    try:
        data: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        problems.add(where, "?", f"invalid JSON: {exc.msg} (column {exc.colno})")
        return None
    if not isinstance(data, dict):
        problems.add(where, "?", "a line must be a JSON object")
        return None
    kind = data.pop("record", None)
    record_id = str(data.get("id", "?"))
    model = SHARD_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        problems.add(where, record_id, f'"record" must be one of {", ".join(SHARD_MODELS)}')
        return None
    try:
        return Entry(model.model_validate(data), where)  # type: ignore[arg-type]
    except ValidationError as exc:
        for error in exc.errors():
            loc = ".".join(str(part) for part in error["loc"]) or "record"
            problems.add(where, record_id, f"{loc}: {error['msg']}")
        return None


def _by_chapter(refs: Iterable[SourceRef]) -> list[SourceRef]:
    unique = {(r.chapter, r.quote): r for r in refs}
    return sorted(unique.values(), key=lambda r: r.chapter or 0)


def _merge_people(entries: list[Entry], problems: Problems) -> Entry:
    people = [e.record for e in entries]
    assert all(isinstance(p, Person) for p in people)
    first = people[0]
    assert isinstance(first, Person)
    names = {to_simplified(p.name) for p in people if isinstance(p, Person)}
    if len(names) > 1:
        places = ", ".join(f"{p.name} ({e.where})" for p, e in zip(people, entries, strict=True)
                           if isinstance(p, Person))
        problems.add(entries[0].where, first.id, f"one id names different people: {places}")
    persons = [p for p in people if isinstance(p, Person)]
    aliases = list(dict.fromkeys(a for p in persons for a in p.aliases if a != first.name))
    chapters = [p.first_chapter for p in persons if p.first_chapter is not None]
    groups = [p.group for p in persons if p.group]
    starred = [g for g in groups if g in ("天罡星", "地煞星")]
    merged = first.model_copy(update={
        "aliases": aliases, "first_chapter": min(chapters) if chapters else None,
        "profile": max((p.profile for p in persons), key=len),
        "group": next(iter([*starred, *groups]), first.group),
        "sources": _by_chapter(s for p in persons for s in p.sources)})
    return Entry(merged, entries[0].where)


def _merge_relations(entries: list[Entry], problems: Problems) -> Entry:
    relations = [e.record for e in entries if isinstance(e.record, Relation)]
    first = relations[0]
    for r, e in zip(relations[1:], entries[1:], strict=True):
        if (r.source, r.target, r.type, r.directed) != (first.source, first.target, first.type,
                                                         first.directed):
            problems.add(e.where, r.id, f"disagrees with {entries[0].where} on source, target, "
                                        "type or direction")
    descriptions = list(dict.fromkeys(r.description for r in relations if r.description))
    merged = first.model_copy(update={
        "description": " ".join(descriptions),
        "chapters": sorted({c for r in relations for c in r.chapters}
                           | {s.chapter for r in relations for s in r.sources if s.chapter}),
        "events": list(dict.fromkeys(ev for r in relations for ev in r.events)),
        "sources": _by_chapter(s for r in relations for s in r.sources)})
    return Entry(merged, entries[0].where)


def _lexicon_people(directory: Path) -> dict[str, Person]:
    path = directory / LEXICON_FILE
    people = {}
    if path.exists():
        for line in read_utf8(path).splitlines():
            if line.strip():
                row = json.loads(line)
                people[row["id"]] = Person(
                    id=row["id"], name=row["name"], aliases=row.get("aliases", []),
                    profile=row.get("profile", ""), group=row.get("group"),
                    first_chapter=row.get("first_chapter"))
    return people


def _referenced(entries: Iterable[Entry]) -> set[str]:
    ids: set[str] = set()
    for e in entries:
        record = e.record
        if isinstance(record, Event):
            ids.update(record.person_ids)
        elif isinstance(record, Relation):
            ids.update((record.source, record.target))
        elif isinstance(record, State):
            ids.add(record.person)
    return ids


def shard_entries(directory: Path, blocks: Iterable[Block], problems: Problems) -> list[Entry]:
    """Every record of the shards, merged, in the order people, events, relations, states,
    chapters; problems are added, never raised, so the caller reports them all at once."""
    read = _read_shards(directory, chapter_texts(blocks), read_roles(directory), problems)
    people = [_merge_people(es, problems) for es in read.people.values()]
    relations = [_merge_relations(es, problems) for es in read.relations.values()]
    known = {e.record.id for e in people}
    lexicon = _lexicon_people(directory)
    wanted = _referenced([*read.unique, *relations]) - known
    people += [Entry(lexicon[pid], LEXICON_FILE) for pid in sorted(wanted) if pid in lexicon]
    _duplicate_events(read.unique, problems)
    order = {Person: 0, Event: 1, Relation: 2, State: 3, ChapterSummary: 4}
    entries = [*people, *relations, *read.unique]
    entries.sort(key=lambda e: (order[type(e.record)], getattr(e.record, "order", 0)))
    return entries


def _duplicate_events(entries: Iterable[Entry], problems: Problems) -> None:
    """One happening, one event: the same title twice in a chapter, or the same act quoted by two
    events, is a duplicate."""
    titles: dict[tuple[int, str], str] = {}
    quotes: dict[tuple[int | None, str], str] = {}
    for e in entries:
        if not isinstance(e.record, Event):
            continue
        event = e.record
        first = titles.setdefault((event.chapter, event.title), event.id)
        if first != event.id:
            problems.add(e.where, event.id, f"duplicate event: same title as {first}")
        for ref in event.sources:
            other = quotes.setdefault((ref.chapter, ref.quote), event.id)
            if other != event.id:
                problems.add(e.where, event.id, f"duplicate event: quotes the same act as {other}")


def relation_type_shares(relations: Iterable[Relation]) -> tuple[int, int]:
    """(vague relations, all relations): `acquaintance`/`colleague` say little."""
    items = list(relations)
    return sum(r.type in VAGUE_TYPES for r in items), len(items)
