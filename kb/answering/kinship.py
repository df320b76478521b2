"""A name followed by a kinship or household word (某人他老婆, 某人的哥哥, 某人的管家) stands for the
relative the knowledge links them to by that relation type, when exactly one fits; the words and
the relation types they lead to are the language's (`Language.kin`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from core.text import normalize
from kb.knowledge.language import language

KinLookup = Callable[[str, str, str, str], str | None]
"""(person id, relation type, name hint characters, excluded characters) → the one relative of
that type (among several, the ones whose names hold none of the excluded characters, then the one
whose name holds a hint character), or None."""


@cache
def _kin_after() -> re.Pattern[str]:
    lang = language()
    joints = re.escape(lang.chars.name_joints)
    return re.compile(f"^[{joints}]?(" + "|".join(sorted(lang.kin, key=len, reverse=True)) + ")")


def with_relatives(text: str, found: list[tuple[str, str]], kin_of: KinLookup | None,
                   unresolved: list[str]) -> list[tuple[str, str]]:
    """Replace 甲 by 甲娘子 in 甲他老婆…: each person followed by a kinship word becomes the
    relative the knowledge links them to; a kinship word no relative answers is noted in
    `unresolved` (某人的母亲: no mother of theirs on record). `text`: the normalized question."""
    if kin_of is None:
        return found
    kin = language().kin
    out = []
    for pid, written in found:
        after = text.split(normalize(written), 1)[-1]
        match = _kin_after().match(after)
        relative = None
        if match:
            word = kin[match.group(1)]
            relative = next((r for t in word.types if (r := kin_of(pid, t, word.hints, word.not_))),
                            None)
            if relative is None:
                unresolved.append(match.group(1))
        elif (teacher := _untaught(pid, after, kin_of)) is not None:
            unresolved.append(teacher)
        out.append((relative, written + match.group(0)) if relative and match else (pid, written))
    return list(dict.fromkeys(out))


TEACHER = "master_disciple>"
"""The relation type (and direction) of a teacher in the language's kinship words."""


def _untaught(pid: str, after: str, kin_of: KinLookup) -> str | None:
    """甲的水性是跟谁学的 asks 甲's teacher without a kinship word beside the name: the teacher
    kinship word (师父) when the knowledge links 甲 to no teacher, so the question is refused
    rather than answered from whoever stands near 甲; None when a teacher is on record or the
    question asks no teacher."""
    lang = language()
    if not any(word in after for word in lang.words_of("taught_by")):
        return None
    word, kin = next((w, k) for w, k in lang.kin.items() if TEACHER in k.types)
    return None if kin_of(pid, TEACHER, kin.hints, kin.not_) else word


def asks_the_relative(text: str, written: str) -> bool:
    """甲嫁给了谁, 甲的丈夫是谁: the question ends on the kinship word and 谁 — the relative is what
    is asked (甲的老婆跟谁私通 asks someone else)."""
    lang = language()
    key = normalize(written)
    if not key.endswith(tuple(lang.kin)):
        return False
    rest = normalize(text).split(key, 1)[-1]
    return rest.strip(lang.chars.question_tail) == lang.chars.who
