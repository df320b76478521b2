"""The extraction run: chapters → parts → the extracted bundle → measured → the merged bundle.

Layout under `<data_dir>/<corpus_name>/`:

* `extracted/parts/chNNN.json` – one chapter's records (replacing a chapter rewrites only its file);
* `extracted/` – the extracted bundle (all parts, relations merged across chapters) and
  `mentions.jsonl` (block → person → mentions);
* `bundle/` – the curated records plus only the extracted record kinds that pass the precision
  gate (`extract.gate`), with `gate.json`: what `kbx kb load` and the service read (see
  `Settings.active_bundle_dir`).

The extractor sees the lexicon and the corpus tables only (`Roster.build`); the curated bundle is
read to measure the extracted records (`extract.report`) and to merge them, never to extract.
Both bundle directories are written into a temporary sibling and swapped in by rename.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from core.atomic import replace_directory, write_text
from core.settings import Settings, bundle_fingerprint
from extract.corpus_tables import CorpusTables, read_tables
from extract.discover import DISCOVERED_DIR, Discovery, discover_lexicon, write_discovery
from extract.fates import credible_fates
from extract.gate import Gate, decide, write_gate
from extract.names import Roster, read_lexicon
from extract.offline import OfflineExtractor
from extract.parts import ChapterPart, load_parts, save_part
from extract.report import QualityReport, event_matches, measure
from extract.resolve import (
    absorb_relations,
    drop_shadowed_states,
    id_map,
    merge_relations,
    relink_events,
    resolve_ids,
)
from extract.text import ChapterTexts
from ingest.chunking import Block
from kb.knowledge.bundle import KnowledgeBundle, bundle_from_records, load_bundle, write_bundle
from kb.knowledge.models import Event, Person, Relation, SourceRef

log = logging.getLogger(__name__)
LEXICON_FILE = "lexicon.jsonl"
Progress = Callable[[int, int], None]
"""progress(done, total), called after each chapter (offline) or block (LLM)."""


class ChapterExtractor(Protocol):
    """What the pipeline needs from an extractor: parts for chapters, given their blocks."""

    method: str

    def extract_chapters(self, chapters: dict[int, list[Block]],
                         progress: Progress | None = None) -> list[ChapterPart]: ...


@dataclass(frozen=True)
class Paths:
    root: Path

    @classmethod
    def of(cls, settings: Settings) -> Paths:
        return cls(settings.corpus_dir())

    @property
    def extracted(self) -> Path:
        return self.root / "extracted"

    @property
    def parts(self) -> Path:
        return self.extracted / "parts"

    @property
    def bundle(self) -> Path:
        return self.root / "bundle"  # = Settings.merged_bundle_dir()

    @property
    def cache(self) -> Path:
        return self.root / "extract_cache"


@dataclass
class Inputs:
    """Blocks, the roster (lexicon + corpus tables) and the curated bundle, which only the
    measurement and the merge read."""

    blocks: list[Block]
    curated: KnowledgeBundle
    roster: Roster
    texts: ChapterTexts
    fingerprint: str = ""
    """of the curated bundle's files, taken before they were read (it goes into gate.json)"""

    def by_chapter(self, chapters: Iterable[int] | None = None) -> dict[int, list[Block]]:
        wanted = None if chapters is None else set(chapters)
        grouped: dict[int, list[Block]] = {}
        for block in self.blocks:
            if wanted is None or block.chapter in wanted:
                grouped.setdefault(block.chapter, []).append(block)
        return grouped


def curated_chapters(curated: KnowledgeBundle) -> set[int]:
    """The chapters the curated bundle covers: its chapter summaries, else its events' chapters."""
    return {c.chapter for c in curated.chapters} or {e.chapter for e in curated.events}


