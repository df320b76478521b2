"""Does the evidence hold what the question asks for? Three checks, each with its reason:

- the premise: a question that says one named person killed or fought another (杀, 打死, 比武 …)
  needs a relation of that type between them in the knowledge base (林冲 never kills 董超);
- the kind of answer expected: a person (谁 — someone not named in the question must appear in the
  best sentences or records; 叫什么名字, 全名 — a name must appear in the best sentences, and a
  named person asked for their full name must have one that is not a title such as 洪教头), or a
  quantity (多少X, 几X, 多长 — a numeral, followed by the unit and the noun when the question has
  them: 几个孩子 → 两个孩儿);
- coverage, in `compose`: a best sentence must hold enough of the question's own words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from core.text import to_simplified
from kb.answering.planner import PeopleIndex

NAME_ASK = re.compile(r"叫什么|什么名字|名叫|全名|姓名|姓什么|叫啥|字号")
WHO_ASK = re.compile(r"谁")
QUANTITY_ASK = re.compile(r"(?:多少|(?<![哪这那])几)(.)?(.)?|多长|多重|多高|多远|多久")
NUMERAL = "一二三四五六七八九十百千万两半数廿"
UNITS = set("斤两碗个只次天日年岁回里丈尺寸贯锭匹口条人员名位把件杯")
PREMISES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "杀": (("杀掉", "杀了", "杀死", "打死", "砍死", "害死", "杀害", "搠死"), frozenset({"killed"})),
    "斗": (("比武", "交手", "较量", "比试", "比棒", "厮打", "打斗", "斗了"),
           frozenset({"fought", "killed", "enemy"})),
}
"""Action words of a question → the relation types that would make its premise true."""
ACTION_WORDS = {"杀": ("杀", "打死", "搠死", "结果了"), "斗": ("比试", "较量", "交手", "使棒")}
"""How a sentence of the text states the action."""

RelationTypes = Callable[[str, str], set[tuple[str, str]]]
"""(a, b) → {(relation type, origin)} of the relations between two people, either direction."""
NEAR = 8
"""A name answers 那个汉子叫什么 only if it stands this close to 汉子 in a sentence."""


@dataclass(frozen=True)
class Expected:
    name: bool
    role: str | None  # whose name is asked: 汉子 in 那个汉子叫什么名字
    who: bool
    quantity: bool
    unit: str | None
    noun: str | None


def _role_before(text: str, end: int) -> str | None:
    """The two characters naming whose name is asked, just before 叫什么/的名字 (的, 那个 cut)."""
    before = re.sub(r"[的那这个]+$", "", text[:end])
    match = re.search(r"[\u4e00-\u9fff]{2}$", before)
    return match.group(0) if match else None


def expected_answer(question: str) -> Expected:
    text = to_simplified(question)
    quantity = QUANTITY_ASK.search(text)
    unit = quantity.group(1) if quantity and quantity.group(1) in UNITS else None
    noun = quantity.group(2) if unit == "个" and quantity and quantity.group(2) else None
    name = NAME_ASK.search(text)
    return Expected(name=bool(name), role=_role_before(text, name.start()) if name else None,
                    who=bool(WHO_ASK.search(text)), quantity=bool(quantity), unit=unit,
                    noun=noun)


def asserts_action(question: str) -> bool:
    """The question says someone did one of the `PREMISES` actions (杀掉, 比武 …)."""
    text = to_simplified(question)
    return any(w in text for words, _ in PREMISES.values() for w in words)


def premise_problem(question: str, named: Sequence[str], names: dict[str, str],
                    relation_types: RelationTypes, evidence: Sequence[str],
                    people: PeopleIndex) -> str | None:
    """Why the question's premise is neither in the knowledge base nor in one evidence sentence
    that names two of the people with the action's character (杀, 斗 …), or None."""
    text = to_simplified(question)
    if len(named) < 2:
        return None
    pairs = {(a, b): relation_types(a, b) for a, b in combinations(named, 2)}
    curated = any(origin == "curated" for found in pairs.values() for _, origin in found)
    for action, (words, types) in PREMISES.items():
        if not any(w in text for w in words):
            continue
        recorded = any(t in types for found in pairs.values() for t, _ in found)
        # curated relations are complete for their pairs; extracted ones may miss the action
        if not recorded and (curated or not _stated(action, named, evidence, people)):
            who = "、".join(names.get(p, p) for p in named)
            return f"知识库中没有{who}之间这样的记录（{'/'.join(sorted(types))}），问题的前提可能不成立"
    return None


