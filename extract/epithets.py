"""Epithets in quotes before a name (「某某」甲乙, 『某某』甲丙: the name or another form), the
genre's way of giving a person's nickname. An epithet becomes an alias of the person it stands
before when it does so at least twice, nearly always before the same person (a title quoted
once proves nothing)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from core.text import CJK_CLASS

EPITHET = re.compile(f"[「『“]([{CJK_CLASS}]{{2,5}})[」』”]")
MIN_TIMES = 2
SAME_PERSON = 0.7
LONGEST_FORM = 4


@dataclass(frozen=True)
class Epithet:
    epithet: str
    person: str
    chapter: int
    start: int
    end: int


def epithets(texts: Mapping[int, str], owner: Mapping[str, str]) -> list[Epithet]:
    """Epithets tied to people: `owner` maps each unshared name form to its person."""
    pairs: Counter[tuple[str, str]] = Counter()
    first: dict[tuple[str, str], Epithet] = {}
    for chapter, text in texts.items():
        for m in EPITHET.finditer(text):
            person = _named_at(text, m.end(), owner)
            if person is None or m.group(1) in owner:
                continue
            key = (m.group(1), person)
            pairs[key] += 1
            first.setdefault(key, Epithet(m.group(1), person, chapter, m.start(), m.end() + 4))
    total: Counter[str] = Counter()
    for (epithet, _), n in pairs.items():
        total[epithet] += n
    return [first[key] for key, n in sorted(pairs.items())
            if n >= MIN_TIMES and n >= SAME_PERSON * total[key[0]]]


def _named_at(text: str, at: int, owner: Mapping[str, str]) -> str | None:
    for size in range(LONGEST_FORM, 1, -1):
        person = owner.get(text[at:at + size])
        if person is not None:
            return person
    return None