def load_inputs(settings: Settings, blocks: Sequence[Block],
                discovery: Discovery | None = None,
                titles: Mapping[int, str] | None = None) -> Inputs:
    """The extraction's inputs. A book with a curated lexicon (`<bundle>/lexicon.jsonl`) is
    extracted with it and its corpus tables; any other book with the lexicon discovered from its
    text (`discovery`, else discovered now and written under `<data>/<book>/discovered/`), empty
    tables, and the curated bundle when there is one (else none: nothing to measure against).
    `titles`: the chapters' title lines (the 回目 the headline events and the summaries read);
    without them the chapters get neither."""
    texts = ChapterTexts(blocks, titles)
    fingerprint = bundle_fingerprint(settings.bundle)
    curated = load_bundle(settings.bundle, blocks) if settings.bundle.is_dir() \
        else bundle_from_records(blocks=blocks)
    lexicon = settings.bundle / LEXICON_FILE
    if lexicon.exists():
        roster = Roster.build(read_lexicon(lexicon), read_tables(settings.bundle))
    else:
        if discovery is None:
            discovery = discover_lexicon(texts)
            write_discovery(discovery, discovered_dir(settings))
        roster = Roster.build(discovery.entries, CorpusTables())
    return Inputs(list(blocks), curated, roster, texts, fingerprint)


def from_text_alone(inputs: Inputs) -> Inputs:
    """The same inputs with the roster a book without a lexicon gets: the people discovered from
    its text, no corpus tables (to measure, on a curated book, the extraction from its text
    alone; the curated records stay the measure)."""
    discovery = discover_lexicon(inputs.texts)
    return Inputs(inputs.blocks, inputs.curated, Roster.build(discovery.entries, CorpusTables()),
                  inputs.texts, inputs.fingerprint)


def discovered_dir(settings: Settings) -> Path:
    """Where a book's discovered lexicon, evidence and shared forms are kept."""
    return settings.corpus_dir() / DISCOVERED_DIR


@dataclass
class RunSummary:
    """What a run did: chapters extracted, record counts, tallies and timings."""

    method: str
    chapters: list[int]
    extracted: dict[str, int] = field(default_factory=dict)
    merged: dict[str, int] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    extracted_dir: str = ""
    bundle_dir: str = ""
    gate: Gate | None = None


def run(settings: Settings, inputs: Inputs, extractor: ChapterExtractor,
        chapters: Iterable[int] | None = None, progress: Progress | None = None,
        gated: bool = True) -> RunSummary:
    """Extract the chapters (all when None), save their parts, rebuild both bundles; `gated`
    False admits every extracted kind (a novel without curated records)."""
    paths = Paths.of(settings)
    started = time.perf_counter()
    selected = inputs.by_chapter(chapters)
    parts = extractor.extract_chapters(selected, progress)
    for part in parts:
        save_part(part, paths.parts)
    summary = RunSummary(extractor.method, sorted(selected), extracted_dir=str(paths.extracted),
                         bundle_dir=str(paths.bundle))
    summary.seconds["extract"] = time.perf_counter() - started
    for part in parts:
        for key, value in part.counters.items():
            summary.counters[key] = summary.counters.get(key, 0) + value
    rebuild(paths, inputs, summary, gated)
    return summary


def rebuild(paths: Paths, inputs: Inputs, summary: RunSummary,
            gated: bool = True) -> tuple[KnowledgeBundle, KnowledgeBundle]:
    """Both bundles from every saved part of a chapter in the corpus; the merged one holds the
    extracted kinds that the gate admits, measured on the chapters both bundles cover."""
    mark = time.perf_counter()
    parts = load_parts(paths.parts, {b.chapter for b in inputs.blocks})
    extracted = assemble(parts, inputs)
    swap_in(extracted, paths.extracted, keep=("parts",))
    write_mentions(parts, paths.extracted / "mentions.jsonl")
    summary.seconds["assemble"] = time.perf_counter() - mark
    mark = time.perf_counter()
    resolved = resolve_ids(extracted, id_map(inputs.curated.people, extracted.people))
    report = measure(resolved, inputs.curated, covered(parts, inputs.curated), _method(parts))
    gate = decide(report, inputs.fingerprint, enabled=gated)
    summary.seconds["measure"] = time.perf_counter() - mark
    mark = time.perf_counter()
    merged, gate.added = merge_with_curated(inputs.curated, resolved, inputs, gate)
    replace_directory(paths.bundle, lambda tmp: _write_merged(merged, gate, tmp))
    summary.seconds["merge"] = time.perf_counter() - mark
    summary.extracted, summary.merged, summary.gate = extracted.counts(), merged.counts(), gate
    return extracted, merged


