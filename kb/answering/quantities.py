"""Quantities as the book writes them: a numeral with the asked unit (十五碗, 三千贯, 一百单八员),
never a numeral inside a name (乙二's 二), and whether a sentence gives a whole count (共)."""

from __future__ import annotations

import re
from functools import cache

from core.text import to_simplified
from kb.answering.people_index import PeopleIndex
from kb.answering.plan import Plan
from kb.knowledge.language import language


@cache
def _numbers() -> tuple[str, str]:
    """The numeral pattern (单 joins hundreds and units: 一百单八, 三百单五) and the measure words
    a numeral keeps when the question names none (要价多少 → 三千贯, not 三千)."""
    chars = language().chars
    number = f"[{chars.numeral}]+(?:{chars.numeral_and}[{chars.numeral}]+)?"
    return number, "".join(sorted(set(chars.units) | set(chars.currency)))


def number_pattern() -> str:
    """A numeral as the book writes it."""
    return _numbers()[0]


def quantity_pattern(plan: Plan) -> re.Pattern[str]:
    """A numeral with the question's unit (and for the generic 个 its noun too); with none asked,
    the measure word the book puts after it, if any. 多少钱 is answered by any sum of money the
    book gives (三千贯, 十两银子), a count of people by any unit of people."""
    lang = language()
    chars = lang.chars
    number, measure_words = _numbers()
    unit, noun = plan.detail.unit, plan.detail.noun
    if unit is None:
        measure = plan.detail.measure
        return re.compile(f"{number}[{measure}](?:{number}[{measure}])*" if measure  # 一尺五寸
                          else f"{number}[{measure_words}]?")
    if unit == chars.money:
        tail = f"[{chars.currency}]"
    elif unit in chars.people_units and unit != chars.generic_unit:
        tail = f"[{chars.people_units}]"
    else:
        tail = re.escape(unit)
    return re.compile(f"{number}{tail}" + (re.escape(noun) if noun else ""))


def total_in(sentence: str, plan: Plan) -> bool:
    """The sentence gives a whole count: 共 (共有, 共是, 共喫了) shortly before the asked quantity."""
    before = language().patterns.total_before.pattern
    return re.search(f"{before}{quantity_pattern(plan).pattern}",
                     to_simplified(sentence)) is not None


def quantity_in(text: str, plan: Plan, people: PeopleIndex) -> str | None:
    """The first quantity of the asked unit in a (simplified) text that is not part of a name
    (a name ending in 万 before 三位: the quantity is 三位, not 万三位)."""
    found = quantities_in(text, plan, people)
    return found[0].group(0) if found else None


def quantities_in(text: str, plan: Plan, people: PeopleIndex) -> list[re.Match[str]]:
    """Every quantity of the asked unit in a (simplified) text, none inside a name (乙二's 二)."""
    pattern = quantity_pattern(plan)
    if pattern.search(text) is None:  # most sentences give none: no names to look up
        return []
    names = [to_simplified(w) for _, w in people.find(text)]
    spans = [(m.start(), m.end()) for n in names for m in re.finditer(re.escape(n), text)]
    out = []
    pos = 0
    while (found := pattern.search(text, pos)) is not None:
        inside = [end for start, end in spans if start < found.end() and found.start() < end]
        if not inside:
            out.append(found)
        pos = max(inside) if inside else found.end()
        pos = max(pos, found.start() + 1)
    return out


def has_quantity(sentence: str, plan: Plan, people: PeopleIndex) -> bool:
    """The sentence gives a quantity of the asked unit that is not part of a name (乙二)."""
    return bool(quantities_in(to_simplified(sentence), plan, people))
