"""Title forms (甲公, 甲丞相, 甲将军): which person of that surname the text means by them.

A surname with a title names whoever of that surname holds it, so the form is tied to a person
only by context. The text's own apposition comes first: the title written before a full name
(都头甲乙, 丞相甲乙) says who holds it, and the form goes to the person it stands before most.
Without apposition, in the passages around the form (a window each side), the people of the same
surname who are named by their own names are counted, and the form goes to the one who is there
far more often than anyone else (a main character is near every form, so this needs a clear
majority). Two people who are both often there make the form ambiguous
(resolved passage by passage later); fewer than `MIN_SUPPORT` passages tie it to no one. The
evidence is the passage where the form and the winner's own name stand closest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WINDOW = 150
"""Characters each side of a title form read as its passage."""
MIN_OCCURRENCES = 3
MIN_APPOSED = 2
"""A one-character title before a name is part of another word (主公甲乙): no apposition."""
MIN_SUPPORT = 3
DOMINANT = 0.6
"""The winner's share of the passages that name anyone of the surname."""
SHARED = 0.3
"""Two people each with this share (and `MIN_SUPPORT` passages) share the form."""
APPOSED_REACH = 5
"""An apposition (将军乙丙) speaks for the form only this many chapters from one of its uses: the
title is held at a time, and a son called 将军 long after his father's 甲将军 stopped being used
is not what that form meant."""


@dataclass(frozen=True)
class TitleCandidate:
    """A person of the form's surname and the forms the text names them by."""

    person: str
    forms: tuple[str, ...]


@dataclass(frozen=True)
class TitleTie:
    """A title form tied to one person (or shared, `people` holding several), with the chapter
    and the span of the passage that ties it best, and the chapters where the form was tied."""

    form: str
    people: tuple[str, ...]
    chapter: int
    start: int
    end: int
    mentions: int
    chapters: tuple[int, ...] = ()


def tie_title(form: str, title: str, candidates: Sequence[TitleCandidate],
              texts: Mapping[int, str]) -> TitleTie | None:
    """Who the title form denotes: by apposition (the title before a full name), else by the
    same-surname people named in its passages."""
    candidates = [c for c in candidates if not any(form in f for f in c.forms)]
    # 甲公大 (of 甲公大怒) is a fragment around the form, never the one it denotes
    apposed = _apposed(form, title, candidates, texts) if len(title) >= MIN_APPOSED else None
    return apposed or _by_passages(form, candidates, texts)


def _apposed(form: str, title: str, candidates: Sequence[TitleCandidate],
             texts: Mapping[int, str]) -> TitleTie | None:
    counts: Counter[str] = Counter()
    where: dict[str, tuple[int, int, int]] = {}
    used = [chapter for chapter, text in texts.items() if form in text]
    for c in candidates:
        pattern = re.compile(re.escape(title + c.person))
        for chapter, text in texts.items():
            if not any(abs(chapter - u) <= APPOSED_REACH for u in used):
                continue
            for m in pattern.finditer(text):
                counts[c.person] += 1
                where.setdefault(c.person, (chapter, m.start(), m.end()))
    if not counts:
        return None
    ranked = counts.most_common(2)
    if len(ranked) > 1 and ranked[1][1] * 2 > ranked[0][1]:
        return None
    person = ranked[0][0]
    chapter, start, end = where[person]
    occurrences = sum(t.count(form) for t in texts.values())
    return TitleTie(form, (person,), chapter, start, end, occurrences, (chapter,))


def _by_passages(form: str, candidates: Sequence[TitleCandidate],
                 texts: Mapping[int, str]) -> TitleTie | None:
    pattern = re.compile(re.escape(form))
    support: Counter[str] = Counter()
    closest: dict[str, tuple[int, int, int, int]] = {}
    chapters: dict[str, set[int]] = {}
    occurrences = 0
    for chapter, text in texts.items():
        for m in pattern.finditer(text):
            occurrences += 1
            lo, hi = max(0, m.start() - WINDOW), min(len(text), m.end() + WINDOW)
            passage = text[lo:hi]
            for c in candidates:
                at = _nearest(passage, c.forms, m.start() - lo)
                if at is None:
                    continue
                support[c.person] += 1
                chapters.setdefault(c.person, set()).add(chapter)
                distance = abs(at - (m.start() - lo))
                if c.person not in closest or distance < closest[c.person][0]:
                    start, end = sorted((m.start(), lo + at))
                    closest[c.person] = (distance, chapter, start, max(end, m.end()))
    return _decide(form, support, closest, chapters, occurrences)


def _nearest(passage: str, forms: Sequence[str], at: int) -> int | None:
    best: int | None = None
    for form in forms:
        for m in re.finditer(re.escape(form), passage):
            if best is None or abs(m.start() - at) < abs(best - at):
                best = m.start()
    return best


def _decide(form: str, support: Counter[str], closest: dict[str, tuple[int, int, int, int]],
            chapters: dict[str, set[int]], occurrences: int) -> TitleTie | None:
    if occurrences < MIN_OCCURRENCES or not support:
        return None
    total = sum(support.values())
    ranked = support.most_common()
    winner, top = ranked[0]
    if top < MIN_SUPPORT:
        return None
    shared = tuple(p for p, n in ranked if n >= MIN_SUPPORT and n >= SHARED * total)
    if top >= DOMINANT * total and len(shared) <= 1:
        people: tuple[str, ...] = (winner,)
    elif len(shared) >= 2:
        people = shared
    else:
        return None
    _, chapter, start, end = closest[winner]
    spans = sorted(set().union(*(chapters[p] for p in people)))
    return TitleTie(form, people, chapter, start, end, occurrences, tuple(spans))
