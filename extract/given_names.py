"""A person named by their one-character given name alone (乙曰, 乙大怒): the usage of Chinese
historical fiction, where once a passage has named 甲乙 in full, 乙 opens the clauses he speaks or
acts in.

A single character is a word of the language far more often than a name, so the form is read
only where nothing else fits: the person's full name (surname + one character) is named earlier
in the same block or in the block before it (`carried`: blocks are a few hundred characters, a
scene runs over two); no other person named in the block has the same given character; the character
opens a clause (the start of the block or a character that is no CJK character before it: a
punctuation mark or a quote); and a speech verb (the genre's `speech_verb`, within
`SPEECH_REACH` characters) or an action word (the genre's `actor_verbs`) follows it at once, or
the character and the one after it make no word of the dictionary (乙大叫 is a name and a verb;
飞马, 权且, 布阵 are words, not a name).
A kinship noun between the character and a name (`Cues.kin_apposition`: 乙母丙, 乙长子丙)
reads the character anywhere but inside a word with the character before it: classical prose
names a relative by the one it belongs to, and a noun of kin followed by a name leaves the
character nothing else to be.
Otherwise, inside a clause (丙拔刀直刺乙) the character is not read: measured on 三国, reading it
there where it makes no word with its neighbours lost more journeys' ends than it won relations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from core.text import CJK_CLASS
from extract.cues import Cues
from extract.name_stats import dictionary_tag
from extract.names import Mention
from kb.knowledge.surnames import Surnames, surnames

SPEECH_REACH = 3
"""乙曰 / 乙笑曰: the speech verb ends within this many characters after the given name."""
CJK_CHAR = re.compile(f"[{CJK_CLASS}]")


def _given(name: str, names_of: Surnames) -> str | None:
    """The one-character given name of a full name (甲乙 → 乙), else None."""
    surname = names_of.of(name)
    return name[len(surname):] if surname and len(name) - len(surname) == 1 else None


def _owns_kin(text: str, at: int, cues: Cues, starts: frozenset[int]) -> bool:
    """乙母丙: a kinship noun right after the character at `at` and a name right after the noun
    (`starts`: where the block's names begin), the character no word with the one before it and
    no given name after a surname (丙乙子丁 names 丙乙's son, whoever 乙 alone may be)."""
    kin = cues.kin_apposition.match(text, at + 1) if cues.kin_apposition else None
    if kin is None or kin.end() not in starts:
        return False
    if at == 0:
        return True
    before = text[at - 1]
    return before not in surnames().single and not dictionary_tag(before + text[at])[0]


def _acts(text: str, at: int, cues: Cues) -> bool:
    """The character at `at` opens a clause and is read as the name (see the module)."""
    if at > 0 and CJK_CHAR.match(text[at - 1]):
        return False
    speech = cues.speech_verb.match(text[at + 1:at + 1 + SPEECH_REACH + 4])
    if speech and speech.end() <= SPEECH_REACH or cues.actor_verbs.match(text[at + 1:at + 8]):
        return True
    after = text[at + 1:at + 2]
    return bool(CJK_CHAR.match(after)) and not dictionary_tag(text[at] + after)[0]


def given_name_mentions(text: str, mentions: Sequence[Mention], full_names: dict[str, str],
                        cues: Cues, carried: Iterable[str] = ()) -> list[Mention]:
    """Mentions of people by their given name alone (rule in the module docstring);
    `full_names`: person id → their full name; `carried`: the people the block before named in
    full."""
    names_of = surnames()
    first: dict[str, int] = dict.fromkeys(carried, 0)
    for m in mentions:
        if m.form == full_names.get(m.person) and m.person not in first:
            first[m.person] = m.end
    by_char: dict[str, list[str]] = {}
    for person in {m.person for m in mentions} | set(first):
        given = _given(full_names.get(person, ""), names_of)
        if given:
            by_char.setdefault(given, []).append(person)
    found: list[Mention] = []
    starts = frozenset(m.start for m in mentions)
    for char, people in by_char.items():
        if len(people) != 1 or people[0] not in first:
            continue
        person = people[0]
        for match in re.compile(re.escape(char)).finditer(text, first[person]):
            at = match.start()
            taken = any(m.start <= at < m.end for m in mentions)
            if not taken and (_acts(text, at, cues) or _owns_kin(text, at, cues, starts)):
                found.append(Mention(person, at, at + 1, char))
    return found


def named_in_full(mentions: Sequence[Mention], full_names: dict[str, str]) -> frozenset[str]:
    """The people a block names by their full name (carried to the next block)."""
    return frozenset(m.person for m in mentions if m.form == full_names.get(m.person))