def _stated(action: str, named: Sequence[str], evidence: Sequence[str],
            people: PeopleIndex) -> bool:
    """A sentence that states the action and names two of the people and no one else (so that
    they act on each other, not side by side against a third)."""
    for sentence in evidence:
        simplified = to_simplified(sentence)
        mentioned = {p for p, _ in people.find(sentence)}
        if any(w in simplified for w in ACTION_WORDS[action]) and \
                len(mentioned & set(named)) >= 2 and mentioned <= set(named):
            return True
    return False


def _has_quantity(sentence: str, expected: Expected) -> bool:
    """A numeral (with the question's unit, and for the generic 个 its noun too)."""
    text = to_simplified(sentence)
    if expected.unit is None:
        return any(ch in NUMERAL for ch in text)
    tail = re.escape(expected.unit) + (re.escape(expected.noun) if expected.noun else "")
    return re.search(f"[{NUMERAL}]+{tail}", text) is not None


def _near(text: str, role: str, people: PeopleIndex) -> set[str]:
    """People named within `NEAR` characters of the role word in a sentence."""
    found: set[str] = set()
    for match in re.finditer(re.escape(role), text) if role else ():
        window = text[max(0, match.start() - NEAR):match.end() + NEAR]
        found |= {pid for pid, _ in people.find(window)}
    return found


def _asked_person(expected: Expected, named: Sequence[str], people: PeopleIndex) -> str | None:
    """The named person whose own name is asked (洪教头的全名), if any."""
    return next((p for p in named if expected.role and any(
        expected.role in to_simplified(n) for n in people.people[p].all_names)), None)


def unknown_name(question: str, named: Sequence[str], people: PeopleIndex,
                 titles: Sequence[str]) -> str | None:
    """A named person's own name is asked, and the knowledge only has titles for them."""
    expected = expected_answer(question)
    asked = _asked_person(expected, named, people) if expected.name else None
    if asked and _titles_only(people.people[asked].all_names, titles):
        return f"书中没有给出{people.people[asked].name}的名字"
    return None


def _titles_only(names: Iterable[str], titles: Sequence[str]) -> bool:
    """Every name is a title of the corpus profile (洪教头: 教头), so the person has no name."""
    return bool(titles) and all(any(t in n for t in titles) for n in names)


def missing_part(question: str, sentences: Sequence[str], record_people: Iterable[str],
                 named: Sequence[str], people: PeopleIndex) -> str | None:
    """What the evidence lacks for the kind of answer the question expects, or None."""
    expected = expected_answer(question)
    if expected.quantity and not any(_has_quantity(s, expected) for s in sentences):
        return f"证据中没有问题所问的数量（{(expected.unit or '') + (expected.noun or '') or '数目'}）"
    in_sentences = {pid for s in sentences for pid, _ in people.find(s)}
    if expected.name:
        if _asked_person(expected, named, people) is None:
            # someone described (那个汉子): a sentence must name a new person beside the role
            role = expected.role or ""
            about = [s for s in sentences if not named or {p for p, _ in people.find(s)} & set(named)]
            beside = {pid for s in about for pid in _near(to_simplified(s), role, people)}
            if not beside - set(named):
                return f"证据中没有{role or '所问的人'}的名字"
    elif expected.who and not (in_sentences | set(record_people)) - set(named):
        return "证据中没有问题所问的人物"
    return None
