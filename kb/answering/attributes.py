"""Who someone is, one attribute at a time (甲是哪里人, 甲长什么样, 甲有什么本事): the clauses of the
person's curated profile that tell the asked attribute. A profile is written to say who someone
is — home, trade, looks, gifts, how they got their nickname — so it answers these better than a
stray sentence of the book that happens to hold the person's name and the word 人 or 本事.

Each attribute is asked by its own words (the language's `attribute_*` roles, read by the
planner) and found in a profile clause by its marks (the language's `attribute_marks`); a
profile whose clauses hold none of them does not answer, and the question goes on to the records
and passages as any other."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.text import to_simplified
from kb.knowledge.language import language

NAMELESS = frozenset({"looks"})
"""Attributes whose marks are specific enough that an introducing sentence may tell them without
naming the person (那官人生的豹头环眼: the man just named); others must name them."""
CLAUSE = re.compile(r"[^，。；、]+")
MAX_CLAUSES = 3


def is_roster(clause: str, roster_marks: Sequence[str]) -> bool:
    """A roster's own clause in a profile (rank, star, post, nickname: the book profile's
    `roster_marks`): never an attribute."""
    return any(mark in clause for mark in roster_marks)


def telling_clauses(profiles: Sequence[str], attribute: str, roster_marks: Sequence[str] = ()
                    ) -> list[str]:
    """The profile clauses that tell the attribute, in order, each once, at most `MAX_CLAUSES`
    (a person's profiles repeat each other: one written where they first appear, one from the
    roster)."""
    marks = language().attribute_marks[attribute]
    out: list[str] = []
    for profile in profiles:
        clauses = [c.strip() for c in CLAUSE.findall(to_simplified(profile))]
        for i, clause in enumerate(clauses):
            if is_roster(clause, roster_marks) or not marks.search(clause):
                continue
            told = [clauses[i - 1], clause] if attribute == "named" and i else [clause]
            # 善射，人称某某: the clause before a nickname says why
            for c in told:
                if not is_roster(c, roster_marks) and not any(c in o or o in c for o in out):
                    out.append(c)
    return out[:MAX_CLAUSES]