def _write_merged(merged: KnowledgeBundle, gate: Gate, directory: Path) -> None:
    write_bundle(merged, directory)
    write_gate(gate, directory)


def covered(parts: Sequence[ChapterPart], curated: KnowledgeBundle) -> set[int]:
    """The chapters both the extraction and the curated bundle cover: where measuring is fair."""
    return {p.chapter for p in parts} & curated_chapters(curated)


def _method(parts: Sequence[ChapterPart]) -> str:
    methods = sorted({p.method for p in parts})
    return methods[0] if len(methods) == 1 else "mixed" if methods else "none"


def measure_offline(inputs: Inputs, chapters: Iterable[int] | None = None) -> QualityReport:
    """`kbx extract report`: extract the chapters offline (all when None), resolve the people to
    the curated ids and score them on the chapters the curated bundle covers; nothing is written."""
    parts = OfflineExtractor(inputs.roster, inputs.texts).extract_chapters(inputs.by_chapter(chapters))
    extracted = assemble(parts, inputs)
    resolved = resolve_ids(extracted, id_map(inputs.curated.people, extracted.people))
    return measure(resolved, inputs.curated, covered(parts, inputs.curated), "offline")


def _earliest_refs(parts: Sequence[ChapterPart]) -> dict[str, SourceRef]:
    refs: dict[str, SourceRef] = {}
    for part in sorted(parts, key=lambda p: p.chapter):
        for person, ref in part.person_refs.items():
            refs.setdefault(person, ref)
    return refs


def _people(parts: Sequence[ChapterPart], inputs: Inputs, referenced: set[str]) -> list[Person]:
    refs = _earliest_refs(parts)
    known = dict(inputs.roster.people)
    for part in parts:
        known.update({p.id: p for p in part.new_people})
    people = []
    def first_seen(person_id: str) -> tuple[int, str]:
        return (refs[person_id].chapter or 0, person_id) if person_id in refs else (10**6, person_id)

    for person_id in sorted(referenced | set(refs), key=first_seen):
        person = known.get(person_id)
        if person is None:
            continue
        if not person.sources and person_id in refs:
            person = person.model_copy(update={"sources": [refs[person_id]]})
        if person.sources:
            people.append(person)
    return people


def assemble(parts: Sequence[ChapterPart], inputs: Inputs) -> KnowledgeBundle:
    """The extracted bundle: people who are named, events, merged relations, states."""
    events = sorted((e for p in parts for e in p.events), key=lambda e: e.order)
    relations = merge_relations(r for p in parts for r in p.relations)
    states = credible_fates(sorted((s for p in parts for s in p.states),
                                   key=lambda s: (s.chapter, s.id)), events)
    referenced = {x for e in events for x in e.person_ids} | {
        x for r in relations for x in (r.source, r.target)} | {s.person for s in states}
    people = _people(parts, inputs, referenced)
    ids = {p.id for p in people}
    events = [_only_known(e, ids) for e in events]
    events = [e for e in events if e.participants]
    event_ids = {e.id for e in events}
    relations = [relink_events(r, {}, event_ids) for r in relations
                 if r.source in ids and r.target in ids]
    states = [s for s in states if s.person in ids]
    chapters = [p.summary for p in sorted(parts, key=lambda p: p.chapter) if p.summary is not None]
    return bundle_from_records(people=people, events=events, relations=relations, states=states,
                               chapters=chapters, blocks=inputs.blocks)


