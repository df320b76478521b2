"""Who relates to whom around a cue word: name lists, passive and disposal forms, gaps and negation.

The words come from the `Cues` (genre and language data, see `cues.py`); this module applies them
to one cue match inside one segment and returns (source, target) pairs with the span that the
quote must cover.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from extract.cues import NAME_CUE_TYPES, Cues, RelationCue, default_cues
from extract.names import Mention


def relation_confidence(cue: RelationCue, gap: int) -> float:
    """The cue's base confidence, minus 0.03 for each character between the names and the cue."""
    return round(max(0.2, cue.confidence - 0.03 * gap), 3)


@dataclass(frozen=True)
class Pair:
    source: str
    target: str
    gap: int
    first: int
    last: int


def _chain(text: str, mentions: list[Mention], index: int, step: int,
           connectors: frozenset[str]) -> list[Mention]:
    """Names joined to mentions[index] by 、/和/与 … going left (step −1) or right (step +1)."""
    chain = [mentions[index]]
    j = index
    while 0 <= j + step < len(mentions):
        a, b = (mentions[j + step], mentions[j]) if step < 0 else (mentions[j], mentions[j + step])
        if text[a.end:b.start] not in connectors:
            break
        j += step
        chain.append(mentions[j])
    return chain[::-1] if step < 0 else chain


def _passive_patient(text: str, mentions: list[Mention], first: Mention,
                     cues: Cues) -> Mention | None:
    """For 乙被甲杀了: the name right before 被 when `first` (the agent) follows 被."""
    if first.start == 0 or text[first.start - 1] not in cues.passive + cues.disposal:
        return None
    marker = first.start - 1
    before = [m for m in mentions if m.end <= marker and marker - m.end <= 3]
    return before[-1] if before else None


def cue_pairs(text: str, mentions: list[Mention], cue: RelationCue, start: int, end: int,
              segment_start: int = 0, cues: Cues | None = None) -> list[Pair]:
    """The (source, target) pairs one cue match at [start, end) signals between named people."""
    cues = cues or default_cues()
    left = _near_left(text, mentions, start, cue, segment_start, cues)
    right = _near_right(text, mentions, end, cue, cues)
    if not left and right and cue.subject_reach:
        left = clause_subject(text, mentions, start, segment_start, cue.subject_reach, cues)
    if not left and not right and cue.subject_reach and cue.gap_after >= 0:
        disposed = _disposed(text, mentions, start, segment_start, cue.subject_reach, cues)
        if disposed is not None:
            agent = clause_subject(text, mentions, disposed.start - 1, segment_start,
                                   cue.subject_reach, cues)
            left, right = agent, [disposed] if agent else []
    if left and not right and cue.type in NAME_CUE_TYPES and cue.gap_after >= 0:
        right = _copula_subject(text, mentions, left[0], segment_start, cues)
    if left and cues.negation.search(text[left[-1].end:start]):
        return []
    if left and cue.direction != "none" and cues.hearsay.search(text[left[-1].end:start]):
        return []
    gap = (start - left[-1].end if left else 0) + (right[0].start - end if right else 0)
    spans = [m.start for m in left + right] + [start], [m.end for m in left + right] + [end]
    pairs: list[tuple[Mention, Mention]] = []
    other = _passive_patient(text, mentions, left[0], cues) if left else None
    if other is not None:
        agent_before = text[left[0].start - 1] in cues.disposal  # 甲把乙杀了 / 乙被甲杀了
        pairs = [(other, m) if agent_before else (m, other) for m in left]
        spans[0].append(other.start)
    elif left and right:
        pairs = [(a, b) for a in left for b in right]
    elif cue.group and len(left) >= 2:
        pairs = list(combinations(left, 2))  # 甲、乙、丙…结为兄弟: every two of them
    elif cue.direction == "none" and len(left) == 2 and \
            text[left[0].end:left[1].start] in (cues.pair_connectors | {"、"} if cue.gap_before <= 1
                                                 else cues.pair_connectors):
        pairs = [(left[0], left[1])]
    if not pairs and cue.pair_before:
        pairs = _nearest_two(mentions, start, segment_start, cue.pair_before)
    if cue.direction == "backward":
        pairs = [(b, a) for a, b in pairs]
    return [Pair(a.person, b.person, gap, min(spans[0]), max(spans[1]))
            for a, b in pairs if a.person != b.person]


def _nearest_two(mentions: list[Mention], start: int, segment_start: int, reach: int
                 ) -> list[tuple[Mention, Mention]]:
    """The two nearest different people named before the cue within `reach` characters, the
    earlier first (甲见了乙，交马战不十合 → 甲, 乙)."""
    before = [m for m in mentions if segment_start <= m.start and m.end <= start
              and start - m.end <= reach]
    nearest: list[Mention] = []
    for mention in reversed(before):
        if all(mention.person != m.person for m in nearest):
            nearest.append(mention)
        if len(nearest) == 2:
            return [(nearest[1], nearest[0])]
    return []


CLAUSE_BREAKS = "，；：、"
"""What ends a clause inside a sentence (a segment ends at 。！？ and at speech marks)."""
MAX_CARRIED = 1
"""A subject carries over this many clause breaks at most: 甲擒了丙，斩了乙 is one topic chain;
甲军马，已杀入城，众将一发向前，生擒了乙 has passed to someone the text does not name."""


def _heads_clause(text: str, at: int, clause_start: int, cues: Cues) -> bool:
    head = text[clause_start:at]
    return not head or head.endswith(cues.clause_openers) or \
        bool(cues.carry_lead.fullmatch(head))


