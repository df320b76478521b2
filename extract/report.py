"""The extractor measured against the curated records: precision and recall per record kind.

Both sides are bundles whose quotes are located (chapter offsets), the extracted one with its
people already resolved to the curated ids (`resolve.id_map`). Only the chosen chapters count;
for each kind, precision = correct found / found and recall = curated found again / curated.

Matching rules (what "the same record" means):

* **people**: a person is in chapter c when a record of c names them (an event participant, a
  side of a relation with c among its chapters or sources, the subject of a state); the unit is
  (chapter, person).
* **relations**: the unordered pair of people (`pairs`), and the pair with the relation type
  (`typed`); per chapter the unit is (chapter, pair) for a relation that has c among its chapters
  or sources, and over the book (`book_pairs`, `book_typed`, `by_type`) each distinct pair (with
  type) once — one extracted relation record per unit, what the merged bundle would hold.
* **events**: an extracted event and a curated one of the same chapter are the same happening
  when they share two or more participants (its one participant, when the extracted event has
  only one: one man alone fighting a tiger), or when a quote of one overlaps a quote of the other
  in the same block (the same characters of the text). An extracted event is correct when it
  matches a curated one; a curated event is found when an extracted one matches it (not one to
  one: a long curated scene may be cut into several blocks' events). The rule is lenient (two
  people who share many scenes of a chapter match any of them), so a stricter figure is reported
  beside it, `events_same_block`: the two events cite the same block and share two participants
  (one, when either has only one), or their quotes overlap. The gate reads the first.
* **states**: same person, same kind (status, place, title, possession) and same chapter; the
  value is not compared (刺配沧州 and 刺配 are one state).
* **fates**: (chapter, person) of the status states that tell a death (`genre.is_death`: the
  genre's death words in the value), on both sides.

`overall` sums the chapters (micro average). The same rules decide, in the merge, which extracted
records duplicate curated ones (`event_matches`), so the gate's figures describe exactly the
records that the merged bundle would gain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet

from pydantic import BaseModel, Field

from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.genre import is_death
from kb.knowledge.models import Event, Relation

PairKey = tuple[str, str]
MIN_SHARED_PARTICIPANTS = 2
KINDS = ("people", "pairs", "typed", "events", "events_same_block", "states", "fates")
"""The per-chapter measures, in table order."""


class Score(BaseModel):
    """One measure: `correct` of `found` are right, `recalled` of `curated` are found."""

    found: int
    curated: int
    correct: int
    recalled: int
    precision: float = Field(description="correct / found (0 when nothing is found)")
    recall: float = Field(description="recalled / curated (0 when nothing is curated)")

    @classmethod
    def of(cls, found: int, curated: int, correct: int, recalled: int) -> Score:
        return cls(found=found, curated=curated, correct=correct, recalled=recalled,
                   precision=round(correct / found, 3) if found else 0.0,
                   recall=round(recalled / curated, 3) if curated else 0.0)

    @classmethod
    def of_sets(cls, found: AbstractSet[object], curated: AbstractSet[object]) -> Score:
        both = len(found & curated)
        return cls.of(len(found), len(curated), both, both)

    def __add__(self, other: Score) -> Score:
        return Score.of(self.found + other.found, self.curated + other.curated,
                        self.correct + other.correct, self.recalled + other.recalled)


EMPTY = Score.of(0, 0, 0, 0)


class ChapterScores(BaseModel):
    chapter: int
    people: Score
    pairs: Score
    typed: Score
    events: Score
    events_same_block: Score
    states: Score
    fates: Score = EMPTY


class QualityReport(BaseModel):
    """Per chapter and overall figures, and the relation figures over the whole book."""

    method: str = Field(description="offline | llm | mixed: how the measured records were made")
    chapters: list[int]
    overall: dict[str, Score] = Field(description="people, pairs, typed, events, "
                                                  "events_same_block, states: summed over the chapters")
    book: dict[str, Score] = Field(description="book_pairs, book_typed: each distinct relation once")
    by_type: dict[str, Score] = Field(description="book_typed per relation type (found or curated)")
    per_chapter: list[ChapterScores]
    extracted_counts: dict[str, int] = Field(default_factory=dict)
    curated_counts: dict[str, int] = Field(default_factory=dict)


def _pair(relation: Relation) -> PairKey:
    a, b = sorted((relation.source, relation.target))
    return a, b


def relation_chapters(relation: Relation) -> set[int]:
    """The chapters a relation is stated in: its chapters and its sources' chapters."""
    return set(relation.chapters) | {s.chapter for s in relation.sources if s.chapter is not None}


def _spans(event: Event) -> list[tuple[str, int, int]]:
    return [(s.chunk_id, s.start, s.end) for s in event.sources
            if s.chunk_id is not None and s.start is not None and s.end is not None]


def _overlap(extracted: Event, curated: Event) -> bool:
    return any(block == other and start < other_end and other_start < end
               for block, start, end in _spans(extracted)
               for other, other_start, other_end in _spans(curated))


