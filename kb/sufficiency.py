"""Does the evidence hold what the question asks for? Checks by the kind of answer expected:

- a person (谁, 叫什么名字, 姓名 …): the best sentences, or the best knowledge records, must name
  someone the question does not already name;
- a quantity (多少X, 几X, 多长, 多重): some best sentence must hold a numeral, followed by the unit
  X when the question gives one (几碗 → 十五碗);
- anything else: only the coverage test of `compose.MIN_COVERAGE` applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ingest.normalize import to_simplified
from kb.planner import PeopleIndex

PERSON_ASK = re.compile(r"谁|叫什么|什么名字|名叫|全名|姓名|姓什么|名字")
QUANTITY_ASK = re.compile(r"(?:多少|(?<!哪)几)(.)?|多长|多重|多高|多大|多远|多久")
NUMERAL = "一二三四五六七八九十百千万两半数廿"
UNITS = set("斤两碗个只次天日年岁回里丈尺寸贯锭匹口条人员名位把件杯")


@dataclass(frozen=True)
class Expected:
    person: bool
    quantity: bool
    unit: str | None


def expected_answer(question: str) -> Expected:
    text = to_simplified(question)
    quantity = QUANTITY_ASK.search(text)
    unit = quantity.group(1) if quantity and quantity.lastindex else None
    return Expected(person=bool(PERSON_ASK.search(text)), quantity=bool(quantity),
                    unit=unit if unit in UNITS else None)


def _has_quantity(sentence: str, unit: str | None) -> bool:
    text = to_simplified(sentence)
    if unit is None:
        return any(ch in NUMERAL for ch in text)
    return re.search(f"[{NUMERAL}]+{re.escape(unit)}", text) is not None


def missing_part(question: str, sentences: Sequence[str], record_people: Iterable[str],
                 named: Sequence[str], people: PeopleIndex) -> str | None:
    """What the evidence lacks for this question, or None when it holds what is asked."""
    expected = expected_answer(question)
    if expected.quantity and not any(_has_quantity(s, expected.unit) for s in sentences):
        return f"证据中没有问题所问的数量（{expected.unit or '数目'}）"
    if expected.person:
        others = {pid for s in sentences for pid, _ in people.find(s)} | set(record_people)
        if not others - set(named):
            return "证据中没有问题所问的人物"
    return None