def clause_subject(text: str, mentions: list[Mention], start: int, segment_start: int,
                   reach: int, cues: Cues) -> list[Mention]:
    """The agent of a cue whose patient follows it but whose agent is not named right before
    it: Chinese names the subject once at the head of its clause and lets it govern a string of
    verbs (甲正要分兵缉擒乙), and across commas a whole topic chain (甲擒了丙，斩了乙). So:
    the name (or names joined by 与/、) heading the cue's clause when nothing else is named
    between it and the cue, at most `reach` characters before the cue; else, the clause naming
    no one before the cue, the subject heading the sentence, when each name after it ends its
    own clause (an object: 丙，) and no causative (唤/令/教丙，…: 丙 may act) stands between,
    one clause break away at most (`MAX_CARRIED`)."""
    breaks = [i for i in range(segment_start, start) if text[i] in CLAUSE_BREAKS]
    clause_start = breaks[-1] + 1 if breaks else segment_start
    before = [i for i, m in enumerate(mentions) if segment_start <= m.start and m.end <= start]
    inside = [i for i in before if mentions[i].start >= clause_start]
    if inside:
        chain = _chain(text, mentions, inside[0], 1, cues.connectors)
        if len(chain) < len(inside) or start - chain[-1].end > reach or \
                not _heads_clause(text, chain[0].start, clause_start, cues):
            return []
        return chain
    if not before or start - clause_start > 4:
        return []
    subject = mentions[before[0]]
    carried = sum(1 for ch in text[subject.end:clause_start] if ch in CLAUSE_BREAKS)
    if carried > MAX_CARRIED or not _heads_clause(text, subject.start, segment_start, cues) or \
            cues.causatives.search(text, subject.end, clause_start):
        return []
    for i in before[1:]:
        m = mentions[i]
        if m.person != subject.person and text[m.end:m.end + 1] not in CLAUSE_BREAKS:
            return []
    if start - subject.end > 3 * reach:
        return []
    return [subject]


def _copula_subject(text: str, mentions: list[Mention], holder: Mention, segment_start: int,
                    cues: Cues) -> list[Mention]:
    """乙是甲家心腹人 / 乙乃甲之子: a relational noun after 甲 with no name after it says what
    the subject of the copula before 甲 is to him; that subject stands where a name after the
    noun would (甲的心腹乙)."""
    before = [m for m in mentions if segment_start <= m.start and m.end <= holder.start]
    if not before or before[-1].person == holder.person:
        return []
    subject = before[-1]
    if not cues.copula.fullmatch(text, subject.end, holder.start):
        return []
    breaks = [i for i in range(segment_start, subject.start) if text[i] in CLAUSE_BREAKS]
    clause_start = breaks[-1] + 1 if breaks else segment_start
    heads = _heads_clause(text, subject.start, clause_start, cues) or \
        bool(cues.copula_head.fullmatch(text, clause_start, subject.start))
    return [subject] if heads else []


def _disposed(text: str, mentions: list[Mention], start: int, segment_start: int, reach: int,
              cues: Cues) -> Mention | None:
    """The patient of a disposal construction in the cue's clause (把乙胸脯上又连搠了两刀): the
    name right after 把/将, at most `reach` characters before the cue, nothing but it named
    between."""
    breaks = [i for i in range(segment_start, start) if text[i] in CLAUSE_BREAKS]
    clause_start = breaks[-1] + 1 if breaks else segment_start
    inside = [m for m in mentions if clause_start <= m.start and m.end <= start]
    if not inside or start - inside[-1].end > reach:
        return None
    patient = inside[-1]
    if patient.start == 0 or text[patient.start - 1] not in cues.disposal:
        return None
    return patient


def _subject_of_clause(text: str, mention: Mention, segment_start: int, cues: Cues) -> bool:
    head = text[segment_start:mention.start]
    return not head or head[-1] in "，：、" or head.endswith(cues.clause_openers)


def _near_left(text: str, mentions: list[Mention], start: int, cue: RelationCue,
               segment_start: int, cues: Cues) -> list[Mention]:
    before = [i for i, m in enumerate(mentions) if m.end <= start]
    if not before or start - mentions[before[-1]].end > cue.gap_before:
        return []
    chain = _chain(text, mentions, before[-1], -1, cues.connectors)
    gap_text = text[chain[-1].end:start]
    if cue.direction != "none" and re.search(r"[，、：]", gap_text):
        head = re.split(r"[，、：]", gap_text, maxsplit=1)[0]
        if len(head) > 4 or not _subject_of_clause(text, chain[0], segment_start, cues):
            return []  # 要追甲，火急差乙: 甲 is not who sends 乙
    return chain


def _near_right(text: str, mentions: list[Mention], end: int, cue: RelationCue,
                cues: Cues) -> list[Mention]:
    after = [i for i, m in enumerate(mentions) if m.start >= end]
    if not after or cue.gap_after < 0:
        return []
    first = mentions[after[0]]
    gap_text = text[end:first.start]
    if len(gap_text) > cue.gap_after or re.search(r"[，、：]", gap_text) or \
            cues.negation.search(gap_text):
        return []
    chain = _chain(text, mentions, after[0], 1, cues.connectors)
    if (cue.direction != "none" or cue.type == "fought") and \
            cues.patient_tail.match(text, chain[-1].end):
        return []  # 杀甲老小: his household, not 甲
    return chain
