"""A two-character given name used alone (乙丙道 once 甲乙丙 is named): the alias of the full name
it ends, not a person of its own.

Chinese fiction names a person by surname + given name and then, often, by the given name alone;
a given name of two characters looks like a name itself (it may even start with a character of
the surname list, 乙 being one). The full name is the surname + those two characters, written
in the text; it is the person's when the text writes it often enough beside the bare form
(`FULL_SHARE` of the bare form's uses: a phrase that puts a surname-like character before a
name by chance, 时甲乙 'then 甲乙', is rare beside the name). A surname character that is also a
function word of the dictionary (和 'and', 封 'to confer') is no surname there.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from extract.name_stats import TextStats, absorbed, dictionary_tag
from kb.knowledge.surnames import Surnames

FULL_SHARE = 0.1
MIN_FULL = 4
"""The full name is written at least this often."""
FUNCTION_TAGS = frozenset("cpdrufv")
"""The segmenter's tags of a character that is a function word or a verb before a name."""


def full_name_of(given: str, names_of: Surnames, stats: TextStats, occurs: Callable[[str], int],
                 taken: Collection[str] = (), heads: Collection[str] = ()) -> str | None:
    """The one full name whose two-character given name `given` is (see the module), or None.
    `stats`: the text's surname-initial strings; `taken`: names that are people of their own by
    introduction (姓甲名乙丙 and 姓丁名乙丙 are two people); `heads`: characters that open a
    speaker cue (甲乙大 of 甲乙大怒 is no name). The full name stands whole: its neighbours vary
    (丁甲乙丙 always is part of a longer word: 丁甲 a title, 甲乙丙 its tail)."""
    if len(given) != 2 or given in taken:
        return None
    bare = occurs(given)
    found = []
    for surname in sorted(names_of.single):  # 司徒甲乙: a double surname is often a post too
        full = surname + given
        n = stats.count.get(full, 0)
        if n >= MIN_FULL and n >= FULL_SHARE * bare and names_of.of(full) == surname and \
                full[-1] not in heads and \
                (dictionary_tag(surname)[1] or "")[:1] not in FUNCTION_TAGS:
            found.append(full)
    if len(found) != 1:
        return None
    full = found[0]
    stats.neighbours([full])
    n = sum(stats.left[full].values())
    return None if absorbed(stats.left[full], n) or absorbed(stats.right[full], n) else full
