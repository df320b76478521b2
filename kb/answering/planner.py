"""Question planning: which people a question names, and whether it asks about a pair, a journey
or something open. The rules (applied in this order):

1. People are found by longest match of every name and alias (2+ characters, after script and
   punctuation folding) over the question; overlapping shorter matches are dropped.
2. A name followed by a kinship word (林冲他老婆, 武松的哥哥) stands for the relative the knowledge
   base links them to by that relation type, when exactly one fits.
3. A question that names no one but refers back (他, 她, 他们, 那人, 后来 …) inherits the people
   of the session's last question: 他/她 the first of them, 他们 all of them; with no session
   to inherit from, the answer asks who is meant.
4. Two or more people → `pair` (the first two named, in question order).
5. One person and a journey word (经历, 后来, 结局, 一路, 行踪, 怎么上, 下场 …) → `journey`,
   unless the question also carries more than `MAX_JOURNEY_DETAIL` characters of its own
   content (打老虎那会儿手里的哨棒后来怎么了 asks about one scene, not a course of life).
6. Everything else → `open`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from core.text import normalize, normalize_with_offsets
from kb.knowledge.models import Person
from retrieval.analyzers import FUNCTION_CHARS, clean_query

PlanKind = Literal["pair", "journey", "open"]

JOURNEY_WORDS = (
    "经历", "后来", "结局", "下场", "一路", "行踪", "历程", "生平", "一生", "遭遇", "怎么上",
    "如何上", "怎样上", "怎么到", "去了哪", "到了哪", "去哪", "逃到", "落草", "命运", "故事",
    "先后", "哪些地方", "经过了哪", "从东京", "路线", "最后怎样", "怎么样了", "做了什么", "干了哪些",
)
MAX_JOURNEY_DETAIL = 4
KIN_WORDS = {"老婆": "spouse", "妻子": "spouse", "娘子": "spouse", "浑家": "spouse", "夫人": "spouse",
             "媳妇": "spouse", "丈夫": "spouse", "老公": "spouse", "丈人": "father_in_law",
             "岳父": "father_in_law", "泰山": "father_in_law", "哥哥": "family", "兄长": "family",
             "弟弟": "family", "母亲": "family", "老娘": "family", "父亲": "family"}
"""Kinship words after a name, and the relation type that leads to the relative."""
KIN_AFTER = re.compile("^(?:的|他|她|之)?(" + "|".join(sorted(KIN_WORDS, key=len, reverse=True))
                       + ")")
KinLookup = Callable[[str, str], str | None]
"""(person id, relation type) → the one relative of that type, or None."""
POINTING_WORDS = ("他", "她", "那人", "此人", "这人")
FOLLOW_UP_WORDS = ("他", "她", "他们", "她们", "那人", "此人", "这人", "后来", "然后", "接着", "那他", "那她")


def dangling_reference(question: str, plan: Plan) -> bool:
    """The question points back (他, 她, 那人 …) but names no one and has nothing to inherit."""
    return not plan.person_ids and _has_any(normalize(question), POINTING_WORDS)


@dataclass(frozen=True)
class Plan:
    kind: PlanKind
    person_ids: list[str]
    names: list[str]
    cleaned: str
    follow_up: bool = False


@dataclass
class PeopleIndex:
    """Normalized names and aliases → person id, for finding people inside questions."""

    people: dict[str, Person]
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, people: Iterable[Person]) -> PeopleIndex:
        """A person's own name always finds them; an alias finds its person only when no other
        person has it (an alias two people share, 张大哥 or 知府, names neither)."""
        index = cls({p.id: p for p in people})
        ordered = sorted(index.people.values(), key=lambda p: (p.origin != "curated", p.id))
        primary: dict[str, str] = {}
        holders: dict[str, set[str]] = {}
        for person in ordered:
            primary.setdefault(normalize(person.name), person.id)
            for name in person.aliases:
                holders.setdefault(normalize(name), set()).add(person.id)
        for key, person_id in primary.items():
            if len(key) >= 2:
                index.names[key] = person_id
        for key, ids in holders.items():
            if len(key) >= 2 and key not in index.names and len(ids) == 1:
                index.names[key] = next(iter(ids))
        index.longest = max((len(k) for k in index.names), default=0)
        return index

    longest: int = 0

    def find(self, question: str) -> list[tuple[str, str]]:
        """(person id, the matched text as written) in question order, each person once."""
        text, offsets = normalize_with_offsets(question)
        found: list[tuple[str, str]] = []
        seen: set[str] = set()
        i = 0
        while i < len(text):
            for length in range(min(self.longest, len(text) - i), 1, -1):
                person_id = self.names.get(text[i:i + length])
                if person_id:
                    if person_id not in seen:
                        seen.add(person_id)
                        found.append((person_id, question[offsets[i]:offsets[i + length - 1] + 1]))
                    i += length
                    break
            else:
                i += 1
        return found


def _has_any(text: str, words: Sequence[str]) -> bool:
    return any(w in text for w in words)


def content_chars(cleaned: str, names: Sequence[str], words: Sequence[str] = (),
                  ignore: str = "") -> int:
    """Characters of the question's own content: names, journey, follow-up, function words, the
    given `words` and the `ignore` characters (the novel's most frequent places) taken out."""
    text = normalize(cleaned)
    for word in sorted([*map(normalize, names), *JOURNEY_WORDS, *FOLLOW_UP_WORDS, *words],
                       key=len, reverse=True):
        text = text.replace(word, "")
    return sum(1 for ch in text if ch not in FUNCTION_CHARS and ch not in ignore)


def _kin(question: str, found: list[tuple[str, str]], kin_of: KinLookup | None
         ) -> list[tuple[str, str]]:
    """Replace 林冲 by 林冲娘子 in 林冲他老婆…: a person followed by a kinship word becomes the
    relative the knowledge base links them to (when exactly one relative fits)."""
    if kin_of is None:
        return found
    text = normalize(question)
    out = []
    for pid, written in found:
        after = text.split(normalize(written), 1)[-1]
        match = KIN_AFTER.match(after)
        relative = kin_of(pid, KIN_WORDS[match.group(1)]) if match else None
        out.append((relative, written + match.group(0)) if relative and match else (pid, written))
    return list(dict.fromkeys(out))


def plan_for_question(question: str, people: PeopleIndex, previous: Sequence[str] = (),
                      kin_of: KinLookup | None = None, place_chars: str = "") -> Plan:
    """Decide the kind and the people of a question (rules in the module docstring)."""
    simplified = normalize(question)
    found = _kin(question, people.find(question), kin_of)
    ids = list(dict.fromkeys(pid for pid, _ in found))
    follow_up = False
    if not ids and previous and _has_any(simplified, FOLLOW_UP_WORDS):
        plural = _has_any(simplified, ("他们", "她们", "两人", "二人", "俩"))
        ids, follow_up = list(previous) if plural else list(previous[:1]), True
    names = [people.people[pid].name for pid in ids]
    cleaned = " ".join(clean_query(question).split())
    if len(ids) >= 2:
        return Plan("pair", ids[:2], names[:2], cleaned, follow_up)
    if len(ids) == 1 and _has_any(simplified, JOURNEY_WORDS) and \
            content_chars(cleaned, [written for _, written in found], (), place_chars) \
            <= MAX_JOURNEY_DETAIL:
        return Plan("journey", ids, names, cleaned, follow_up)
    return Plan("open", ids, names, cleaned, follow_up)
