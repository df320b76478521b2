"""Extractive chapter summaries: the 回目 and the chapter's key sentences, each verbatim and cited.

Nothing is written that the book does not say: the summary is the couplet's halves, then the key
sentences as the text has them (original script), in book order; every sentence is a source of
the record (its block and quote), unique in its chapter.

Key sentences (`pick`), among the narrative sentences of the chapter (no speech, no verse) of
`min_chars` to `max_chars` characters (the genre's `summary` settings):

- a sentence scores by the 回目's words it holds (character bigrams of the halves outside
  names, 2 each), the chapter's leading people it names (the five most named in its narrative,
  1.5 each), a weighty act (杀, 降, 结义 … — the genre's `weighty`, 2), a narrator's opening
  (话说, 却说, 1);
- the best sentence for each half is always taken; the rest are taken greedily, the highest score
  first with a bonus for lying far from those already taken (`importance.spread_pick`, over
  the blocks), so that the summary runs from the chapter's start to its end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core.text import normalize
from extract.huimu import content_bigrams, halves
from extract.scene import BlockScan, Segment
from extract.text import ChapterTexts
from kb.knowledge.importance import spread_pick
from kb.knowledge.models import ChapterSummary, SourceRef

LEADING = 5
"""The chapter's most named people whose names make a sentence weigh more."""
SPREAD_WEIGHT = 1.5
SPREAD_BLOCKS = 4
ENDS = "。！？；"


@dataclass(frozen=True)
class Sentence:
    scan: BlockScan
    seg: Segment
    score: float
    hits: tuple[int, ...]
    """the 回目 bigrams it holds, per half"""

    @property
    def quote(self) -> str:
        return self.scan.block.text[self.seg.span.start:self.seg.span.end]


def _candidates(scans: Sequence[BlockScan], words: list[set[str]], leading: set[str],
                texts: ChapterTexts) -> list[Sentence]:
    found = []
    for scan in scans:
        settings = scan.cues.summary
        for seg in scan.segments:
            size = len(seg.span)
            if not seg.narrative or not settings.min_chars <= size <= settings.max_chars:
                continue
            text = scan.masked[seg.span.start:seg.span.end]
            hits = tuple(sum(1 for w in half if w in text) for half in words)
            score = 2.0 * sum(hits) + 1.5 * len(seg.people & leading)
            score += 2.0 if settings.weighty.search(text) else 0.0
            score += 1.0 if text.startswith(scan.cues.clause_openers) else 0.0
            quote = scan.block.text[seg.span.start:seg.span.end]
            if score > 0 and texts.is_unique(scan.block.chapter, quote):
                found.append(Sentence(scan, seg, score, hits))
    return found


def _best_for(found: Sequence[Sentence], half: int) -> int:
    """The sentence holding most of the half's words (then the best scored, the earliest)."""
    return max(range(len(found)), key=lambda i: (found[i].hits[half], found[i].score, -i))


def pick(scans: Sequence[BlockScan], title: str, texts: ChapterTexts) -> list[Sentence]:
    """The chapter's key sentences in book order (rule in the module docstring)."""
    if not scans:
        return []
    cues = scans[0].cues
    matcher_words = [content_bigrams(h, []) for h in halves(title, cues.huimu)]
    counts: Counter[str] = Counter()
    for scan in scans:
        counts.update(scan.narrative_counts())
    leading = {p for p, _ in counts.most_common(LEADING)}
    found = _candidates(scans, matcher_words, leading, texts)
    if not found:
        return []
    keep = [_best_for(found, n) for n in range(len(matcher_words)) if any(s.hits[n] for s in found)]
    chosen = spread_pick([s.scan.block.index for s in found], [s.score for s in found],
                         cues.summary.sentences, SPREAD_BLOCKS, SPREAD_WEIGHT, keep=keep)
    return [found[i] for i in chosen]


def chapter_summary(chapter: int, title: str, scans: Sequence[BlockScan],
                    texts: ChapterTexts) -> ChapterSummary | None:
    """The chapter's extractive summary, or None when it has no sentence to quote."""
    sentences = pick(scans, title, texts)
    if not sentences:
        return None
    couplet = "，".join(halves(title, sentences[0].scan.cues.huimu))
    lines = [s.quote if s.quote.endswith(tuple(ENDS)) else s.quote + "。" for s in sentences]
    head = f"{couplet}。" if couplet else ""
    seen: set[str] = set()
    sources = []
    for s in sentences:
        key = normalize(s.quote)
        if key not in seen:
            seen.add(key)
            sources.append(SourceRef(chapter=chapter, quote=s.quote, chunk_id=s.scan.block.id))
    return ChapterSummary(id=f"ch{chapter:03d}", chapter=chapter, title=title.strip() or
                          f"第{chapter}回", summary=head + "".join(lines), sources=sources,
                          origin="extracted")
