"""One block under extraction: mentions, segments marked as speech or verse, and who acts in it.

Counting names says who is talked about, not who is there: 甲 recalled in 乙's speech is not in
the room, and neither a verse line nor a nickname holding an act word (打虎, 放火) is an act. So a
segment knows whether it is quoted speech or verse, action words are searched in a text where
every matched name is masked, and the actors of a block are the people named as the subject of an
act (a name followed by a verb: 甲提了哨棒, 甲道) or named at least twice in its narrative.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from core.text import to_simplified
from extract.corpus_tables import CorpusTables
from extract.cues import CONTEXT_REACH, Cues, default_cues
from extract.given_names import given_name_mentions, named_in_full
from extract.names import Mention, Roster
from extract.text import Span, segments
from ingest.chunking import Block

OPEN_QUOTES, CLOSE_QUOTES = "「『“", "」』”"
MASK = "□"
VERSE_CLAUSE = re.compile(r"[，。；！？、,;!?]")
MIN_VERSE_CLAUSES = 4
NARRATIVE_REPEATS = 2
"""Named this many times outside speech and verse: part of the scene even without a verb."""


@dataclass
class Segment:
    """A sentence or a piece of speech, its mentions, and whether it is speech or verse."""

    span: Span
    mentions: list[Mention]
    speech: bool = False
    verse: bool = False

    @property
    def people(self) -> set[str]:
        return {m.person for m in self.mentions}

    @property
    def narrative(self) -> bool:
        return not self.speech and not self.verse


def _speech_depth(text: str) -> list[int]:
    """Quote nesting depth at every character (speech marks themselves count as outside)."""
    depth, level = [], 0
    for ch in text:
        if ch in CLOSE_QUOTES:
            level = max(0, level - 1)
        depth.append(level)
        if ch in OPEN_QUOTES:
            level += 1
    return depth


def _fixed_length(paragraph: str) -> bool:
    """Lines of verse: at least four clauses, three in four of one length between 4 and 8."""
    if "「" in paragraph or "」" in paragraph:
        return False
    parts = [p for p in VERSE_CLAUSE.split(paragraph.strip()) if p.strip()]
    if len(parts) < MIN_VERSE_CLAUSES:
        return False
    length, count = Counter(len(p.strip()) for p in parts).most_common(1)[0]
    return 4 <= length <= 8 and count * 4 >= len(parts) * 3


def verse_spans(text: str, cues: Cues | None = None) -> list[Span]:
    """Verse in a simplified block text: a paragraph of fixed-length lines, the rest of a paragraph
    after 诗曰/但见/正是… said by the narrator (a speaker's 「…正是杀人可恕…」 opens no verse: the
    narrative after the speech stays narrative), and the paragraph after one that ends on such an
    opener."""
    cues = cues or default_cues()
    spans: list[Span] = []
    depth = _speech_depth(text)
    start, opened = 0, False
    for line in text.split("\n"):
        end = start + len(line)
        stripped = line.strip()
        if opened or _fixed_length(stripped):
            spans.append(Span(start, end))
        else:
            at = next((m.start() for m in cues.verse_pattern.finditer(line)
                       if depth[start + m.start()] == 0), -1)
            if at >= 0:
                spans.append(Span(start + at, end))
        opened = stripped.endswith(("：", ":", "曰")) and any(o in stripped[-6:]
                                                               for o in cues.verse_openers)
        start = end + 1
    return spans


class BlockScan:
    """One block under extraction: its simplified text, segments, mentions and actors."""

    def __init__(self, block: Block, roster: Roster, cues: Cues | None = None,
                 carried: frozenset[str] = frozenset()) -> None:
        self.block = block
        self.cues = cues = cues or default_cues(roster.tables)
        self.places = roster.tables.place_pattern
        self.text = to_simplified(block.text)
        mentions = roster.matcher(block.chapter).find(self.text)
        mentions += _context_mentions(self.text, block.chapter, mentions, roster.tables)
        self.named_in_full = named_in_full(mentions, roster.full_names)
        """who this block names in full: `carried` to the next block of the chapter"""
        mentions += given_name_mentions(self.text, mentions, roster.full_names, cues, carried)
        self.mentions = sorted(mentions, key=lambda m: m.start)
        self.masked = _mask(self.text, self.mentions)
        depth = _speech_depth(self.text)
        verse = verse_spans(self.text, cues)
        self.segments = [Segment(s, [m for m in self.mentions if s.covers(m.start, m.end)],
                                 speech=depth[s.start] > 0,
                                 verse=any(v.covers(s.start, s.start + 1) for v in verse))
                         for s in segments(self.text)]

    def counts(self) -> Counter[str]:
        return Counter(m.person for m in self.mentions)

    def narrative_counts(self) -> Counter[str]:
        return Counter(m.person for s in self.segments if s.narrative for m in s.mentions)

    def actors(self) -> list[str]:
        """People who act here, the most named first: subjects of an act, or named twice. A name
        that only owns a relative named after it (甲妻乙: `Cues.kin_apposition`) is not
        counted: 乙 is who is there, 甲 may be long dead."""
        counts = self.narrative_counts() - Counter(m.person for m in self._possessors())
        acting = {p for p, n in counts.items() if n >= NARRATIVE_REPEATS}
        for seg in self.segments:
            if seg.narrative:
                acting |= {m.person for m in subjects(self.text, seg, self.cues)}
        return sorted(acting, key=lambda p: (-counts[p], self._first(p)))

    def _possessors(self) -> list[Mention]:
        kin = self.cues.kin_apposition
        if kin is None:
            return []
        starts = {m.start for m in self.mentions}
        return [m for s in self.segments if s.narrative for m in s.mentions
                if (owned := kin.match(self.text, m.end)) and owned.end() in starts]

    def _first(self, person: str) -> int:
        return next(m.start for m in self.mentions if m.person == person)


def subjects(text: str, seg: Segment, cues: Cues) -> list[Mention]:
    """Mentions followed (after any names joined to them) by a verb or a speech verb."""
    found = []
    for i, mention in enumerate(seg.mentions):
        j = i
        while j + 1 < len(seg.mentions) and \
                text[seg.mentions[j].end:seg.mentions[j + 1].start] in cues.connectors:
            j += 1
        tail = text[seg.mentions[j].end:seg.span.end]
        if cues.actor_verbs.match(tail) or cues.speech_verb.match(tail):
            found.append(mention)
    return found


def _mask(text: str, mentions: list[Mention]) -> str:
    """The text with every matched name blanked, so that a nickname holding 打虎 gives no action word."""
    chars = list(text)
    for m in mentions:
        chars[m.start:m.end] = MASK * (m.end - m.start)
    return "".join(chars)


def _context_mentions(text: str, chapter: int, mentions: list[Mention],
                      tables: CorpusTables) -> list[Mention]:
    """Generic forms (娘子) that denote one person where an anchor is named just before them."""
    found = []
    for cf in tables.context_forms:
        if not cf.first <= chapter <= cf.last:
            continue
        for match in re.finditer(re.escape(cf.form), text):
            taken = any(m.start < match.end() and match.start() < m.end for m in mentions)
            near = any(m.person in cf.anchors and 0 <= match.start() - m.end <= CONTEXT_REACH
                       for m in mentions)
            if not taken and near:
                found.append(Mention(cf.person, match.start(), match.end(), cf.form))
    return found