def event_matches(extracted: Event, curated: Event) -> bool:
    """The same happening: same chapter, and two shared participants (the only one of a
    one-person extracted event) or overlapping quotes."""
    if extracted.chapter != curated.chapter:
        return False
    mine = set(extracted.person_ids)
    needed = max(1, min(MIN_SHARED_PARTICIPANTS, len(mine)))
    return len(mine & set(curated.person_ids)) >= needed or _overlap(extracted, curated)


def event_matches_in_block(extracted: Event, curated: Event) -> bool:
    """The stricter rule: the same block and two shared participants (one when either event has
    one), or overlapping quotes."""
    if extracted.chapter != curated.chapter:
        return False
    mine, theirs = set(extracted.person_ids), set(curated.person_ids)
    blocks = {s.chunk_id for s in extracted.sources} & {s.chunk_id for s in curated.sources}
    needed = max(1, min(MIN_SHARED_PARTICIPANTS, len(mine), len(theirs)))
    return (bool(blocks - {None}) and len(mine & theirs) >= needed) or _overlap(extracted, curated)


class _Side:
    """One bundle's records grouped by chapter, only the chapters measured."""

    def __init__(self, bundle: KnowledgeBundle, chapters: set[int]) -> None:
        self.events: dict[int, list[Event]] = {}
        self.people: dict[int, set[str]] = {}
        self.pairs: dict[int, set[PairKey]] = {}
        self.typed: dict[int, set[tuple[PairKey, str]]] = {}
        self.states: dict[int, set[tuple[str, str]]] = {}
        self.fates: dict[int, set[str]] = {}
        self.book_pairs: set[PairKey] = set()
        self.book_typed: set[tuple[PairKey, str]] = set()
        for event in bundle.events:
            if event.chapter in chapters:
                self.events.setdefault(event.chapter, []).append(event)
                self.people.setdefault(event.chapter, set()).update(event.person_ids)
        for relation in bundle.relations:
            inside = relation_chapters(relation) & chapters
            for chapter in inside:
                self.people.setdefault(chapter, set()).update((relation.source, relation.target))
                self.pairs.setdefault(chapter, set()).add(_pair(relation))
                self.typed.setdefault(chapter, set()).add((_pair(relation), relation.type))
            if inside:
                self.book_pairs.add(_pair(relation))
                self.book_typed.add((_pair(relation), relation.type))
        for state in bundle.states:
            if state.chapter in chapters:
                self.people.setdefault(state.chapter, set()).add(state.person)
                self.states.setdefault(state.chapter, set()).add((state.person, state.kind))
                if is_death(state):
                    self.fates.setdefault(state.chapter, set()).add(state.person)

    def counts(self) -> dict[str, int]:
        return {"people": sum(map(len, self.people.values())),
                "events": sum(map(len, self.events.values())),
                "relations": len(self.book_typed), "states": sum(map(len, self.states.values()))}


def _event_score(found: Sequence[Event], curated: Sequence[Event],
                 matches: Callable[[Event, Event], bool] = event_matches) -> Score:
    correct = sum(1 for e in found if any(matches(e, c) for c in curated))
    recalled = sum(1 for c in curated if any(matches(e, c) for e in found))
    return Score.of(len(found), len(curated), correct, recalled)


def _chapter(chapter: int, mine: _Side, gold: _Side) -> ChapterScores:
    def sets(name: str) -> Score:
        found: AbstractSet[object] = getattr(mine, name).get(chapter, set())
        curated: AbstractSet[object] = getattr(gold, name).get(chapter, set())
        return Score.of_sets(found, curated)

    found, curated = mine.events.get(chapter, []), gold.events.get(chapter, [])
    return ChapterScores(chapter=chapter, people=sets("people"), pairs=sets("pairs"),
                         typed=sets("typed"), states=sets("states"), fates=sets("fates"),
                         events=_event_score(found, curated),
                         events_same_block=_event_score(found, curated, event_matches_in_block))


def _sum(scores: Iterable[Score]) -> Score:
    total = EMPTY
    for score in scores:
        total = total + score
    return total


def measure(extracted: KnowledgeBundle, curated: KnowledgeBundle, chapters: Iterable[int],
            method: str) -> QualityReport:
    """Score the extracted records (people resolved to curated ids) against the curated ones."""
    wanted = set(chapters)
    mine, gold = _Side(extracted, wanted), _Side(curated, wanted)
    per_chapter = [_chapter(c, mine, gold) for c in sorted(wanted)]
    overall = {kind: _sum(getattr(row, kind) for row in per_chapter) for kind in KINDS}
    types = sorted({t for _, t in mine.book_typed} | {t for _, t in gold.book_typed})
    by_type = {t: Score.of_sets({x for x in mine.book_typed if x[1] == t},
                                {x for x in gold.book_typed if x[1] == t}) for t in types}
    return QualityReport(
        method=method, chapters=sorted(wanted), overall=overall,
        book={"book_pairs": Score.of_sets(mine.book_pairs, gold.book_pairs),
              "book_typed": Score.of_sets(mine.book_typed, gold.book_typed)},
        by_type=by_type, per_chapter=per_chapter,
        extracted_counts=mine.counts(), curated_counts=gold.counts())
