"""The offline extractor: lexicon mentions, one scene event per block, cue-word relations and states.

Deterministic and fast (the whole book in a few seconds). Every record quotes a span of its block
of at most 60 characters that is unique in its chapter; a relation's quote names both people.
Event order is chapter × 1000 + 100 + block index (curated events use chapter × 1000 + 1…99).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from extract.cues import Cues, RelationCue, StateKind, default_cues
from extract.fates import fate_states, from_kills, one_a_chapter
from extract.huimu import Headlines
from extract.names import Mention, Roster
from extract.pairing import Pair, cue_pairs, relation_confidence
from extract.parts import ChapterPart
from extract.resolve import relation_id
from extract.scene import BlockScan, Segment
from extract.speech import adoption, lord, oath
from extract.summary import chapter_summary
from extract.text import ChapterTexts, Span, window
from ingest.chunking import Block
from kb.knowledge.genre import genre
from kb.knowledge.models import Event, Participant, Relation, SourceRef, State
from kb.knowledge.surnames import surnames

MAX_PARTICIPANTS = 6
EVENT_ORDER_BASE = 100
KIN_REACH = 3
"""The kinship word ends right before the name: at most this many characters (长子, 其弟)."""
KIN_BACK = 80
"""The relative is named at most this far before the kinship word's name (a short speech between)."""
MOVE_CONFIDENCE = 0.6
"""A place reached (来到/到得/回到 + place) is a move; a place one is at (在/上) stays at 0.45."""
SWORN = "sworn_brothers"


def event_id(chapter: int, index: int) -> str:
    return f"xev_ch{chapter:03d}_{index:03d}"


ORDER_STEP = 3
"""Orders per block: its scene event, then up to two headline events of the 回目 it tells."""


def event_order(chapter: int, index: int, half: int = 0) -> int:
    """chapter × 1000 + 100 + 3n (+ 1 or 2 for a 回目 half told in block n): after the curated
    events of the chapter (1…99), never colliding."""
    return chapter * 1000 + EVENT_ORDER_BASE + ORDER_STEP * index + half


def _keep(found: dict[tuple[str, str, str], Relation], relation: Relation) -> None:
    key = (relation.type, relation.source, relation.target)
    if key not in found or found[key].confidence < relation.confidence:
        found[key] = relation


