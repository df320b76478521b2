"""A woman's other title forms, for finding her by the one a reader writes.

The text may call an empress by her surname and the short title only (甲后) while a reader writes
the full one (甲皇后), or the other way round. The genre's `title_variants` group the titles of
one rank, shortest last by length (皇后, 太后, 后). The short title abbreviates each longer one,
so a short form stands for every longer form and each longer form for the short one; two longer
titles are never swapped (a 皇后 is no 太后). The forms made here only ever serve a lookup that
found nothing else: they never name a second person and never shadow anyone's own name.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from kb.knowledge.genre import genre
from kb.knowledge.surnames import surnames

MAX_STEM = 2
"""A surname (of the language's list) of one or two characters before the title (甲后, 甲乙后)."""


def variant_forms(form: str, groups: Sequence[Sequence[str]] | None = None) -> list[str]:
    """The other title forms of `form` (甲后 → 甲皇后, 甲太后; 甲皇后 → 甲后), or none."""
    found: list[str] = []
    for group in _groups() if groups is None else groups:
        titles = sorted(group, key=len, reverse=True)
        tail = next((t for t in titles if form.endswith(t)), None)
        if tail is None:
            continue
        stem = form[:-len(tail)]
        if not 1 <= len(stem) <= MAX_STEM or surnames().of(stem + "甲") != stem:
            continue  # 皇太后 is no surname's 太后
        shortest = titles[-1]
        others = titles[:-1] if tail == shortest else [shortest]
        found += [stem + t for t in others if t != tail]
    return found


@cache
def _groups() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(g) for g in genre().people.title_variants)
