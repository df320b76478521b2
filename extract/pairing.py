"""Who relates to whom around a cue word: name lists, passive and disposal forms, gaps and negation.

The rules are in `cues.py` (what each constant means); this module applies them to one cue match
inside one segment and returns (source, target) pairs with the span that the quote must cover.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extract.cues import (
    CLAUSE_OPENERS,
    CONNECTORS,
    DISPOSAL,
    HEARSAY,
    NEGATION,
    PAIR_CONNECTORS,
    PASSIVE,
    PATIENT_TAIL,
    RelationCue,
)
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


def _chain(text: str, mentions: list[Mention], index: int, step: int) -> list[Mention]:
    """Names joined to mentions[index] by 、/和/与 … going left (step −1) or right (step +1)."""
    chain = [mentions[index]]
    j = index
    while 0 <= j + step < len(mentions):
        a, b = (mentions[j + step], mentions[j]) if step < 0 else (mentions[j], mentions[j + step])
        if text[a.end:b.start] not in CONNECTORS:
            break
        j += step
        chain.append(mentions[j])
    return chain[::-1] if step < 0 else chain


def _passive_patient(text: str, mentions: list[Mention], first: Mention) -> Mention | None:
    """For 乙被甲杀了: the name right before 被 when `first` (the agent) follows 被."""
    if first.start == 0 or text[first.start - 1] not in PASSIVE + DISPOSAL:
        return None
    marker = first.start - 1
    before = [m for m in mentions if m.end <= marker and marker - m.end <= 3]
    return before[-1] if before else None


def cue_pairs(text: str, mentions: list[Mention], cue: RelationCue, start: int, end: int,
              segment_start: int = 0) -> list[Pair]:
    """The (source, target) pairs one cue match at [start, end) signals between named people."""
    left = _near_left(text, mentions, start, cue, segment_start)
    right = _near_right(text, mentions, end, cue)
    if left and NEGATION.search(text[left[-1].end:start]):
        return []
    if left and cue.direction != "none" and HEARSAY.search(text[left[-1].end:start]):
        return []
    gap = (start - left[-1].end if left else 0) + (right[0].start - end if right else 0)
    spans = [m.start for m in left + right] + [start], [m.end for m in left + right] + [end]
    pairs: list[tuple[Mention, Mention]] = []
    other = _passive_patient(text, mentions, left[0]) if left else None
    if other is not None:
        agent_before = text[left[0].start - 1] in DISPOSAL  # 甲把乙杀了 / 乙被甲杀了
        pairs = [(other, m) if agent_before else (m, other) for m in left]
        spans[0].append(other.start)
    elif left and right:
        pairs = [(a, b) for a in left for b in right]
    elif cue.direction == "none" and len(left) == 2 and \
            text[left[0].end:left[1].start] in (PAIR_CONNECTORS | {"、"} if cue.gap_before <= 1
                                                 else PAIR_CONNECTORS):
        pairs = [(left[0], left[1])]
    if cue.direction == "backward":
        pairs = [(b, a) for a, b in pairs]
    return [Pair(a.person, b.person, gap, min(spans[0]), max(spans[1]))
            for a, b in pairs if a.person != b.person]


def _subject_of_clause(text: str, mention: Mention, segment_start: int) -> bool:
    head = text[segment_start:mention.start]
    return not head or head[-1] in "，：、" or head.endswith(CLAUSE_OPENERS)


def _near_left(text: str, mentions: list[Mention], start: int, cue: RelationCue,
               segment_start: int) -> list[Mention]:
    before = [i for i, m in enumerate(mentions) if m.end <= start]
    if not before or start - mentions[before[-1]].end > cue.gap_before:
        return []
    chain = _chain(text, mentions, before[-1], -1)
    gap_text = text[chain[-1].end:start]
    if cue.direction != "none" and re.search(r"[，、：]", gap_text):
        head = re.split(r"[，、：]", gap_text, maxsplit=1)[0]
        if len(head) > 4 or not _subject_of_clause(text, chain[0], segment_start):
            return []  # 要追甲，火急差乙: 甲 is not who sends 乙
    return chain


def _near_right(text: str, mentions: list[Mention], end: int, cue: RelationCue) -> list[Mention]:
    after = [i for i, m in enumerate(mentions) if m.start >= end]
    if not after or cue.gap_after < 0:
        return []
    first = mentions[after[0]]
    gap_text = text[end:first.start]
    if len(gap_text) > cue.gap_after or re.search(r"[，、：]", gap_text) or NEGATION.search(gap_text):
        return []
    chain = _chain(text, mentions, after[0], 1)
    if (cue.direction != "none" or cue.type == "fought") and PATIENT_TAIL.match(text, chain[-1].end):
        return []  # 杀甲老小: his household, not 甲
    return chain
