"""Who held a post before or after someone (甲之前谁是寨主, 谁接替了甲): the other holder of the
person's own post, by the states that give it — the latest one before them, or the first after.

The post is the person's title or status whose words the question shares; another state is the
same post when it ends in the same character (the post's head: 主, 领, 帅) and holds at least half
of its bigrams (某山泊主 for 某山泊寨主), so a band's member (入伙某山) is never its head."""

from __future__ import annotations

import re

from core.text import to_simplified
from kb.answering.drafting import Ctx, Draft, Writer, record_quote
from kb.answering.kinds import Kind
from kb.answering.plan import Plan
from kb.knowledge.models import State

OFFICE_KINDS = ("title", "status")
SAME_POST = 0.5
"""The share of a post's bigrams another state must hold to be the same post."""
_ASIDE = re.compile(r"[（(][^）)]*[）)]")


def detect(plan: Plan) -> bool:
    return plan.asks == "who" and len(plan.person_ids) == 1 \
        and bool(plan.roles & {"before", "succeeded", "after"})


def _bigrams(text: str) -> set[str]:
    text = _ASIDE.sub("", to_simplified(text))
    return {text[i:i + 2] for i in range(len(text) - 1)}


def _post(ctx: Ctx, person_id: str) -> State | None:
    """The person's state the question names: most bigrams shared with the question."""
    asked = _bigrams(ctx.plan.question)
    for name in ctx.all_names:
        asked -= _bigrams(name)
    held = [s for states in ctx.book.chapter_states.values() for s in states
            if s.person == person_id and s.kind in OFFICE_KINDS]
    scored = [(len(_bigrams(s.value) & asked), -s.chapter, s) for s in held]
    best = max(scored, key=lambda t: t[:2], default=None)
    return best[2] if best and best[0] else None


def _holders(ctx: Ctx, post: State) -> list[State]:
    """Others' states of the same post, in book order, one per person (their first)."""
    words = _bigrams(post.value)
    head = _ASIDE.sub("", to_simplified(post.value))[-1:]
    seen: dict[str, State] = {}
    for chapter in sorted(ctx.book.chapter_states):
        for state in ctx.book.chapter_states[chapter]:
            if state.person == post.person or state.kind not in OFFICE_KINDS:
                continue
            if not _ASIDE.sub("", to_simplified(state.value)).endswith(head):
                continue
            if words and len(_bigrams(state.value) & words) / len(words) >= SAME_POST:
                seen.setdefault(state.person, state)
    return list(seen.values())


def compose(ctx: Ctx) -> Draft | None:
    person_id = ctx.plan.person_ids[0]
    post = _post(ctx, person_id)
    if post is None:
        return None
    before = "before" in ctx.plan.roles
    holders = _holders(ctx, post)
    if before:
        found = [s for s in holders if s.chapter < post.chapter][-1:]
    else:
        found = [s for s in holders if s.chapter > post.chapter][:1]
    if not found:
        return None
    other = found[0]
    w = Writer()
    w.add(ctx.say("succession.before" if before else "succession.after",
                  holder=ctx.name(other.person), chapter=other.chapter,
                  office=_ASIDE.sub("", other.value), person=ctx.name(person_id),
                  since=post.chapter), record_quote(other))
    w.add(ctx.say("succession.item", chapter=post.chapter, person=ctx.name(person_id),
                  office=_ASIDE.sub("", post.value)), record_quote(post))
    return w.draft()


KIND = Kind("succession", 98, detect, compose)
