"""A question that names how someone died (甲是被谁毒死的, 甲为什么被淹死): when the record of
the person's death tells another end (自缢, 病故), the premise is false, and the answer says what
the book gives instead of naming a killer for a death that did not happen that way. The manners
and the characters that state them are language data (`death_manners` of kb/data/lang)."""

from __future__ import annotations

from core.text import to_simplified
from kb.answering.drafting import Ctx, Draft, record_quote
from kb.answering.kinds import Kind
from kb.answering.life import last_status
from kb.answering.plan import Plan
from kb.knowledge.language import language

NEGATION_REACH = 3
"""A negator this close before the word (没被烧死) denies the manner instead of asserting it."""


def asked_manner(plan: Plan) -> str | None:
    """The manner-of-death word the question asserts (毒死), if any; 没被烧死 asserts none."""
    lang = language()
    asked = to_simplified(plan.cleaned)
    dead, negators = lang.chars.dead, lang.chars.negators
    for manner in lang.death_manners:
        at = asked.find(f"{manner}{dead}")
        if at >= 0 and not any(c in negators for c in asked[max(0, at - NEGATION_REACH):at]):
            return f"{manner}{dead}"
    return None


def detect(plan: Plan) -> bool:
    return len(set(plan.person_ids)) == 1 and asked_manner(plan) is not None


def compose(ctx: Ctx) -> Draft | None:
    word = asked_manner(ctx.plan)
    status, _ = last_status(ctx, ctx.plan.person_ids[0])
    if word is None or status is None or language().chars.dead not in status.value:
        return None  # no death on record: other kinds say what the book holds
    quote = record_quote(status)
    told = to_simplified(f"{status.value}{status.description}{quote[0] if quote else ''}")
    if any(mark in told for mark in language().death_manners[word[0]]):
        return None
    reason = ctx.say("killer.not_manner", name=ctx.name(status.person), word=word,
                     chapter=status.chapter, value=status.value)
    return Draft("insufficient", "", ctx.say("end", text=reason))


KIND = Kind("death_manner", 22, detect, compose)
