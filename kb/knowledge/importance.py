"""What marks an event as one the book and its readers remember, beyond who was in it.

- **Named in a profile**: a person's profile is the curated few sentences a reader tells them by
  (智取生辰纲的主谋): an event whose title holds one of those deeds matters more to them, and to
  anyone beside them, than a scene they were merely in.
- **Named in its chapter's title**: a classical novel heads each chapter with the two or three
  episodes it is remembered by (甲血溅鸳鸯楼, 乙智取生辰纲). An event whose title shares at
  least `HEADLINE_CHARS` characters with its chapter's title, beyond names, is one of them
  (`Event.headline`, set when the bundle is assembled).

Pairs and journeys both weigh them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.text import to_simplified
from kb.knowledge.models import ChapterSummary, Event, Person

PROFILE_CLAUSE = 3
"""Shortest title clause looked up in a profile: two characters match names and places, not deeds."""


def clauses(title: str) -> list[str]:
    """The title's clauses long enough to name a deed (乙下药，智取生辰纲 → both)."""
    parts = to_simplified(title).replace("、", "，").replace(",", "，").split("，")
    return [p for p in parts if len(p) >= PROFILE_CLAUSE]


def named_in_profile(title: str, profile: str) -> bool:
    """A clause of the title is in the (simplified) profile text."""
    return bool(profile) and any(c in profile for c in clauses(title))


HEADLINE_CHARS = 4
"""Shortest run shared with the chapter's title: three characters are mostly a place (二龙山) or
a name (丙行者), not an act."""


def name_keys(names: Iterable[str]) -> list[str]:
    """The names as `in_headline` strips them: simplified, two characters or more, longest
    first. Made once per bundle, not once per event."""
    return sorted({k for k in map(to_simplified, names) if len(k) >= 2}, key=len, reverse=True)


def in_headline(title: str, headline: str, keys: Sequence[str]) -> bool:
    """The event's title and the chapter's share a run of `HEADLINE_CHARS` or more characters
    that is not made of names alone (甲某乙某 is two people, not what happened); `keys` from
    `name_keys`."""
    title, headline = to_simplified(title), to_simplified(headline)
    for size in range(len(title), HEADLINE_CHARS - 1, -1):
        for start in range(len(title) - size + 1):
            run = title[start:start + size]
            if run in headline and len(_without(run, keys)) >= 2:
                return True
    return False


def _without(text: str, keys: Sequence[str]) -> str:
    for key in keys:
        text = text.replace(key, "")
    return text


def mark_headlines(events: Sequence[Event], chapters: Sequence[ChapterSummary],
                   people: Sequence[Person]) -> list[Event]:
    """The events with `headline` set from their chapter's title (others unchanged)."""
    titles = {c.chapter: c.title for c in chapters}
    keys = name_keys(n for p in people for n in p.all_names)
    return [e.model_copy(update={"headline": in_headline(e.title, titles[e.chapter], keys)})
            if e.chapter in titles else e for e in events]


def spread_pick(chapters: Sequence[int], scores: Sequence[float], limit: int, spread: int,
                weight: float, keep: Iterable[int] = ()) -> list[int]:
    """Indexes of the items that matter, in book order: `keep` first, then the highest score
    each time, gaining up to `weight` for lying up to `spread` chapters from those taken (ties to
    the earlier). Pairs, journeys and roads to a band all choose this way, so that what they
    list spreads over the book instead of crowding one scene."""
    chosen = list(dict.fromkeys(keep))
    left = [i for i in range(len(chapters)) if i not in chosen]
    while left and len(chosen) < limit:
        def gain(i: int) -> tuple[float, int]:
            far = min((abs(chapters[i] - chapters[j]) for j in chosen), default=0)
            return (scores[i] + min(far, spread) / spread * weight, -i)

        best = max(left, key=gain)
        left.remove(best)
        chosen.append(best)
    return sorted(chosen)
