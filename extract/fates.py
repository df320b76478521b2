"""Fates: who dies where, from the genre's words of dying (死, 卒, 崩, 自刎, 病故, 被杀 …).

A fate is a `status` state of the person it is said of, in the chapter that tells it, quoted. The
rule, over each sentence of a block (verse never; speech only when nothing before the cue in it
doubts — 若, 必, 欲 …: a threat, a fear —, and never a carried fate):

1. **The person** is the name nearest before the cue within the cue's `gap`, not the agent of a
   passive (乙被甲所杀: 乙 dies, not 甲; every name of a list after 被 is an agent), with no
   doubt between them (几乎, 诈, 若, 欲 … — a narrow escape, a feint, a plan) and no word of
   hearsay (甲闻乙死: 乙 dies, 甲 only hears; 甲听罢 is no hearsay); across a clause break, a
   name that heads its clause, and only when the cue's own clause says no more than a word or
   two before it (see `_person`). Names listed with it die with it (甲、乙自缢身死).
2. **Carried**: a strong cue with no name before it in its sentence (言毕，驾崩 / 众将视之，已薨矣)
   is said of the person spoken of just before: the speaker of the speech right before it, or
   the subject of the nearest narrative sentence naming someone (at most `CARRY_BACK`
   sentences back, in the same block); nobody when neither is found, or when the sentence says
   more before the cue than a few words of time (`CARRY_HEAD`, the genre's `carry_lead`).
3. **Killed**: the target of a `killed` relation told in the narrative dies in its chapter
   (`from_kills`), quoted by the relation's first passage, which names both.

One fate per person and chapter: the first found; over the book, the first that the person's
later acts do not refute (`credible_fates`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from re import Match

from core.text import to_simplified
from extract.cues import Cues, FateCue
from extract.names import Mention
from extract.scene import BlockScan, Segment, subjects
from extract.text import Span
from kb.knowledge.models import Event, Relation, SourceRef, State

LIVES_ON, AFTERLIFE = 2, 0.2
"""Later chapters a person may still take part in after a death that is theirs (a funeral, a
ghost, a name recalled twice in a scene): two, or a fifth of the chapters they acted in before —
a hero is remembered longer than a bystander."""
ALIVE_IN_SCENE = 5
"""Events of one later chapter that a person takes part in: this many, and they live on there (a
false report of their death: 诈称身死); a memory or a ghost is one scene or two."""
CARRY_BACK = 4
"""Sentences looked back for the person a carried fate is said of."""
CARRY_HEAD = 8
"""A carried fate's sentence says at most this much before the cue (言毕，驾崩 / 众将近前视之，已薨矣):
a longer one has a subject of its own that the roster may not know."""
LEAD = 2
"""Characters allowed before the cue in its own clause after a clause break (遂卒, 竟死)."""
BETWEEN = 3
"""Characters allowed between the name and the cue within one clause (父子皆遇害, 发背疮而死): a
longer stretch holds another subject (甲老婆某氏已死)."""
CLAUSE = re.compile(r"[，：,:]")
REACH = 30
"""How far before the cue a clause-heading subject may be."""
MAX_BREAKS, SHORT = 2, 6
"""Across clause breaks: at most two, each clause between the subject's and the cue's of a few
characters, none handing the act to someone else (把, 被): 甲听罢，大叫一声，气绝而死 and
甲被乙威逼亲事，自缢身死 — but not 甲…，把乙削去半个天灵盖，死于马上."""
FATE_NOTE = "fate"
"""The description of every fate state: what measuring and journeys read."""
Quote = Callable[[BlockScan, Span, int, int], "str | None"]
"""(scan, segment, start, end) → a quote of the block unique in its chapter, or None."""


def fate_states(scan: BlockScan, quote: Quote) -> list[State]:
    """The fates told in a block's narrative (rules 1 and 2)."""
    found: list[State] = []
    for index, seg in enumerate(scan.segments):
        if seg.verse:
            continue
        for cue in scan.cues.fates:
            for match in cue.pattern.finditer(scan.masked, seg.span.start, seg.span.end):
                found += _fate(scan, index, cue, match, quote)
    return found


