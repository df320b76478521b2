"""The 回目: each chapter's title couplet, its two halves as the chapter's headline events.

A chapter of the genre is headed by a couplet naming the two episodes it is remembered by
(第一回 宴桃园豪杰三结义　斩黄巾英雄首立功). `halves` cuts the number heading and splits the rest
at the genre's separator (`Huimu` in the genre data). For each half, `headline_event`:

1. **The block that tells it**: the chapter block sharing most of the half's words — its
   character bigrams outside names, each 2 divided by the number of the chapter's blocks that
   hold it (a word only one block holds decides, 豪杰 in every block does not), and its
   characters the same way at a quarter of that weight (桃园…结义: the block of 桃园 and 结为兄弟,
   not the block of 豪杰 alone) — plus 2 for each
   person the half names who acts in the block and 1 for one merely named; the second half is
   looked for from the first half's block on (a couplet tells its episodes in order). Ties go to
   the earlier block.
2. **Participants**: the people the half names (its names and aliases, resolved in the
   chapter), first; then the people who act most in that block (the scene's others: 某城甲殒命 is
   甲's, and the scene of those who took and judged him), all of them when the half names no one
   (宴桃园豪杰三结义).
3. **The quote**: the block's narrative sentence sharing most of the half's bigrams and naming
   most participants, as a verbatim quote unique in its chapter (not the other half's).

The event is titled by the half (simplified), marked a turning point when the half names its
people (it is about them), and ordered just after the scene event of its block.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.text import to_simplified
from extract.cues import Cues
from extract.names import Roster
from extract.scene import BlockScan, Segment
from extract.text import ChapterTexts, window
from kb.knowledge.genre import Huimu
from kb.knowledge.models import Event, Participant, SourceRef

WORD, CHAR, ACTING, NAMED = 2, 0.5, 2, 1
"""What weighs in choosing the half's block: each of its bigrams there, a person it names acting
there, or only named."""
MAX_FROM_BLOCK = 3
"""Participants taken from the block beside those the half names."""


def halves(title: str, huimu: Huimu) -> list[str]:
    """The couplet's halves (simplified), the number heading cut; [] for a title without one
    (引首). A couplet written without a separator is cut in the middle when it is even."""
    text = to_simplified(title).strip()
    heading = huimu.heading.match(text)
    if heading is None:
        return []
    body = text[heading.end():].strip()
    parts = [p for p in huimu.separator.split(body) if p]
    if len(parts) == 1 and len(body) % 2 == 0 and len(body) >= 2 * huimu.min_half:
        parts = [body[:len(body) // 2], body[len(body) // 2:]]
    elif len(parts) > 2:
        cut = min(range(1, len(parts)), key=lambda i: abs(len("".join(parts[:i]))
                                                           - len("".join(parts[i:]))))
        parts = ["".join(parts[:cut]), "".join(parts[cut:])]
    return [p for p in parts if len(p) >= huimu.min_half]


def content_bigrams(text: str, skip: Sequence[tuple[int, int]]) -> set[str]:
    """Character bigrams of the text outside the skipped spans (names)."""
    keep = [ch if not any(a <= i < b for a, b in skip) else "\0" for i, ch in enumerate(text)]
    plain = "".join(keep)
    return {plain[i:i + 2] for i in range(len(plain) - 1) if "\0" not in plain[i:i + 2]}


class Headlines:
    """The headline events of one chapter, from its title and its scanned blocks."""

    def __init__(self, roster: Roster, texts: ChapterTexts, cues: Cues) -> None:
        self.roster = roster
        self.texts = texts
        self.cues = cues

    def events(self, chapter: int, title: str, scans: Sequence[BlockScan]
               ) -> list[tuple[Event, int]]:
        """The chapter's headline events, each with its half's number (1, 2); the extractor
        orders each right after the scene event of the block its quote is in."""
        found: list[tuple[Event, int]] = []
        after = 0
        for number, half in enumerate(halves(title, self.cues.huimu), start=1):
            used = {e.sources[0].quote for e, _ in found}
            made = self.of_half(chapter, half, number, scans, after, used) if scans else None
            if made is not None:
                event, after = made
                found.append((event, number))
        return found

    def of_half(self, chapter: int, half: str, number: int, scans: Sequence[BlockScan],
                after: int, used: set[str] | None = None) -> tuple[Event, int] | None:
        """The event of one half and the index (in `scans`) of the block that tells it."""
        matcher = self.roster.matcher(chapter)
        named = matcher.find(half)
        people = list(dict.fromkeys(m.person for m in named))
        words = content_bigrams(half, [(m.start, m.end) for m in named])
        if not words and not people:
            return None
        at = self._block(scans, words, people, after)
        scan = scans[at]
        people += [p for p in scan.actors() if p not in people][:MAX_FROM_BLOCK]
        if not people:
            return None
        found = self._quote(scan, words, people, used or set())
        if found is None:
            return None
        seg, quote = found
        return self._event(chapter, half, number, scan, people, seg, quote), at

    def _block(self, scans: Sequence[BlockScan], words: set[str], people: list[str],
               after: int) -> int:
        chars = {ch for w in words for ch in w}
        spread = {w: sum(1 for scan in scans if w in scan.masked) for w in words | chars}

        def score(i: int) -> tuple[float, int]:
            scan = scans[i]
            hits = WORD * sum(1 / spread[w] for w in words if w in scan.masked) + \
                CHAR * sum(1 / spread[ch] for ch in chars if ch in scan.masked)
            acting = set(scan.actors())
            named = set(scan.counts())
            weight = sum(ACTING if p in acting else NAMED if p in named else 0 for p in people)
            return (hits + weight, -i)

        return max(range(after, len(scans)), key=score)

    def _quote(self, scan: BlockScan, words: set[str], people: list[str], used: set[str]
               ) -> tuple[Segment, str] | None:
        wanted = set(people)

        def score(seg: Segment) -> tuple[int, int, int]:
            text = scan.masked[seg.span.start:seg.span.end]
            return (-(sum(1 for w in words if w in text) + 2 * len(seg.people & wanted)),
                    0 if seg.narrative else 1, seg.span.start)

        for seg in sorted((s for s in scan.segments if not s.verse), key=score):
            span = window(scan.text, seg.span, seg.span.start, seg.span.end)
            if span is None:
                named = [m for m in seg.mentions if m.person in wanted] or seg.mentions
                if not named:
                    continue
                span = window(scan.text, seg.span, named[0].start, named[-1].end)
            if span is None:
                continue
            quote = self.texts.unique_quote(scan.block, seg.span, span)
            if quote is not None and quote not in used:
                return seg, quote
        return None

    def _event(self, chapter: int, half: str, number: int, scan: BlockScan, people: list[str],
               seg: Segment, quote: str) -> Event:
        place = scan.places.search(half) or scan.places.search(scan.text, seg.span.start,
                                                               seg.span.end)
        named_in_half = bool(self.roster.matcher(chapter).find(half))
        return Event(
            id=f"xhm_ch{chapter:03d}_{number}", title=half, chapter=chapter, order=0,
            place=place.group() if place else None,
            participants=[Participant(person=p, role="participant") for p in people],
            summary=f"第{chapter}回回目：{half}。", turning_point=named_in_half, headline=True,
            sources=[SourceRef(chapter=chapter, quote=quote, chunk_id=scan.block.id)],
            confidence=0.8 if named_in_half else 0.6, origin="extracted")
