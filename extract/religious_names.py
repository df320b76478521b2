"""Monks and Taoists named by a religious name + a title (乙丙长老, 乙丙禅师, 乙丙真人): a person of the
genre without a surname, whose name is the whole form and whose religious name alone is an alias.

The titles are the genre's data (`religious_titles`). A form is a person's when it is used
`MIN_USES` times, its two characters before the title are no word of the dictionary (a religious
name is not one: 一个道人, 火工道人 are a count and a post) and start with no determiner or
numeral, and it is no piece of a shorter form (某乙丙真人 beside a far more used 丙真人: the
person is 丙真人, a surname + title the title forms read).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable

from core.text import CJK_CLASS
from extract.name_stats import dictionary_tag

MIN_USES = 4
SHORTER = 2
"""The form without its first character used this many times as often elsewhere: a piece of
that one."""
NAME_TAGS = ("nr", "nz")


def religious_names(texts: Iterable[str], titles: Collection[str],
                    barred: Collection[str] = ()) -> dict[str, int]:
    """Religious name + title forms that are people, with their uses (see the module);
    `barred`: characters no name starts with (determiners, numerals)."""
    if not titles:
        return {}
    pattern = re.compile(rf"(?=([{CJK_CLASS}]{{2}})(" + "|".join(map(re.escape, titles)) + "))")
    joined = "\n".join(texts)
    uses: Counter[str] = Counter()
    for m in pattern.finditer(joined):
        uses[m.group(1) + m.group(2)] += 1
    found = {}
    for form, n in uses.items():
        name = form[:2]
        tag = dictionary_tag(name)[1]
        if n < MIN_USES or name[0] in barred or (tag is not None and not tag.startswith(NAME_TAGS)):
            continue
        if joined.count(form[1:]) - n >= SHORTER * n:
            continue
        found[form] = n
    return found