def _fate(scan: BlockScan, index: int, cue: FateCue, match: Match[str], quote: Quote
          ) -> list[State]:
    seg = scan.segments[index]
    if scan.cues.retold.match(scan.text, match.end()):
        return []  # 被杀一事: a death retold
    if seg.speech and scan.cues.fate_doubt.search(scan.text, seg.span.start, match.start()):
        return []  # 「若…必死」: spoken fears and threats
    person = _person(scan.text, seg, match.start(), match.end(), cue, scan.cues)
    if person is not None:
        listed = _listed(scan.text, seg, person, scan.cues)
        text = quote(scan, seg.span, listed[0].start, match.end())
        if text is None:
            return []
        return [_state(scan, m.person, cue, [text]) for m in listed]
    head = scan.text[seg.span.start:match.start()]
    if seg.speech or not cue.carried or any(m.end <= match.start() for m in seg.mentions) or \
            len(head) > CARRY_HEAD or not scan.cues.carry_lead.fullmatch(CLAUSE.split(head)[-1]):
        return []
    carried = _carried(scan, index)
    if carried is None:
        return []
    told, (back, named) = quote(scan, seg.span, match.start(), match.end()), carried
    naming = quote(scan, scan.segments[back].span, named.start, named.end)
    if told is None or naming is None:
        return []
    return [_state(scan, named.person, cue, [told, naming])]


def _person(text: str, seg: Segment, start: int, end: int, cue: FateCue, cues: Cues
            ) -> Mention | None:
    """Rule 1: the name nearest before the cue that is not a passive's agent, nothing doubting;
    within its clause at most `cue.gap` before it with a word or two between; across clause
    breaks (`MAX_BREAKS`, `SHORT`), a name that heads its clause with no other name after it,
    `REACH` at most, when the cue's own clause says no more than `LEAD` characters before it
    (甲杀入东宫时，那公主自缢: not 甲)."""
    before = [m for m in seg.mentions if m.end <= start and start - m.end <= REACH]
    acting = {m.person for m in _agents(text, [m for m in seg.mentions if m.start < end], cues)}
    if before and text[start:end].startswith(tuple(p + n for p in cues.passive
                                                   for n in cues.pronouns)):
        return None  # 撞着甲，被他刺死: 他 is 甲, who kills; the one who dies is not named
    for mention in reversed(before):
        if mention.person in acting:
            continue  # 甲与乙斗…，被甲斩了: 甲 acts, he does not die
        between = text[mention.end:start]
        if cues.fate_doubt.search(between) or cues.fate_hearsay.search(between):
            return None
        if _object(text, seg, mention, cues) or cues.patient_tail.match(text, mention.end):
            return None  # 因征甲时死 / 甲家属被害: someone else dies
        parts = CLAUSE.split(between)
        if len(parts) == 1:
            near = len(between) <= BETWEEN and start - mention.end <= cue.gap
            return mention if near else None
        alone = not any(mention.end <= m.start < start and m.person not in acting
                        for m in seg.mentions)
        later = "".join(parts[1:])  # the clauses after the subject's own
        short = len(parts) - 1 <= MAX_BREAKS and all(len(p) <= SHORT for p in parts[1:-1]) and \
            len(parts[-1]) <= LEAD and not any(ch in later for ch in cues.passive + cues.disposal)
        struck = cues.fate_strike.search(parts[0]) is not None  # 甲刺中乙咽喉，死于马下
        return mention if alone and short and not struck and _heads_clause(text, seg, mention) \
            else None
    return None


def _object(text: str, seg: Segment, mention: Mention, cues: Cues) -> bool:
    """The mention is the object of an act in its clause (征甲, 撞着甲, 使甲): the genre's
    `fate_object` right before it."""
    cut = max((m.end() for m in CLAUSE.finditer(text, seg.span.start, mention.start)),
              default=seg.span.start)
    return cues.fate_object.search(text[cut:mention.start]) is not None


def _listed(text: str, seg: Segment, mention: Mention, cues: Cues) -> list[Mention]:
    """The mention and the names listed right before it (甲、乙自缢身死: both die)."""
    listed = [mention]
    earlier = [m for m in seg.mentions if m.end <= mention.start]
    for other in reversed(earlier):
        if text[other.end:listed[0].start] not in cues.connectors - {""}:
            break
        listed.insert(0, other)
    return list({m.person: m for m in listed}.values())


def _heads_clause(text: str, seg: Segment, mention: Mention) -> bool:
    """No other name before the mention in its clause: it is the clause's subject."""
    cut = max((m.end() for m in CLAUSE.finditer(text, seg.span.start, mention.start)),
              default=seg.span.start)
    return not any(cut <= m.start < mention.start for m in seg.mentions)


