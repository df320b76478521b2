"""Person ids from names, by their pinyin (a double surname + given name → xx_yy): stable, readable, ASCII."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kb.knowledge.surnames import surnames

_NOT_ID = re.compile(r"[^a-z0-9]")


def _syllables(text: str) -> str:
    from pypinyin import Style, lazy_pinyin

    return "".join(_NOT_ID.sub("", s.lower()) for s in lazy_pinyin(text, style=Style.NORMAL))


def person_id(name: str) -> str:
    """surname_given in pinyin; a name without a known surname is one word."""
    surname = surnames().of(name)
    parts = [surname, name[len(surname):]] if surname else [name]
    base = "_".join(p for p in (_syllables(x) for x in parts) if p)
    return base if re.match(r"^[a-z]", base) else f"p_{base or 'x'}"


def person_ids(names: Sequence[str]) -> list[str]:
    """One id per name, in order; a later namesake (or a pinyin twin) gets _2, _3 …"""
    taken: set[str] = set()
    ids = []
    for name in names:
        base = candidate = person_id(name)
        n = 1
        while candidate in taken:
            n += 1
            candidate = f"{base}_{n}"
        taken.add(candidate)
        ids.append(candidate)
    return ids
