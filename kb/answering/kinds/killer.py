"""Who killed someone (甲被谁害死的, 谁杀了甲): the hand in the person's death, not whoever wronged
them once."""

from __future__ import annotations

from core.text import normalize
from kb.answering.drafting import Ctx, Draft, asked_acts
from kb.answering.kinds import Kind
from kb.answering.life import compose_killer
from kb.answering.plan import Plan
from kb.answering.wording import asked_form
from kb.knowledge.language import language


def detect(plan: Plan) -> bool:
    return plan.asks == "who" and len(plan.person_ids) == 1 and not plan.detail.whom


def compose(ctx: Ctx) -> Draft | None:
    chars = language().chars
    killing = any(word.endswith(chars.dead) for word in ctx.plan.focus) \
        or bool(asked_acts(ctx) & set(chars.killing))
    return compose_killer(ctx, ctx.plan.person_ids[0]) if killing and _killed(ctx.plan) else None


def _killed(plan: Plan) -> bool:
    """The named person is the one killed: 甲被谁杀, or the asking word before the name (谁杀了
    甲); not 甲杀了乙以后投奔了谁, where 甲 kills and another thing is asked."""
    if plan.detail.passive:
        return True
    text = asked_form(plan.question)
    who = [text.find(w) for w in language().words_of("asks_who") if w in text]
    names = [text.rfind(k) for _, written in plan.named if (k := normalize(written)) in text]
    return not who or not names or min(who) < max(names)  # 征甲时谁杀了甲: the last 甲


KIND = Kind("killer", 210, detect, compose)
