"""Quality report: the offline extractor against the curated records of chapters 7–11.

Two levels, each with precision = |found ∩ curated| / |found| and recall = |found ∩ curated| /
|curated|:

* related pairs: unordered pairs of people linked by any relation;
* typed pairs: (unordered pair, relation type), so a right pair with a wrong type counts as wrong.

Only chapters the curated bundle covers are extracted for the comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, Field

from extract.offline import OfflineExtractor
from extract.pipeline import Inputs, curated_chapters
from extract.resolve import merge_relations
from kb.knowledge.models import Relation

PairKey = tuple[str, str]


class Score(BaseModel):
    found: int
    curated: int
    matched: int
    precision: float = Field(description="matched / found")
    recall: float = Field(description="matched / curated")

    @classmethod
    def of(cls, found: set[object], curated: set[object]) -> Score:
        matched = len(found & curated)
        return cls(found=len(found), curated=len(curated), matched=matched,
                   precision=round(matched / len(found), 3) if found else 0.0,
                   recall=round(matched / len(curated), 3) if curated else 0.0)


class QualityReport(BaseModel):
    chapters: list[int]
    pairs: Score
    typed: Score
    by_type: dict[str, Score] = Field(default_factory=dict, description="typed score per type found")
    matched_pairs: list[str] = Field(default_factory=list)
    missed_pairs: list[str] = Field(default_factory=list)
    wrong_pairs: list[str] = Field(default_factory=list)
    extracted_counts: dict[str, int] = Field(default_factory=dict)


def _pair(relation: Relation) -> PairKey:
    a, b = sorted((relation.source, relation.target))
    return a, b


def _typed(relations: Iterable[Relation]) -> set[tuple[PairKey, str]]:
    return {(_pair(r), r.type) for r in relations}


def _show(pair: PairKey) -> str:
    return f"{pair[0]}–{pair[1]}"


def quality_report(inputs: Inputs) -> QualityReport:
    """Extract the curated chapters offline and score the relations against the curated ones."""
    chapters = sorted(curated_chapters(inputs.curated))
    extractor = OfflineExtractor(inputs.roster, inputs.texts)
    parts = extractor.extract_chapters(inputs.by_chapter(chapters))
    found = merge_relations(r for p in parts for r in p.relations)
    curated = inputs.curated.relations
    found_pairs, curated_pairs = {_pair(r) for r in found}, {_pair(r) for r in curated}
    found_typed, curated_typed = _typed(found), _typed(curated)
    by_type = {}
    for kind in sorted(Counter(r.type for r in found)):
        by_type[kind] = Score.of({t for t in found_typed if t[1] == kind},
                                 {t for t in curated_typed if t[1] == kind})
    return QualityReport(
        chapters=chapters, pairs=Score.of(set(found_pairs), set(curated_pairs)),
        typed=Score.of(set(found_typed), set(curated_typed)), by_type=by_type,
        matched_pairs=sorted(_show(p) for p in found_pairs & curated_pairs),
        missed_pairs=sorted(_show(p) for p in curated_pairs - found_pairs),
        wrong_pairs=sorted(_show(p) for p in found_pairs - curated_pairs),
        extracted_counts={"events": sum(len(p.events) for p in parts), "relations": len(found),
                          "states": sum(len(p.states) for p in parts)})