def _agents(text: str, mentions: list[Mention], cues: Cues) -> set[Mention]:
    """Names right after a passive marker, and the names listed after them (被甲、乙所杀)."""
    agents: set[Mention] = set()
    for i, mention in enumerate(mentions):
        after_marker = mention.start > 0 and text[mention.start - 1] in cues.passive
        listed = i > 0 and mentions[i - 1] in agents and \
            text[mentions[i - 1].end:mention.start] in cues.connectors
        if after_marker or listed:
            agents.add(mention)
    return agents


def _carried(scan: BlockScan, index: int) -> tuple[int, Mention] | None:
    """Rule 2: (segment index, mention) of the person a carried fate is said of."""
    for back in range(index - 1, max(-1, index - 1 - CARRY_BACK), -1):
        seg = scan.segments[back]
        if seg.verse:
            return None
        if seg.speech:
            speaker = _speaker_of(scan, back)
            if speaker is not None:
                return speaker
            continue
        acting = subjects(scan.text, seg, scan.cues)
        if acting:
            return back, acting[0]
    return None


def _speaker_of(scan: BlockScan, index: int) -> tuple[int, Mention] | None:
    """The speaker of speech segment `index`: a name before a speech verb in the narrative
    segment that opens the speech (甲曰：「…」)."""
    for back in range(index - 1, max(-1, index - 3), -1):
        seg = scan.segments[back]
        if seg.speech:
            continue
        speaking = [m for m in seg.mentions
                    if scan.cues.speech_verb.match(scan.text[m.end:seg.span.end])]
        return (back, speaking[-1]) if speaking else None
    return None


def _state(scan: BlockScan, person: str, cue: FateCue, quotes: list[str]) -> State:
    chapter = scan.block.chapter
    return State(id="pending", person=person, kind="status", value=cue.value, chapter=chapter,
                 description=FATE_NOTE,
                 sources=[SourceRef(chapter=chapter, quote=q, chunk_id=scan.block.id)
                          for q in quotes],
                 confidence=cue.confidence, origin="extracted")


KILLED_FATE = "被杀身亡"


def from_kills(scan: BlockScan, relations: Iterable[Relation]) -> list[State]:
    """Rule 3: the target of a kill told in the block's narrative dies in the kill's chapter,
    quoted by its first passage (a kill in speech is a plan, a threat or a retelling)."""
    found = []
    for relation in relations:
        if relation.type != "killed" or not relation.sources or \
                not _narrated(scan, relation.sources[0].quote) or \
                scan.cues.retold.search(to_simplified(relation.sources[0].quote)):
            continue  # 把杀了甲的事说了: a kill retold is no death of this chapter
        first = relation.sources[0]
        found.append(State(id="pending", person=relation.target, kind="status",
                           value=KILLED_FATE, chapter=first.chapter or relation.chapters[0],
                           description=FATE_NOTE, sources=[first],
                           confidence=relation.confidence, origin="extracted"))
    return found


def _narrated(scan: BlockScan, quote: str) -> bool:
    at = scan.block.text.find(quote)
    return at >= 0 and any(s.narrative and s.span.start <= at < s.span.end for s in scan.segments)


def one_a_chapter(states: Iterable[State]) -> list[State]:
    """The first fate of each person in each chapter; other states untouched."""
    seen: set[tuple[str, int]] = set()
    kept = []
    for state in states:
        if state.description == FATE_NOTE:
            key = (state.person, state.chapter)
            if key in seen:
                continue
            seen.add(key)
        kept.append(state)
    return kept


def credible_fates(states: Iterable[State], events: Iterable[Event]) -> list[State]:
    """A person dies once, and the dead do not act: of a person's fates over the book, the first
    after which they take part in events of few later chapters (`LIVES_ON`, `AFTERLIFE`) is
    kept (a death reported by a ruse, or feared, is refuted by the chapters the person goes on
    acting in); the
    rest of their fates go (they retell it: 话说甲杀了乙 opening the next chapter, 闻知乙已死).
    Other states are untouched."""
    ordered = list(states)
    acts: dict[str, Counter[int]] = {}
    for event in events:
        for person in event.person_ids:
            acts.setdefault(person, Counter())[event.chapter] += 1
    kept: dict[str, State] = {}
    for state in sorted((s for s in ordered if s.description == FATE_NOTE),
                        key=lambda s: s.chapter):
        if state.person in kept:
            continue
        chapters = acts.get(state.person, Counter())
        later = [n for c, n in chapters.items() if c > state.chapter]
        if len(later) <= max(LIVES_ON, AFTERLIFE * (len(chapters) - len(later))) and \
                max(later, default=0) < ALIVE_IN_SCENE:
            kept[state.person] = state
    return [s for s in ordered if s.description != FATE_NOTE or kept.get(s.person) is s]
