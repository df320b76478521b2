"""The offline extractor: lexicon mentions, one scene event per block, cue-word relations and states.

Deterministic and fast (the whole book in a few seconds). Every record quotes a span of its block
of at most 60 characters that is unique in its chapter; a relation's quote names both people.
Event order is chapter × 1000 + 100 + block index (curated events use chapter × 1000 + 1…99).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ingest.chunking import Block
from ingest.extract.cues import (
    ACTIONS,
    NEGATION,
    PLACE_TO,
    PLACES,
    RELATION_CUES,
    STATE_CUES,
    RelationCue,
    StateKind,
)
from ingest.extract.names import Mention, Roster
from ingest.extract.pairing import Pair, cue_pairs, relation_confidence
from ingest.extract.parts import ChapterPart
from ingest.extract.resolve import relation_id
from ingest.extract.text import ChapterTexts, Span, segments, window
from ingest.normalize import to_simplified
from kb.models import Event, Participant, Relation, SourceRef, State

MAX_PARTICIPANTS = 6
EVENT_ORDER_BASE = 100
_PLACE_RE = re.compile("|".join(sorted(PLACES, key=len, reverse=True)))
_ACTION_RE = re.compile("|".join(re.escape(w) for w, _ in ACTIONS))
_ACTION_LABEL = dict(ACTIONS)


def event_id(chapter: int, index: int) -> str:
    return f"xev_ch{chapter:03d}_{index:03d}"


def event_order(chapter: int, index: int) -> int:
    """chapter × 1000 + 100 + n: after the curated events of the chapter (1…99), never colliding."""
    return chapter * 1000 + EVENT_ORDER_BASE + index


@dataclass
class _Segment:
    span: Span
    mentions: list[Mention]

    @property
    def people(self) -> set[str]:
        return {m.person for m in self.mentions}


class _Block:
    """One block under extraction: its simplified text, segments and mentions."""

    def __init__(self, block: Block, roster: Roster) -> None:
        self.block = block
        self.text = to_simplified(block.text)
        self.mentions = roster.matcher(block.chapter).find(self.text)
        self.segments = [_Segment(s, [m for m in self.mentions if s.covers(m.start, m.end)])
                         for s in segments(self.text)]

    def counts(self) -> Counter[str]:
        return Counter(m.person for m in self.mentions)


NAME_CUES = tuple(c for c in RELATION_CUES
                  if c.type in {"spouse", "family", "father_in_law", "servant", "master_disciple"})
"""Cues read inside a name form (林冲娘子): relational nouns only."""


def _keep(found: dict[tuple[str, str, str], Relation], relation: Relation) -> None:
    key = (relation.type, relation.source, relation.target)
    if key not in found or found[key].confidence < relation.confidence:
        found[key] = relation


class OfflineExtractor:
    """Extracts a chapter's records from its blocks with the roster and the cue map."""

    method = "offline"

    def __init__(self, roster: Roster, texts: ChapterTexts) -> None:
        self.roster = roster
        self.texts = texts

    def extract_chapters(self, chapters: dict[int, list[Block]],
                         progress: Callable[[int, int], None] | None = None) -> list[ChapterPart]:
        parts = []
        for done, chapter in enumerate(sorted(chapters), start=1):
            parts.append(self.extract_chapter(chapter, chapters[chapter]))
            if progress is not None:
                progress(done, len(chapters))
        return parts

    def extract_chapter(self, chapter: int, blocks: Sequence[Block]) -> ChapterPart:
        part = ChapterPart(chapter=chapter, method=self.method)
        tally: Counter[str] = Counter()
        for block in sorted(blocks, key=lambda b: b.index):
            scan = _Block(block, self.roster)
            counts = scan.counts()
            if counts:
                part.mentions[block.id] = dict(sorted(counts.items()))
            self._person_refs(scan, part)
            event = self._event(scan, counts)
            if event is not None:
                part.events.append(event)
            else:
                tally["blocks_without_event"] += 1
            part.relations += self._relations(scan, event, tally)
            part.states += self._states(scan, tally)
        part.states = _dedupe_states(part.states)
        tally.update(events=len(part.events), relations=len(part.relations), states=len(part.states))
        part.counters = dict(sorted(tally.items()))
        return part

    # -- quotes ---------------------------------------------------------------------------------

    def _quote(self, scan: _Block, segment: Span, lo: int, hi: int) -> str | None:
        span = window(scan.text, segment, lo, hi)
        return None if span is None else self.texts.unique_quote(scan.block, segment, span)

    def _ref(self, scan: _Block, quote: str) -> SourceRef:
        return SourceRef(chapter=scan.block.chapter, quote=quote, chunk_id=scan.block.id)

    def _person_refs(self, scan: _Block, part: ChapterPart) -> None:
        for seg in scan.segments:
            for m in seg.mentions:
                if m.person not in part.person_refs:
                    quote = self._quote(scan, seg.span, m.start, m.end)
                    if quote is not None:
                        part.person_refs[m.person] = self._ref(scan, quote)

    # -- events ---------------------------------------------------------------------------------

    def _event(self, scan: _Block, counts: Counter[str]) -> Event | None:
        if len(counts) < 2:
            return None
        ranked = sorted(counts, key=lambda p: (-counts[p], _first(scan.mentions, p)))
        people = ranked[:MAX_PARTICIPANTS]
        found = self._event_quote(scan, people)
        if found is None:
            return None
        quote, named = found
        block = scan.block
        place = _place(to_simplified(quote), 1) or _place(scan.text, 2)
        action = _action(to_simplified(quote))
        title = self._title(people, counts, place, action)
        confidence = min(0.9, 0.4 + 0.1 * min(3, counts[people[1]]) + (0.1 if len(named) >= 2 else 0))
        summary = (f"第{block.chapter}回场景：{'、'.join(self._name(p) for p in people)}"
                   + (f"，地点{place}" if place else "") + (f"，{action}" if action else "") + "。")
        return Event(id=event_id(block.chapter, block.index), title=title, chapter=block.chapter,
                     order=event_order(block.chapter, block.index), place=place,
                     participants=[Participant(person=p, role="participant") for p in people],
                     summary=summary, sources=[self._ref(scan, quote)], confidence=round(confidence, 2),
                     origin="extracted")

    def _event_quote(self, scan: _Block, people: list[str]) -> tuple[str, set[str]] | None:
        top = set(people[:2])

        def score(seg: _Segment) -> tuple[int, int, int, int]:
            named = seg.people & set(people)
            return (-len(named & top), -len(named), 0 if _ACTION_RE.search(scan.text, seg.span.start,
                                                                            seg.span.end) else 1,
                    seg.span.start)

        for seg in sorted((s for s in scan.segments if s.people & set(people)), key=score):
            named = [m for m in seg.mentions if m.person in people]
            for lo, hi in ((named[0].start, named[-1].end), (named[0].start, named[0].end)):
                quote = self._quote(scan, seg.span, lo, hi)
                if quote is not None:
                    return quote, {m.person for m in named if lo <= m.start and m.end <= hi}
        return None

    def _name(self, person: str) -> str:
        return self.roster.people[person].name

    def _title(self, people: list[str], counts: Counter[str], place: str | None,
               action: str | None) -> str:
        shown = people[:3] if len(people) > 2 and counts[people[2]] >= 2 else people[:2]
        names = "、".join(self._name(p) for p in shown)
        return names + (f"于{place}" if place else "") + (action or ("" if place else "同场"))

    # -- relations ------------------------------------------------------------------------------

    def _relations(self, scan: _Block, event: Event | None, tally: Counter[str]) -> list[Relation]:
        found: dict[tuple[str, str, str], Relation] = {}
        for seg in scan.segments:
            if len(seg.people) < 2:
                continue
            for cue in RELATION_CUES:
                for match in cue.pattern.finditer(scan.text, seg.span.start, seg.span.end):
                    for pair in cue_pairs(scan.text, seg.mentions, cue, match.start(), match.end(),
                                          seg.span.start):
                        relation = self._relation(scan, seg, cue, pair, event)
                        if relation is None:
                            tally["relations_without_unique_quote"] += 1
                            continue
                        _keep(found, relation)
            for relation in self._name_relations(scan, seg, event):
                _keep(found, relation)
        return list(found.values())

    def _name_relations(self, scan: _Block, seg: _Segment, event: Event | None) -> list[Relation]:
        """Relations a name states itself: 林冲娘子 → spouse, 林冲丈人 → father-in-law."""
        found = []
        for mention in seg.mentions:
            for other, rest in self.roster.embedded(mention.form, scan.block.chapter):
                for cue in NAME_CUES:
                    if cue.pattern.search(rest):
                        pair = Pair(*((mention.person, other) if cue.direction == "backward"
                                      else (other, mention.person)), 0, mention.start, mention.end)
                        relation = self._relation(scan, seg, cue, pair, event)
                        if relation is not None:
                            found.append(relation)
                        break
        return found

    def _relation(self, scan: _Block, seg: _Segment, cue: RelationCue, pair: Pair,
                  event: Event | None) -> Relation | None:
        quote = self._quote(scan, seg.span, pair.first, pair.last)
        if quote is None:
            return None
        directed = cue.direction != "none"
        source, target = (pair.source, pair.target) if directed else sorted((pair.source, pair.target))
        linked = [event.id] if event is not None and {source, target} <= set(event.person_ids) else []
        return Relation(id=relation_id(source, target, cue.type, directed), source=source, target=target,
                        type=cue.type, directed=directed, chapters=[scan.block.chapter], events=linked,
                        sources=[self._ref(scan, quote)], confidence=relation_confidence(cue, pair.gap),
                        origin="extracted", description=cue.note)

    # -- states ---------------------------------------------------------------------------------

    def _states(self, scan: _Block, tally: Counter[str]) -> list[State]:
        states: list[State] = []
        for seg in scan.segments:
            if not seg.mentions:
                continue
            for cue in STATE_CUES:
                for match in cue.pattern.finditer(scan.text, seg.span.start, seg.span.end):
                    value = cue.value.format(*match.groups()) if cue.value else match.group(1)
                    state = self._state(scan, seg, cue.kind, value, match.start(), match.end(),
                                        cue.gap, cue.confidence, cue.note or cue.kind)
                    if state is not None:
                        states.append(state)
            states += self._place_states(scan, seg)
        tally["states_found"] += len(states)
        return states

    def _place_states(self, scan: _Block, seg: _Segment) -> list[State]:
        states = []
        for match in _PLACE_RE.finditer(scan.text, seg.span.start, seg.span.end):
            verb = PLACE_TO.search(scan.text, max(seg.span.start, match.start() - 2), match.start())
            if verb is None:
                continue
            state = self._state(scan, seg, "place", match.group(), verb.start(), match.end(), 8, 0.45,
                                f"到{match.group()}")
            if state is not None:
                states.append(state)
        return states

    def _state(self, scan: _Block, seg: _Segment, kind: StateKind, value: str, start: int, end: int,
               gap: int, confidence: float, note: str) -> State | None:
        before = [m for m in seg.mentions if m.end <= start and start - m.end <= gap
                  and not NEGATION.search(scan.text[m.end:start])]
        if not before or not value:
            return None
        person = before[-1]
        quote = self._quote(scan, seg.span, person.start, end)
        if quote is None:
            return None
        return State(id="pending", person=person.person, kind=kind,
                     value=value, chapter=scan.block.chapter, description=note,
                     sources=[self._ref(scan, quote)], confidence=confidence, origin="extracted")


def _first(mentions: Iterable[Mention], person: str) -> int:
    return next(m.start for m in mentions if m.person == person)


def _place(text: str, least: int) -> str | None:
    """The place named most often (at least `least` times), the earlier one on a tie."""
    counts = Counter(m.group() for m in _PLACE_RE.finditer(text))
    places = [p for p in counts if counts[p] >= least]
    return max(places, key=lambda p: (counts[p], -text.find(p))) if places else None


def _action(text: str) -> str | None:
    match = _ACTION_RE.search(text)
    return _ACTION_LABEL[match.group()] if match else None


def _dedupe_states(states: list[State]) -> list[State]:
    """One state per (person, kind, value) in a chapter, numbered in order of appearance."""
    seen: set[tuple[str, str, str]] = set()
    kept: list[State] = []
    numbers: Counter[str] = Counter()
    for state in states:
        key = (state.person, state.kind, state.value)
        if key in seen:
            continue
        seen.add(key)
        numbers[state.person] += 1
        kept.append(state.model_copy(update={
            "id": f"xst_{state.person}_{state.chapter:03d}_{numbers[state.person]:02d}"}))
    return kept
