"""Short answers: an answer opens with at most two sentences that say what was asked, then at most
`MAX_ITEMS` supporting items (the lines that begin with the item mark); the rest are counted, with
the command that shows them all. A quote cited only in a dropped item is dropped with it."""

from __future__ import annotations

from kb.answering.drafting import Ctx, Draft, cite

MAX_ITEMS = 6
MAX_LEAD_SENTENCES = 2


def shortened(draft: Draft, ctx: Ctx) -> Draft:
    """The draft with its lead cut to two sentences and its items to `MAX_ITEMS`."""
    if draft.status != "answered" or not draft.answer:
        return draft
    lines = draft.answer.split("\n")
    lines[0] = _lead(lines[0], ctx.say("sentence_end"), [cite(q) for q in draft.quotes])
    item = ctx.say("item")
    kept, dropped = [], 0
    items = 0
    for line in lines:
        if line.startswith(item):
            items += 1
            if items > MAX_ITEMS:
                dropped += 1
                continue
        kept.append(line)
    kept = _without_bare_headers(kept, item)
    if dropped:
        kept.append(_more(ctx, dropped))
    text = "\n".join(kept)
    draft.answer = text
    draft.quotes = [q for q in draft.quotes if cite(q) in text]
    return draft


def _without_bare_headers(lines: list[str], item: str) -> list[str]:
    """A header line (ending on a colon, not itself an item) left with no item under it goes."""
    out: list[str] = []
    for i, line in enumerate(lines):
        header = i > 0 and not line.startswith(item) and line.rstrip().endswith(("：", ":"))
        followed = i + 1 < len(lines) and lines[i + 1].startswith(item)
        if header and not followed:
            continue
        out.append(line)
    return out


def _lead(line: str, end: str, cites: list[str]) -> str:
    """The first `MAX_LEAD_SENTENCES` sentences of the lead, and its quote when it ends on one
    (a quote's own sentence marks, and those of the speech inside it, never cut it)."""
    quotes = [c for c in cites if c in line]
    masked = line
    for quote in quotes:
        at = masked.find(quote)
        masked = masked[:at] + "\0" * len(quote) + masked[at + len(quote):]
    cut, count = len(line), 0
    for at, ch in enumerate(masked):
        if ch == end:
            count += 1
            if count == MAX_LEAD_SENTENCES and at + 1 < len(line):
                cut = at + 1
                break
    if cut == len(line):
        return line
    tail = "".join(q for q in quotes if line.find(q) >= cut)
    return line[:cut] + tail


def _more(ctx: Ctx, dropped: int) -> str:
    """How many items are left out, and where to read them all."""
    plan = ctx.plan
    if plan.kind == "pair" and len(plan.person_ids) >= 2:
        where = ctx.say("more.pair", a=ctx.book.name(plan.person_ids[0]),
                        b=ctx.book.name(plan.person_ids[1]))
    elif plan.person_ids:
        where = ctx.say("more.person", name=ctx.book.name(plan.person_ids[0]))
    else:
        where = ctx.say("more.context")
    return ctx.say("more", n=dropped, where=where)