class OfflineExtractor:
    """Extracts a chapter's records from its blocks with the roster and the cue map."""

    method = "offline"

    def __init__(self, roster: Roster, texts: ChapterTexts, cues: Cues | None = None) -> None:
        self.roster = roster
        self.texts = texts
        self.cues = cues or default_cues(roster.tables)

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
        scans: list[BlockScan] = []
        for block in sorted(blocks, key=lambda b: b.index):
            carried = scans[-1].named_in_full if scans else frozenset()
            scan = BlockScan(block, self.roster, self.cues, carried)
            scans.append(scan)
            counts = scan.counts()
            if counts:
                part.mentions[block.id] = dict(sorted(counts.items()))
            self._person_refs(scan, part)
            event = self._event(scan, counts)
            if event is not None:
                part.events.append(event)
            else:
                tally["blocks_without_event"] += 1
            relations = self._relations(scan, event, tally)
            part.relations += relations
            part.states += self._states(scan, tally)
            part.states += fate_states(scan, self._quote)
            part.states += from_kills(scan, relations)
        part.states = _dedupe_states(one_a_chapter(part.states))
        title = self.texts.titles.get(chapter, "")
        part.events = self._with_headlines(chapter, title, scans, part.events)
        part.summary = chapter_summary(chapter, title, scans, self.texts)
        tally.update(events=len(part.events), relations=len(part.relations), states=len(part.states))
        part.counters = dict(sorted(tally.items()))
        return part

    def _with_headlines(self, chapter: int, title: str, scans: list[BlockScan],
                        events: list[Event]) -> list[Event]:
        """The scene events and the 回目's headline events, in book order."""
        headlines = []
        for event, half in Headlines(self.roster, self.texts, self.cues).events(chapter, title,
                                                                                 scans):
            index = next(s.block.index for s in scans if s.block.id == event.sources[0].chunk_id)
            headlines.append(event.model_copy(update={"order": event_order(chapter, index, half)}))
        return sorted([*events, *headlines], key=lambda e: e.order)

    # -- quotes ---------------------------------------------------------------------------------

    def _quote(self, scan: BlockScan, segment: Span, lo: int, hi: int) -> str | None:
        span = window(scan.text, segment, lo, hi)
        return None if span is None else self.texts.unique_quote(scan.block, segment, span)

    def _ref(self, scan: BlockScan, quote: str) -> SourceRef:
        return SourceRef(chapter=scan.block.chapter, quote=quote, chunk_id=scan.block.id)

    def _person_refs(self, scan: BlockScan, part: ChapterPart) -> None:
        for seg in scan.segments:
            for m in seg.mentions:
                if m.person not in part.person_refs:
                    quote = self._quote(scan, seg.span, m.start, m.end)
                    if quote is not None:
                        part.person_refs[m.person] = self._ref(scan, quote)

    # -- events ---------------------------------------------------------------------------------

    def _event(self, scan: BlockScan, counts: Counter[str]) -> Event | None:
        """A scene event of the people who act in the block; one actor needs a cue action."""
        people = self._present(scan)[:MAX_PARTICIPANTS]
        if not people or (len(people) == 1 and not _cue_action(scan, people[0])):
            return None
        found = self._event_quote(scan, people)
        if found is None:
            return None
        seg, quote = found
        named = {m.person for m in seg.mentions}
        people = [p for p in people if p in named] + [p for p in people if p not in named]
        block = scan.block
        place = _place(scan, seg.span) or _setting(scan, people)
        action = _action(scan.masked[seg.span.start:seg.span.end], scan.cues) or \
            _block_action(scan, people)
        title = self._title(people, scan.narrative_counts(), place, action)
        second = counts[people[1]] if len(people) > 1 else 0
        confidence = min(0.9, 0.4 + 0.1 * min(3, second) + (0.1 if len(named & set(people)) >= 2 else 0))
        summary = (f"第{block.chapter}回场景：{'、'.join(self._name(p) for p in people)}"
                   + (f"，地点{place}" if place else "") + (f"，{action}" if action else "") + "。")
        return Event(id=event_id(block.chapter, block.index), title=title, chapter=block.chapter,
                     order=event_order(block.chapter, block.index), place=place,
                     participants=[Participant(person=p, role="participant") for p in people],
                     summary=summary, sources=[self._ref(scan, quote)], confidence=round(confidence, 2),
                     origin="extracted")

    def _present(self, scan: BlockScan) -> list[str]:
        """The block's actors, without anyone before the chapter the lexicon has them enter in."""
        chapter = scan.block.chapter
        return [p for p in scan.actors() if (first := self.roster.people[p].first_chapter) is None
                or first <= chapter]

    def _event_quote(self, scan: BlockScan, people: list[str]) -> tuple[Segment, str] | None:
        """A narrative segment naming the most actors, an act preferred, and its unique quote."""
        wanted, top = set(people), set(people[:2])

        def score(seg: Segment) -> tuple[int, int, int, int]:
            named = seg.people & wanted
            acted = scan.cues.action_pattern.search(scan.masked, seg.span.start, seg.span.end) or \
                scan.cues.cue_actions.search(scan.masked, seg.span.start, seg.span.end)
            return (-len(named & top), -len(named), 0 if acted else 1, seg.span.start)

        for seg in sorted((s for s in scan.segments if s.narrative and s.people & wanted), key=score):
            named = [m for m in seg.mentions if m.person in wanted]
            for lo, hi in ((named[0].start, named[-1].end), (named[0].start, named[0].end)):
                quote = self._quote(scan, seg.span, lo, hi)
                if quote is not None:
                    return seg, quote
        return None

    def _name(self, person: str) -> str:
        return self.roster.people[person].name

    def _title(self, people: list[str], counts: Counter[str], place: str | None,
               action: str | None) -> str:
        shown = people[:3] if len(people) > 2 and counts[people[2]] >= 2 else people[:2]
        names = "、".join(self._name(p) for p in shown)
        return names + (f"于{place}" if place else "") + (action or ("" if place else "同场"))

    # -- relations ------------------------------------------------------------------------------

    def _relations(self, scan: BlockScan, event: Event | None, tally: Counter[str]) -> list[Relation]:
        found: dict[tuple[str, str, str], Relation] = {}
        for index, seg in enumerate(scan.segments):
            if seg.verse:
                continue
            if seg.speech:
                for spoken in [*oath(scan, index, self.texts.is_unique),
                               *lord(scan, index, self.texts.is_unique),
                               *adoption(scan, index, self.texts.is_unique)]:
                    _keep(found, _linked(spoken, event))
            if seg.narrative:  # before the check of two people: the relative may stand before
                for kin in self._surname_kin(scan, seg, event):
                    _keep(found, kin)
            if len(seg.people) < 2:
                continue
            for cue in self.cues.relations:
                for match in cue.pattern.finditer(scan.masked, seg.span.start, seg.span.end):
                    for pair in cue_pairs(scan.text, seg.mentions, cue, match.start(), match.end(),
                                          seg.span.start, self.cues):
                        relation = self._relation(scan, seg, cue, pair, event)
                        if relation is None:
                            tally["relations_without_unique_quote"] += 1
                            continue
                        _keep(found, relation)
                        for also in cue.also:  # a capture in a fight: they fought too
                            _keep(found, _retyped(relation, also))
            for relation in self._name_relations(scan, seg, event):
                _keep(found, relation)
        for index, seg in enumerate(scan.segments):
            if seg.narrative:
                for relation in self._carried_kills(scan, index, event):
                    _keep(found, relation)
        return list(found.values())

    def _carried_kills(self, scan: BlockScan, index: int, event: Event | None) -> list[Relation]:
        """被甲揪倒来 … 便割下那妇人头来: a kill cue with its victim right after it and no name
        before it takes as killer the agent (after 被, else the subject) of the sentence up to
        three back that names the victim; that sentence, naming both, is the first quote."""
        seg = scan.segments[index]
        found = []
        for match in self.cues.kill_cue.finditer(scan.masked, seg.span.start, seg.span.end):
            victim = next((m for m in seg.mentions if 0 <= m.start - match.end() <= 1), None)
            if victim is None or any(m.end <= match.start() and m.person != victim.person
                                     for m in seg.mentions):
                continue
            for back in scan.segments[max(0, index - 3):index][::-1]:
                agent = _agent_of(scan.text, back, victim.person, self.cues)
                if agent is None:
                    continue
                first = min(agent.start, min(m.start for m in back.mentions if m.person == victim.person))
                quote = self._quote(scan, back.span, first, max(agent.end, first + 1))
                act = self._quote(scan, seg.span, match.start(), victim.end)
                if quote is not None:
                    refs = [self._ref(scan, q) for q in (quote, act) if q is not None]
                    linked = [event.id] if event is not None and \
                        {agent.person, victim.person} <= set(event.person_ids) else []
                    found.append(Relation(
                        id=relation_id(agent.person, victim.person, "killed"), source=agent.person,
                        target=victim.person, type="killed", directed=True,
                        chapters=[scan.block.chapter], events=linked, sources=refs, confidence=0.55,
                        origin="extracted", description="杀 with the killer named a sentence before"))
                break
        return found

    def _surname_kin(self, scan: BlockScan, seg: Segment, event: Event | None) -> list[Relation]:
        """长子甲乙, 其弟甲丙: a person named in full right after a kinship word (the genre's
        `kin_before_name`) is family of the one of the same surname named last before them in
        the block, within `KIN_BACK` characters (the father who spoke just before)."""
        kin = genre().kin_before_name
        if kin is None:
            return []
        names = self.roster.full_names
        found = []
        for m in seg.mentions:
            surname = surnames().of(names.get(m.person, ""))
            if surname is None or m.form != names.get(m.person) or len(m.form) == len(surname) or \
                    not kin.search(scan.text, max(seg.span.start, m.start - KIN_REACH), m.start):
                continue
            before = [o for o in scan.mentions if o.end <= m.start and m.start - o.end <= KIN_BACK
                      and o.person != m.person and surnames().of(names.get(o.person, "")) == surname]
            if not before:
                continue
            other = before[-1]
            source, target = sorted((other.person, m.person))
            quotes = self._kin_quotes(scan, other, m)
            if not quotes:
                continue
            linked = [event.id] if event is not None and {source, target} <= set(event.person_ids) else []
            found.append(Relation(id=relation_id(source, target, "family", False), source=source,
                                  target=target, type="family", directed=False,
                                  chapters=[scan.block.chapter], events=linked,
                                  sources=[self._ref(scan, q) for q in quotes], confidence=0.5,
                                  origin="extracted", description="kin of one surname"))
        return found

    def _kin_quotes(self, scan: BlockScan, other: Mention, kin: Mention) -> list[str]:
        """One passage from the relative named before to the one after the kinship word, or, when
        a speech stands between, the two names' own passages."""
        def around(m: Mention) -> Span | None:
            return next((s.span for s in scan.segments if s.span.start <= m.start < s.span.end), None)

        first, second = around(other), around(kin)
        if first is None or second is None:
            return []
        whole = self._quote(scan, Span(first.start, second.end), other.start, kin.end)
        if whole is not None:
            return [whole]
        quotes = [self._quote(scan, first, other.start, other.end),
                  self._quote(scan, second, max(second.start, kin.start - KIN_REACH), kin.end)]
        return [q for q in quotes if q is not None] if all(quotes) else []

    def _name_relations(self, scan: BlockScan, seg: Segment, event: Event | None) -> list[Relation]:
        """Relations a name states itself: 甲娘子 → spouse, 甲丈人 → father-in-law."""
        found = []
        for mention in seg.mentions:
            for other, rest in self.roster.embedded(mention.form, scan.block.chapter):
                for cue in self.cues.name_cues:
                    if cue.pattern.search(rest):
                        pair = Pair(*((mention.person, other) if cue.direction == "backward"
                                      else (other, mention.person)), 0, mention.start, mention.end)
                        relation = self._relation(scan, seg, cue, pair, event)
                        if relation is not None:
                            found.append(relation)
                        break
        return found

    def _relation(self, scan: BlockScan, seg: Segment, cue: RelationCue, pair: Pair,
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

    def _states(self, scan: BlockScan, tally: Counter[str]) -> list[State]:
        states: list[State] = []
        for seg in scan.segments:
            if not seg.mentions or seg.verse:
                continue
            for cue in self.cues.states:
                for match in cue.pattern.finditer(scan.masked, seg.span.start, seg.span.end):
                    value = cue.value.format(*match.groups()) if cue.value else match.group(1)
                    state = self._state(scan, seg, cue.kind, value, match.start(), match.end(),
                                        cue.gap, cue.confidence,
                                        scan.text[match.start():match.end()])  # the words, not the note
                    if state is not None:
                        states.append(state)
            if seg.narrative and not self.cues.retrospective.search(scan.text, seg.span.start, seg.span.end):
                states += self._place_states(scan, seg)
        tally["states_found"] += len(states)
        return states

    def _place_states(self, scan: BlockScan, seg: Segment) -> list[State]:
        states = []
        for match in scan.places.finditer(scan.text, seg.span.start, seg.span.end):
            verb = self.cues.place_to.search(scan.text, max(seg.span.start, match.start() - 2), match.start())
            if verb is None:
                continue
            moved = self.cues.place_move.search(scan.text, max(seg.span.start, match.start() - 2),
                                                match.start())
            state = self._state(scan, seg, "place", match.group(), verb.start(), match.end(), 8,
                                MOVE_CONFIDENCE if moved else 0.45, f"到{match.group()}")
            if state is not None:
                states.append(state)
        return states

    def _state(self, scan: BlockScan, seg: Segment, kind: StateKind, value: str, start: int, end: int,
               gap: int, confidence: float, note: str) -> State | None:
        before = [m for m in seg.mentions if m.end <= start and start - m.end <= gap
                  and not self.cues.negation.search(scan.text[m.end:start])
                  and not _agent(scan.text, m, self.cues)]
        if not before or not value:
            return None
        person = before[-1]
        quote = self._quote(scan, seg.span, person.start, end)
        if quote is None:
            return None
        return State(id="pending", person=person.person, kind=kind,
                     value=value, chapter=scan.block.chapter, description=note,
                     sources=[self._ref(scan, quote)], confidence=confidence, origin="extracted")


def _retyped(relation: Relation, type_: str) -> Relation:
    """The same pair and passage as another relation type (undirected: a fight has no side)."""
    a, b = sorted((relation.source, relation.target))
    return relation.model_copy(update={"id": relation_id(a, b, type_, False), "type": type_,
                                       "source": a, "target": b, "directed": False})


def _linked(relation: Relation, event: Event | None) -> Relation:
    """The relation citing the block's scene event when both its people are in it."""
    if event is None or not {relation.source, relation.target} <= set(event.person_ids):
        return relation
    return relation.model_copy(update={"events": [event.id]})


def _agent(text: str, mention: Mention, cues: Cues) -> bool:
    """被甲 / 吃乙: the agent of a passive, never the subject a state belongs to."""
    return mention.start > 0 and text[mention.start - 1] in cues.passive


def _agent_of(text: str, seg: Segment, victim: str, cues: Cues) -> Mention | None:
    """In a narrative sentence naming the victim: the agent after 被, else another subject."""
    if not seg.narrative or victim not in seg.people:
        return None
    others = [m for m in seg.mentions if m.person != victim]
    passive = [m for m in others if _agent(text, m, cues)]
    return passive[0] if passive else None


def _place(scan: BlockScan, span: Span) -> str | None:
    """The first place named in the event's own sentence."""
    match = scan.places.search(scan.text, span.start, span.end)
    return match.group() if match else None


def _setting(scan: BlockScan, people: list[str]) -> str | None:
    """The block's setting: a place an actor reaches or is at (来到/在 + place) in its narrative."""
    for seg in scan.segments:
        if not seg.narrative or not seg.people & set(people):
            continue
        for match in scan.places.finditer(scan.text, seg.span.start, seg.span.end):
            if scan.cues.place_to.search(scan.text, max(seg.span.start, match.start() - 2),
                                         match.start()):
                return match.group()
    return None


def _action(text: str, cues: Cues) -> str | None:
    match = cues.action_pattern.search(text)
    return cues.action_labels[match.group()] if match else None


def _narrative_with(scan: BlockScan, people: list[str]) -> list[Segment]:
    return [s for s in scan.segments if s.narrative and s.people & set(people)]


def _block_action(scan: BlockScan, people: list[str]) -> str | None:
    """An action word of a narrative sentence naming an actor (names masked)."""
    for seg in _narrative_with(scan, people):
        action = _action(scan.masked[seg.span.start:seg.span.end], scan.cues)
        if action is not None:
            return action
    return None


def _cue_action(scan: BlockScan, person: str) -> bool:
    """A strong act (打虎, 杀, 上山, 投奔 …) in the block's narrative, names masked."""
    return any(s.narrative and scan.cues.cue_actions.search(scan.masked, s.span.start, s.span.end)
               for s in scan.segments) and bool(_narrative_with(scan, [person]))


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
