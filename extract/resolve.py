"""Entity resolution and merging: one person per real person, one relation per fact, curated wins.

Rules (each a small function below):

* People: an extracted (lexicon) person is the curated person with the same id, else the one
  curated person whose name or alias is their own name (compared in simplified script); extracted
  records are rewritten to the curated ids before they are measured or merged, and the curated
  person record stands for them.
* Relations: two relations are the same fact when they have the same type and the same people
  (in the same direction, unless either is undirected). Duplicates merge into one record with
  every source (deduplicated by normalized quote), every chapter and every supporting event; the
  extracted confidences combine as 1 − Π(1 − cᵢ). A curated relation absorbs the extracted
  duplicates' sources but keeps its id, type, direction, description and confidence.
* Events: an extracted event gives way to a curated event it matches (`report.event_matches`:
  same chapter, two shared participants or overlapping quotes).
* States: an extracted state gives way to a curated one of the same person and kind that starts
  in the same chapter or has the same value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.text import normalize, to_simplified
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import RELATION_TYPES, Person, Relation, SourceRef, State

MAX_SOURCES = 12
"""At most this many sources per merged relation (earliest chapters first)."""


def _forms(person: Person) -> set[str]:
    return {to_simplified(name) for name in person.all_names}


def id_map(curated: Sequence[Person], found: Sequence[Person]) -> dict[str, str]:
    """found id → curated id, for every found person the curated bundle knows under another id:
    a found person keeps an id the curated bundle has; otherwise their own name is the name or an
    alias of exactly one curated person (in simplified script)."""
    ids = {p.id for p in curated}
    owners: dict[str, set[str]] = {}
    for person in curated:
        for form in _forms(person):
            owners.setdefault(form, set()).add(person.id)
    mapping: dict[str, str] = {}
    for other in found:
        if other.id in ids:
            continue
        candidates = owners.get(to_simplified(other.name), set())
        if len(candidates) == 1:
            mapping[other.id] = next(iter(candidates))
    return mapping


def resolve_ids(bundle: KnowledgeBundle, mapping: dict[str, str]) -> KnowledgeBundle:
    """The extracted records with every person id mapped to the curated one (`id_map`); people
    who resolve to a curated person are dropped (the curated record stands for them)."""
    if not mapping:
        return bundle
    people = [p for p in bundle.people if p.id not in mapping]
    events = [e.model_copy(update={"participants": list({
        mapping.get(p.person, p.person): p.model_copy(update={"person": mapping.get(p.person, p.person)})
        for p in e.participants}.values())}) for e in bundle.events]
    relations = [remap_relation(r, mapping) for r in bundle.relations]
    relations = [r for r in relations if r.source != r.target]
    states = [s.model_copy(update={"person": mapping.get(s.person, s.person)}) for s in bundle.states]
    return KnowledgeBundle(people=people, events=events, relations=merge_relations(relations),
                           states=states, chapters=bundle.chapters, profile=bundle.profile)


@dataclass(frozen=True)
class RelationKey:
    type: str
    a: str
    b: str
    directed: bool


def relation_key(relation: Relation) -> RelationKey:
    if relation.directed:
        return RelationKey(relation.type, relation.source, relation.target, True)
    a, b = sorted((relation.source, relation.target))
    return RelationKey(relation.type, a, b, False)


def _loose(key: RelationKey) -> RelationKey:
    a, b = sorted((key.a, key.b))
    return RelationKey(key.type, a, b, False)


def relation_id(source: str, target: str, type_: str, directed: bool = True) -> str:
    """xrel_<source>_<target>_<type>; an undirected relation orders its ids and ends in `_u`."""
    if directed:
        return f"xrel_{source}_{target}_{type_}"
    a, b = sorted((source, target))
    return f"xrel_{a}_{b}_{type_}_u"


def merge_sources(*groups: Iterable[SourceRef], limit: int = MAX_SOURCES) -> list[SourceRef]:
    """Sources in order, each normalized quote once, at most `limit`."""
    seen: set[tuple[int | None, str]] = set()
    merged: list[SourceRef] = []
    for ref in (r for group in groups for r in group):
        key = (ref.chapter, normalize(ref.quote))
        if key not in seen and len(merged) < limit:
            seen.add(key)
            merged.append(ref)
    return merged


def noisy_or(confidences: Iterable[float], cap: float = 0.95) -> float:
    """1 − Π(1 − cᵢ), at most `cap`: independent cues each add belief."""
    remaining = 1.0
    for c in confidences:
        remaining *= 1 - c
    return round(min(cap, 1 - remaining), 3)


def _describe(relation: Relation) -> str:
    chapters = "、".join(str(c) for c in relation.chapters)
    return f"{RELATION_TYPES[relation.type]}（线索词抽取；见第{chapters}回，{len(relation.sources)}处原文）"


def merge_relations(relations: Iterable[Relation]) -> list[Relation]:
    """Extracted relations, duplicates merged; order: first chapter, then id."""
    groups: dict[RelationKey, list[Relation]] = {}
    for relation in relations:
        groups.setdefault(relation_key(relation), []).append(relation)
    merged = [_combine(group) for group in groups.values()]
    return sorted(merged, key=lambda r: (r.chapters[0] if r.chapters else 0, r.id))


def _combine(group: list[Relation]) -> Relation:
    group = sorted(group, key=lambda r: (min(r.chapters, default=0), r.id))
    first = group[0]
    combined = first.model_copy(update={
        "sources": merge_sources(*(r.sources for r in group)),
        "chapters": sorted({c for r in group for c in r.chapters}),
        "events": list(dict.fromkeys(e for r in group for e in r.events)),
        "confidence": noisy_or(r.confidence for r in group),
    })
    if combined.origin == "extracted":
        combined.description = _describe(combined)
    return combined


def absorb_relations(curated: Sequence[Relation], extracted: Sequence[Relation]) -> list[Relation]:
    """Curated relations (with the sources of their extracted duplicates), then the rest."""
    exact = {relation_key(r): i for i, r in enumerate(curated)}
    loose = {_loose(relation_key(r)): i for i, r in enumerate(curated)}
    extra: dict[int, list[Relation]] = {}
    rest: list[Relation] = []
    for relation in extracted:
        key = relation_key(relation)
        index = exact.get(key)
        if index is None and (not key.directed or not curated_directed(curated, loose, key)):
            index = loose.get(_loose(key))
        if index is None:
            rest.append(relation)
        else:
            extra.setdefault(index, []).append(relation)
    kept = [_absorb(r, extra.get(i, [])) for i, r in enumerate(curated)]
    return kept + rest


def curated_directed(curated: Sequence[Relation], loose: dict[RelationKey, int], key: RelationKey) -> bool:
    """True when the curated relation matching `key` loosely is directed the other way."""
    index = loose.get(_loose(key))
    return index is not None and curated[index].directed


def _absorb(curated: Relation, duplicates: list[Relation]) -> Relation:
    if not duplicates:
        return curated
    return curated.model_copy(update={
        "sources": merge_sources(curated.sources, *(d.sources for d in duplicates),
                                 limit=max(MAX_SOURCES, len(curated.sources))),
        "chapters": sorted({*curated.chapters, *(c for d in duplicates for c in d.chapters)}),
        "events": list(dict.fromkeys([*curated.events, *(e for d in duplicates for e in d.events)])),
    })


def remap_relation(relation: Relation, mapping: dict[str, str]) -> Relation:
    source = mapping.get(relation.source, relation.source)
    target = mapping.get(relation.target, relation.target)
    if (source, target) == (relation.source, relation.target):
        return relation
    return relation.model_copy(update={"source": source, "target": target,
                                       "id": relation_id(source, target, relation.type, relation.directed)})


def relink_events(relation: Relation, replaced: dict[str, str | None], known: set[str]) -> Relation:
    events = [replaced.get(e, e) if e in replaced else e for e in relation.events]
    clean = list(dict.fromkeys(e for e in events if e is not None and e in known))
    return relation if clean == relation.events else relation.model_copy(update={"events": clean})


def drop_shadowed_states(curated: Sequence[State], extracted: Sequence[State]) -> list[State]:
    taken = {(s.person, s.kind, s.chapter) for s in curated}
    values = {(s.person, s.kind, to_simplified(s.value)) for s in curated}
    return [s for s in extracted if (s.person, s.kind, s.chapter) not in taken
            and (s.person, s.kind, to_simplified(s.value)) not in values]
