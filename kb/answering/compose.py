"""The offline composer: the question kinds the plan lists (`Plan.kinds`, in priority order) are
asked for their answer in turn, and the first that finds one answers (kb.answering.kinds). Every
answer opens with what was asked, in the book's terms, then the supporting records and verbatim
quotes, each with its block id; an answer is given only when the asked thing is found in a record
or a packed block, else it is `insufficient` with the reason. Needs no LLM."""

from __future__ import annotations

from kb.answering.brevity import shortened
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import kind_named


def compose(ctx: Ctx) -> tuple[Draft, str]:
    """The offline answer for the plan, and the kind that gave it. A refusal within a named
    campaign says so: the book may well tell it elsewhere."""
    for name in ctx.plan.kinds:
        draft = kind_named(name).compose(ctx)
        if draft is not None:
            return shortened(_within_arc(draft, ctx), ctx), name
    raise AssertionError("the fact kind answers every plan")  # pragma: no cover


def _within_arc(draft: Draft, ctx: Ctx) -> Draft:
    arc = ctx.plan.arc
    if draft.status != "answered" and arc is not None and draft.reason:
        draft.reason = ctx.say("arc.within", reason=draft.reason.rstrip("。"), name=arc.words[0],
                               period=arc.period, first=arc.first, last=arc.last)
    return draft
