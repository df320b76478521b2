"""Relations said in speech: who speaks to whom, and what the words make them.

A speech segment of a block (「…」 or “…”) is opened by a narrative segment naming its speaker
(甲曰：, 甲对乙曰：). Two kinds of words bind the speaker and the one spoken to:

- **an oath** (the genre's `spoken_oath`: 拜为义兄, 结为兄弟): the speaker and the first other
  person named in the narrative right after the speech (受小弟四拜，拜为义兄。」甲大喜) are sworn
  brothers; the quote runs from the speaker's name (in the speech, else in its opening: one
  calls himself by a humble form, 受小弟四拜) to the listener's;
- **a form of address to one's lord** (the genre's `spoken_lord`: 主公): the one spoken to is
  the speaker's superior. The one spoken to is named in the opening (甲对乙曰 / 甲谓乙曰: 甲
  speaks to 乙, the genre's `address_verbs`), or, when the opening names only the speaker
  (乙曰：「主公…」), he answers the one who asked him just before (甲问乙曰：「…」乙曰：「主公…」:
  甲 asked 乙, 乙 calls 甲 lord). The quote is the opening that names both;
- **words of adoption** (the genre's `spoken_parent`: 请拜为义父): the one spoken to becomes the
  speaker's parent. The speaker is the one of the opening who names himself in the speech (甲纳乙坐而拜之曰：
  「…甲请拜为义父」), else the speaker of the opening; the one spoken to is the other person the
  opening names,
  else the first other person named right after the speech; the quote runs from the opening's
  first name to the speaker's own name in the speech (or to the listener's after it).
"""

from __future__ import annotations

from collections.abc import Callable

from extract.names import Mention
from extract.resolve import relation_id
from extract.scene import BlockScan
from extract.text import MAX_QUOTE, Span
from kb.knowledge.models import Relation, SourceRef

SWORN, SUPERIOR, PARENT = "sworn_brothers", "superior", "parent_child"
Unique = Callable[[int, str], bool]
"""(chapter, quote) → the quote occurs once in the chapter."""


def speaker(scan: BlockScan, index: int) -> Mention | None:
    """Who speaks segment `index`: in the opening segment before it, the first name of a
    甲对乙曰 opening, else the last name before a speech verb."""
    if index == 0 or scan.segments[index - 1].speech:
        return None
    addressed = _addressed(scan, index - 1)
    if addressed is not None:
        return addressed[0]
    before = scan.segments[index - 1]
    speaking = [m for m in before.mentions
                if scan.cues.speech_verb.match(scan.text[m.end:before.span.end])]
    return speaking[-1] if speaking else None


def _addressed(scan: BlockScan, opening: int) -> tuple[Mention, Mention] | None:
    """(speaker, listener) of an opening 甲对乙曰 / 甲问乙曰 (the genre's address verbs)."""
    seg = scan.segments[opening]
    for first, second in zip(seg.mentions, seg.mentions[1:], strict=False):
        between = scan.text[first.end:second.start]
        tail = scan.text[second.end:seg.span.end]
        if first.person != second.person and scan.cues.address_verbs.fullmatch(between) and \
                scan.cues.speech_verb.match(tail):
            return first, second
    return None


def _relation(scan: BlockScan, source: str, target: str, type_: str, directed: bool,
              quote: str, confidence: float, description: str) -> Relation:
    a, b = (source, target) if directed else sorted((source, target))
    return Relation(id=relation_id(a, b, type_, directed), source=a, target=b, type=type_,
                    directed=directed, chapters=[scan.block.chapter],
                    sources=[SourceRef(chapter=scan.block.chapter, quote=quote,
                                       chunk_id=scan.block.id)],
                    confidence=confidence, origin="extracted", description=description)


def oath(scan: BlockScan, index: int, unique: Unique) -> list[Relation]:
    """受小弟四拜，拜为义兄。」甲大喜: the speaker and the listener named right after the speech."""
    seg = scan.segments[index]
    match = scan.cues.spoken_oath.search(scan.masked, seg.span.start, seg.span.end)
    who = speaker(scan, index)
    after = scan.segments[index + 1] if index + 1 < len(scan.segments) else None
    if match is None or who is None or after is None or not after.narrative:
        return []
    mine = [m for m in seg.mentions if m.person == who.person]
    listener = next((m for m in after.mentions if m.person != who.person), None)
    if listener is None or seg.people - {who.person}:
        return []
    span = Span(mine[-1].start if mine else who.start, listener.end)
    quote = scan.block.text[span.start:span.end]
    if len(span) > MAX_QUOTE or not unique(scan.block.chapter, quote):
        return []
    return [_relation(scan, who.person, listener.person, SWORN, False, quote, 0.75,
                      "speech: 拜为义兄")]


def lord(scan: BlockScan, index: int, unique: Unique) -> list[Relation]:
    """「主公…」: the one spoken to is the speaker's superior (rule in the module docstring)."""
    seg = scan.segments[index]
    if not scan.cues.spoken_lord.search(scan.masked, seg.span.start, seg.span.end) or index == 0:
        return []
    opening = index - 1
    pair = _addressed(scan, opening)
    if pair is not None:
        talker, listener = pair
        quoted = opening
    else:
        who = speaker(scan, index)
        asked = _previous_asker(scan, opening, who)
        if who is None or asked is None:
            return []
        talker, (quoted, listener) = who, asked
    span = scan.segments[quoted].span
    quote = scan.block.text[span.start:span.end]
    if len(span) > MAX_QUOTE or not unique(scan.block.chapter, quote):
        return []
    return [_relation(scan, listener.person, talker.person, SUPERIOR, True, quote, 0.6,
                      "speech: 主公")]


def _previous_asker(scan: BlockScan, opening: int, talker: Mention | None
                    ) -> tuple[int, Mention] | None:
    """The opening of the speech just before (甲问乙曰：「…」) when it addressed the talker:
    (its segment index, the one who spoke there)."""
    if talker is None or opening < 2 or not scan.segments[opening - 1].speech:
        return None
    before = _addressed(scan, opening - 2)
    if before is None or before[1].person != talker.person:
        return None
    return opening - 2, before[0]


def adoption(scan: BlockScan, index: int, unique: Unique) -> list[Relation]:
    """「…请拜为义父」: the listener is the speaker's parent (rule in the module docstring)."""
    seg = scan.segments[index]
    if index == 0 or not scan.cues.spoken_parent.search(scan.masked, seg.span.start,
                                                        seg.span.end):
        return []
    opening = scan.segments[index - 1]
    named = {m.person for m in seg.mentions}
    who = next((m for m in opening.mentions if m.person in named), None) or speaker(scan, index)
    if who is None:
        return []
    listener = next((m for m in opening.mentions if m.person != who.person), None)
    after = scan.segments[index + 1] if index + 1 < len(scan.segments) else None
    if listener is not None:
        mine = [m for m in seg.mentions if m.person == who.person]
        span = Span(min(who.start, listener.start), mine[-1].end if mine else opening.span.end)
    elif after is not None and after.narrative and not named - {who.person}:
        listener = next((m for m in after.mentions if m.person != who.person), None)
        if listener is None:
            return []
        span = Span(who.start, listener.end)
    else:
        return []
    quote = scan.block.text[span.start:span.end]
    if len(span) > MAX_QUOTE or not unique(scan.block.chapter, quote):
        return []
    return [_relation(scan, listener.person, who.person, PARENT, True, quote, 0.7,
                      "speech: 拜为义父")]
