"""The knowledge bundle: JSON Lines per record type, validated whole, every quote located.

On disk a bundle is a directory of five files, one JSON object a line (a missing file is empty):
people.jsonl, events.jsonl, relations.jsonl, states.jsonl, chapters.jsonl. Loading validates
everything before anything is returned, and a `BundleError` lists each problem as
`file:line: record-id: message`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from core.atomic import write_text
from core.errors import BundleError
from core.utf8 import utf8_problem
from ingest.chunking import Block
from ingest.locate import QuoteError, QuoteLocator
from kb.knowledge.checks import Entry, Problems, check_structure
from kb.knowledge.importance import mark_headlines
from kb.knowledge.manifest import check_manifest, write_manifest
from kb.knowledge.models import (
    RECORD_KINDS,
    ChapterSummary,
    Event,
    Person,
    Record,
    RecordKind,
    Relation,
    SourceRef,
    State,
)
from kb.knowledge.profile import CorpusProfile, read_profile, write_profile
from kb.knowledge.shards import has_shards, shard_entries

if TYPE_CHECKING:  # numpy (under the folds) loads only when quotes are placed
    from ingest.folds import ChapterFolds

BUNDLE_FILES: dict[str, type[BaseModel]] = {
    "people.jsonl": Person,
    "events.jsonl": Event,
    "relations.jsonl": Relation,
    "states.jsonl": State,
    "chapters.jsonl": ChapterSummary,
}
"""File name → record model, in the order records are validated and written."""

KINDS = RECORD_KINDS

R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True)
class KnowledgeBundle:
    """All records of one corpus; ids are unique across record types."""

    people: list[Person] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    chapters: list[ChapterSummary] = field(default_factory=list)
    profile: CorpusProfile = field(default_factory=CorpusProfile)
    """What the answering code knows about the novel (kept beside the records)."""
    derived_cache: Path | None = field(default=None, compare=False)
    """A directory where what later layers derive from these records may be kept between
    processes (the answering's record index), keyed by its own content; None keeps nothing."""

    def records(self) -> Iterator[Record]:
        yield from self.people
        yield from self.events
        yield from self.relations
        yield from self.states
        yield from self.chapters

    @cached_property
    def _by_id(self) -> dict[str, Record]:
        return {record.id: record for record in self.records()}

    def get(self, record_id: str) -> Record | None:
        return self._by_id.get(record_id)

    def kind_of(self, record_id: str) -> RecordKind | None:
        record = self._by_id.get(record_id)
        return None if record is None else KINDS[type(record)]

    def person(self, record_id: str) -> Person | None:
        return _typed(self._by_id.get(record_id), Person)

    def event(self, record_id: str) -> Event | None:
        return _typed(self._by_id.get(record_id), Event)

    def relation(self, record_id: str) -> Relation | None:
        return _typed(self._by_id.get(record_id), Relation)

    def state(self, record_id: str) -> State | None:
        return _typed(self._by_id.get(record_id), State)

    def chapter(self, record_id: str) -> ChapterSummary | None:
        return _typed(self._by_id.get(record_id), ChapterSummary)

    def counts(self) -> dict[str, int]:
        return {"people": len(self.people), "events": len(self.events),
                "relations": len(self.relations), "states": len(self.states),
                "chapters": len(self.chapters)}

    def check(self) -> None:
        """Ids unique, every reference resolves (no quote check: that needs the blocks)."""
        problems = Problems("knowledge bundle")
        check_structure(_entries_of(self), problems)
        problems.raise_if_any()


def _typed(record: Record | None, model: type[R]) -> R | None:
    return record if isinstance(record, model) else None


def _entries_of(bundle: KnowledgeBundle) -> list[Entry]:
    groups: list[tuple[str, Sequence[Record]]] = [
        ("people", bundle.people), ("events", bundle.events), ("relations", bundle.relations),
        ("states", bundle.states), ("chapters", bundle.chapters)]
    return [Entry(record, f"{name}#{n}") for name, records in groups
            for n, record in enumerate(records, start=1)]


def _parse_line(text: str, model: type[BaseModel], where: str, problems: Problems
                ) -> Entry | None:
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.add(where, "?", f"invalid JSON: {exc.msg} (column {exc.colno})")
        return None
    record_id = str(data.get("id", "?")) if isinstance(data, dict) else "?"
    try:
        record = model.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = ".".join(str(part) for part in error["loc"]) or "record"
            problems.add(where, record_id, f"{loc}: {error['msg']}")
        return None
    return Entry(record, where)  # type: ignore[arg-type]


def _read_file(path: Path, model: type[BaseModel], problems: Problems) -> list[Entry]:
    data = path.read_bytes()
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        problems.add(str(path), "?", utf8_problem(data, exc))
        return []
    entries = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            entry = _parse_line(line, model, f"{path}:{number}", problems)
            if entry is not None:
                entries.append(entry)
    return entries


def _resolve_ref(ref: SourceRef, locator: QuoteLocator) -> SourceRef:
    found = locator.locate(ref.quote, ref.chapter, ref.chunk_id)
    return ref.model_copy(update={"chunk_id": found.chunk_id, "chapter": found.chapter,
                                  "start": found.start, "end": found.end})


def _resolve_entry(entry: Entry, locator: QuoteLocator, problems: Problems) -> Record:
    resolved: list[SourceRef] = []
    for number, ref in enumerate(entry.record.sources):
        try:
            resolved.append(_resolve_ref(ref, locator))
        except QuoteError as exc:
            problems.add(entry.where, entry.record.id, f"sources[{number}]: {exc}")
    return entry.record.model_copy(update={"sources": resolved})


def _assemble(entries: list[Entry], blocks: Iterable[Block], problems: Problems,
              profile: CorpusProfile | None = None, folds: ChapterFolds | None = None,
              across_blocks: bool = False) -> KnowledgeBundle:
    check_structure(entries, problems)
    locator = QuoteLocator(blocks, folds, across_blocks)
    records = [_resolve_entry(entry, locator, problems) for entry in entries]
    problems.raise_if_any()
    groups: dict[type[BaseModel], list[Any]] = {model: [] for model in KINDS}
    for record in records:
        groups[type(record)].append(record)
    events = mark_headlines(groups[Event], groups[ChapterSummary], groups[Person])
    return KnowledgeBundle(people=groups[Person], events=events,
                           relations=groups[Relation], states=groups[State],
                           chapters=groups[ChapterSummary], profile=profile or CorpusProfile())


def load_bundle(directory: Path, blocks: Iterable[Block], folds: ChapterFolds | None = None,
                across_blocks: bool = False) -> KnowledgeBundle:
    """Read, validate and resolve a bundle directory; a BundleError lists every problem.

    A directory with `shards/` holds curated chapter shards (`kb.knowledge.shards` assembles
    them); otherwise the five record files. Each file is first compared with the bundle's
    manifest (`kb.knowledge.manifest`). `folds` (folded chapters saved by `kbx ingest`)
    spare normalizing the chapters again. `across_blocks`: blocks cut at another length than
    the curation's, where a quote may straddle two (`ingest.locate.QuoteLocator`)."""
    if not directory.is_dir():
        raise BundleError(f"{directory}: no such bundle directory")
    check_manifest(directory)  # a file cut or changed since it was written: nothing is read
    problems = Problems(str(directory))
    blocks = list(blocks)
    entries: list[Entry] = []
    if has_shards(directory):
        entries = shard_entries(directory, blocks, problems)
    else:
        for name, model in BUNDLE_FILES.items():
            path = directory / name
            if path.exists():
                entries.extend(_read_file(path, model, problems))
    return _assemble(entries, blocks, problems, read_profile(directory), folds, across_blocks)


def bundle_from_records(*, people: Sequence[Person] = (), events: Sequence[Event] = (),
                        relations: Sequence[Relation] = (), states: Sequence[State] = (),
                        chapters: Sequence[ChapterSummary] = (), blocks: Iterable[Block],
                        profile: CorpusProfile | None = None) -> KnowledgeBundle:
    """Validate and resolve records built in memory (e.g. by the extractor); inputs are copied."""
    draft = KnowledgeBundle(list(people), list(events), list(relations), list(states),
                            list(chapters))
    return _assemble(_entries_of(draft), blocks, Problems("records"), profile)


def _disk_form(record: Record, keep_chunk_ids: bool) -> dict[str, Any]:
    data = record.model_dump(mode="json", exclude_none=True)
    keys = ("chapter", "quote", "chunk_id") if keep_chunk_ids else ("chapter", "quote")
    data["sources"] = [{k: ref[k] for k in keys if k in ref} for ref in data["sources"]]
    return data


def write_bundle(bundle: KnowledgeBundle, directory: Path, *, keep_chunk_ids: bool = False
                 ) -> None:
    """Write the five files (each replaced atomically), then the manifest that describes them
    (`kb.knowledge.manifest`); sources as chapter + quote by default, so the bundle survives a
    change of chunking."""
    directory.mkdir(parents=True, exist_ok=True)
    groups: list[Sequence[Record]] = [bundle.people, bundle.events, bundle.relations,
                                      bundle.states, bundle.chapters]
    for name, records in zip(BUNDLE_FILES, groups, strict=True):
        lines = [json.dumps(_disk_form(r, keep_chunk_ids), ensure_ascii=False) for r in records]
        write_text(directory / name, "".join(line + "\n" for line in lines))
    if bundle.profile != CorpusProfile():
        write_profile(bundle.profile, directory)
    write_manifest(directory)  # last: it describes the files as written
