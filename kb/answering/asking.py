"""What a question asks (`Plan.asks`) and the detail its answer needs (a quantity's unit, the role
whose name is asked, the thing whose material is asked). The first that applies: `chapter`,
`how_many`, `name`, `made_of`, `why`, `where`, `when`, `identity` (one person), `who`, `whether`,
then by the plan's kind: `relation` (a pair), `stages` (a journey), `how`, `what`."""

from __future__ import annotations

import re

from core.text import CJK_CLASS
from kb.answering.plan import Ask, AskDetail, PlanKind
from kb.answering.wording import has_any
from kb.knowledge.language import Language, language

CJK_RUN = f"[{CJK_CLASS}]"
MAX_IDENTITY_CHARS = 12
"""A who-is-this question says little besides the name (甲是什么人)."""


def ask_of(text: str, kind: PlanKind, person_count: int, bare: str) -> tuple[Ask, AskDetail]:
    """What is asked (the order in the module docstring); `bare` is the question with the named
    people's names taken out (for who-is-this-person)."""
    lang = language()
    if has_any(text, lang.words_of("asks_chapter")):
        return "chapter", AskDetail()
    quantity = lang.patterns.quantity.search(text)
    if quantity:
        return "how_many", _quantity(text, quantity, lang)
    if has_any(text, lang.words_of("asks_name")):
        return "name", AskDetail(role=_name_kind(text, lang) or _role_before(text, lang))
    made = lang.patterns.made_of.search(text)
    if made:
        material = lang.patterns.material.search(text)
        return "made_of", AskDetail(thing=_thing_before(text, made.start(), lang),
                                    material=material.group(1) if material else None)
    for asks, role in (("why", "asks_why"), ("where", "asks_where"), ("when", "asks_when")):
        if has_any(text, lang.words_of(role)):  # type: ignore[arg-type]
            return asks, AskDetail()  # type: ignore[return-value]
    if person_count == 1 and lang.patterns.identity.search(bare) and len(bare) <= MAX_IDENTITY_CHARS:
        return "identity", AskDetail()
    if has_any(text, lang.words_of("asks_who")):
        return "who", AskDetail(passive=bool(lang.patterns.passive.search(text)))
    return _by_kind(text, kind, lang), AskDetail()


def _by_kind(text: str, kind: PlanKind, lang: Language) -> Ask:
    if has_any(text, lang.words_of("asks_whether")):
        return "whether"
    if kind == "pair":
        return "relation"
    if kind == "journey":
        return "stages"
    return "how" if has_any(text, lang.words_of("asks_how")) else "what"


def _quantity(text: str, quantity: re.Match[str], lang: Language) -> AskDetail:
    """The unit, noun, counted thing, measure and act of a how-many (几只老虎, 多少好汉, 多远)."""
    chars = lang.chars
    asked_unit = quantity.group("unit")
    unit = asked_unit if asked_unit and asked_unit in chars.units else None
    noun = quantity.group("noun") if unit == chars.generic_unit and quantity.group("noun") else None
    counted = re.match(f"{CJK_RUN}{{1,2}}", text[quantity.end("unit"):]) if unit else None
    measure = lang.measures.get(quantity.group(0))
    asking = quantity.group("ask")
    asked = len(asking) if asking else 0
    people = re.match(f"{CJK_RUN}{{1,2}}", text[quantity.start() + asked:]) \
        if unit in (None, chars.generic_unit) and not measure else None
    if people and set(people.group(0)) & set(chars.person):  # 多少好汉, 几个头领: people
        unit, noun, measure, counted = None, None, chars.people_units, people
    verb = lang.patterns.verb_before.search(text[:quantity.start()])
    ordinal = text[max(0, quantity.start() - 1):quantity.start()] == chars.ordinal
    return AskDetail(unit=unit, noun=noun, total=has_any(text, lang.words_of("asks_total")),
                     counted=counted.group(0) if counted else None, measure=measure,
                     act=None if ordinal or not verb or verb.group(1) in chars.not_acts
                     else verb.group(1),
                     ordinal=ordinal)


def _name_kind(text: str, lang: Language) -> str | None:
    """The kind of name asked besides the person's own (法名叫什么): the answer is the word after
    the kind in the text, not another person named beside it."""
    for kind in lang.words_of("name_kinds"):
        for found in re.finditer(re.escape(kind), text):
            if lang.patterns.name_kind_ask.match(text, found.end()):
                return kind
    return None


def _role_before(text: str, lang: Language) -> str | None:
    """The two characters naming whose name is asked, just before 叫什么/的名字 (的, 那个 cut)."""
    words = lang.words_of("asks_name")
    end = min(i for i in (text.find(w) for w in words) if i >= 0)
    before = re.sub(f"[{lang.chars.role_trim}]+$", "", text[:end])
    match = re.search(f"{CJK_RUN}{{2}}$", before)
    return match.group(0) if match else None


def _thing_before(text: str, start: int, lang: Language) -> str | None:
    """What something is made of: the noun just before 是什么/用什么 (after the last 的)."""
    before = re.sub(f"[{lang.chars.thing_trim}]+$", "", text[:start])
    before = before.rsplit(lang.chars.de, 1)[-1]
    match = re.search(f"{CJK_RUN}{{2}}$", before)
    return match.group(0) if match else None