def _only_known(event: Event, ids: set[str]) -> Event:
    kept = [p for p in event.participants if p.person in ids]
    return event if len(kept) == len(event.participants) else event.model_copy(update={"participants": kept})


def _first_chapter(relation: Relation) -> int | None:
    chapters = [s.chapter for s in relation.sources if s.chapter is not None] or relation.chapters
    return min(chapters) if chapters else None


def merge_with_curated(curated: KnowledgeBundle, extracted: KnowledgeBundle, inputs: Inputs,
                       gate: Gate) -> tuple[KnowledgeBundle, dict[str, int]]:
    """The curated records as they are, then the extracted records of the kinds the gate admits
    that name only people in the result and duplicate no curated record (the report's rules: a
    matching event is dropped, a relation of the same type and people lends the curated one its
    sources, a state of the same person, kind and chapter or value is dropped). `extracted` has
    its people resolved to the curated ids already. Returns the bundle and the records added.

    A chapter the curated bundle covers (it has the chapter's summary) is read by people: there a
    new extracted event, relation or state is exactly one the readers did not confirm, and the
    gate's figure (measured on the records that DO match) says nothing about it, so it stays out;
    extracted sources still join the curated relations they duplicate. Extraction fills the
    chapters nobody has read. With the gate off (`--no-gate`) everything extracted is offered.
    An extracted chapter summary (the 回目 and verbatim sentences, nothing to measure) fills every
    chapter the curated bundle has no summary of."""
    covered = {c.chapter for c in curated.chapters} if gate.enabled else set()
    people = list(curated.people)
    if gate.admits("people"):
        known = {p.id for p in people}
        people += [p for p in extracted.people if p.id not in known]
    ids = {p.id for p in people}
    events = [e for e in (_only_known(e, ids) for e in extracted.events) if e.participants] \
        if gate.admits("events") else []
    events = [e for e in events if e.chapter not in covered
              and not any(event_matches(e, c) for c in curated.events)]
    event_ids = {e.id for e in [*curated.events, *events]}
    offered = [relink_events(r, {}, event_ids) for r in extracted.relations
               if gate.admits_relation(r.type) and r.source in ids and r.target in ids]
    absorbed = absorb_relations(curated.relations, offered)
    relations = absorbed[:len(curated.relations)] + [
        r for r in absorbed[len(curated.relations):] if _first_chapter(r) not in covered]
    states = drop_shadowed_states(curated.states, [s for s in extracted.states
                                                   if s.person in ids and s.chapter not in covered]) \
        if gate.admits("states") else []
    added = {"people": len(people) - len(curated.people), "events": len(events),
             "relations": len(relations) - len(curated.relations),
             "relation_sources": sum(len(r.sources) for r in relations[:len(curated.relations)])
             - sum(len(r.sources) for r in curated.relations),
             "states": len(states)}
    summarized = {c.chapter for c in curated.chapters}
    chapters = [*curated.chapters, *(c for c in extracted.chapters if c.chapter not in summarized)]
    added["chapters"] = len(chapters) - len(curated.chapters)
    merged = bundle_from_records(people=people, events=sorted([*curated.events, *events],
                                                              key=lambda e: e.order),
                                 relations=relations, states=[*curated.states, *states],
                                 chapters=sorted(chapters, key=lambda c: c.chapter),
                                 blocks=inputs.blocks, profile=curated.profile)
    return merged, added


def swap_in(bundle: KnowledgeBundle, directory: Path, keep: Sequence[str] = ()) -> None:
    """Write the bundle in place of `directory` at once (kept subdirectories such as `parts`
    move over): a reader sees the old bundle or the new one, never a mix."""
    replace_directory(directory, lambda tmp: write_bundle(bundle, tmp), keep)


def write_mentions(parts: Sequence[ChapterPart], path: Path) -> None:
    lines = [json.dumps({"chunk_id": block, "people": people}, ensure_ascii=False)
             for part in parts for block, people in part.mentions.items()]
    write_text(path, "".join(line + "\n" for line in lines))
