"""How many: the number the book gives for the asked act and unit (十五碗, 三千贯), the whole count
a 共 sentence gives when the question asks 一共, and a rank (第几位) from the person's profile."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from core.text import is_cjk, to_simplified
from kb.answering.coverage import _forms, best_sentences
from kb.answering.drafting import Ctx, Lead, bigrams, book_words, record_quote
from kb.answering.numerals import numeral_value
from kb.answering.quantities import (
    has_quantity,
    number_pattern,
    quantities_in,
    quantity_in,
    total_in,
)
from kb.answering.quotes import sentence_pairs
from kb.answering.records import record_line
from kb.answering.refusals import MIN_COVERAGE
from kb.knowledge.language import language
from kb.knowledge.models import Event, Record
from retrieval.analyzers import FUNCTION_CHARS

MIN_QUANTITY_COVERAGE = 0.1
SUPPORT_SENTENCES = 3
"""Sentences shown beside a number (and kept when counted sentences come first)."""


MIN_CHAR_SHARE = 0.5
"""A sentence about the named people that gives a number with the asked unit answers a how-many
question when it holds this much of the question's content weight."""


QUANTITY_SENTENCES = 12


TOTAL_SENTENCES = 400
"""Sentences of the passages searched for a whole count (一共): the 共 sentence may share no
word with the question (前後共喫了十五碗 for 一共喝了几碗酒)."""


def counted_first(ctx: Ctx, about: Sequence[str], weights: Mapping[str, float],
                  best: list[tuple[float, str, str]], top_sentence: float, keep: int
                  ) -> tuple[list[tuple[float, str, str]], float]:
    """The sentences of a how-many: those that give a number of the asked unit first, the whole
    count of the scene (or of the story, when the question asks 一共) before a part of it (三碗 of
    十五碗); and the best coverage, raised to the refusal's bar when a counted sentence holds
    enough of the question."""
    plan = ctx.plan
    counted = [b for b in best_sentences(about, ctx.block_of, weights, ctx.book.profile.wordings,
                                         limit=QUANTITY_SENTENCES)
               if b[0] > 0 and has_quantity(b[1], plan, ctx.people)] or counted_by_chars(ctx, about)
    whole = whole_counts(ctx, about, weights)
    if not plan.detail.total and counted:  # a part of the scene's count (三碗 of 十五碗)
        whole = [b for b in whole if same_chapter(ctx, b[2], counted[0][2])
                 and whole_count(b[1], ctx) > whole_count(counted[0][1], ctx)]
    if whole:  # 一共, or the scene's 共 sentence: the whole count comes first
        counted = whole[:1] + [b for b in counted if b not in whole[:1]]
    if not counted:
        return best, top_sentence
    if counted[0][0] >= MIN_QUANTITY_COVERAGE:
        top_sentence = max(top_sentence, MIN_COVERAGE)
    return counted[:keep], top_sentence


def counted_by_chars(ctx: Ctx, about: Sequence[str]) -> list[tuple[float, str, str]]:
    """How many, when no sentence shares a word with the question (一天能走 / 日行): the
    sentences that give the number with the unit and hold `MIN_CHAR_SHARE` of the question's
    own characters (names and function characters left out), best first."""
    text = to_simplified(ctx.plan.cleaned)
    for name in sorted(map(to_simplified, ctx.all_names), key=len, reverse=True):
        text = text.replace(name, " ")
    chars = {ch for ch in text if is_cjk(ch) and ch not in FUNCTION_CHARS}
    if not chars:
        return []
    found = []
    for rank, chunk_id in enumerate(about):
        block = ctx.block_of(chunk_id)
        for written, simplified in sentence_pairs(block.text) if block else ():
            if has_quantity(written, ctx.plan, ctx.people):
                share = len(chars & set(simplified)) / len(chars)
                if share >= MIN_CHAR_SHARE:
                    found.append((share, -rank, written, chunk_id))
    found.sort(reverse=True)
    return [(MIN_QUANTITY_COVERAGE, w, c) for _, _, w, c in found[:SUPPORT_SENTENCES]]


def number_answer(ctx: Ctx, record: Record | None, best: Sequence[tuple[float, str, str]]
            ) -> Lead | None:
    """How many: the numeral with the question's unit as the book gives it (十五碗): from the
    record that answers the question when it gives one (a curated account of the scene: the
    signboard's 三碗不过冈 is not what the hero drank), else from the best sentence."""
    if best and total_in(best[0][1], ctx.plan):  # 一共, or the scene's whole (`whole_counts`)
        found = quantity_in(to_simplified(best[0][1]), ctx.plan, ctx.people)
        if found:
            return ctx.say("count", n=found), (best[0][1], best[0][2]), False
    beside = quantity_after_act(ctx, best)
    if beside:
        return ctx.say("count", n=beside[0]), beside[1], False
    counted = ctx.plan.detail.counted
    if isinstance(record, Event) and counted and ctx.plan.detail.unit:  # 杀四虎: 四只
        titled = re.search(f"({number_pattern()}){re.escape(ctx.plan.detail.unit)}?{re.escape(counted[-1])}",
                           record.title)
        if titled:
            return (ctx.say("count.record", n=f"{titled.group(1)}{ctx.plan.detail.unit}",
                            line=record_line(ctx, record)),
                    record_quote(record), True)
    if record is not None:
        found = quantity_in(to_simplified(ctx.render(record)), ctx.plan, ctx.people)
        if found:
            return ctx.say("count.record", n=found, line=record_line(ctx, record)), \
                record_quote(record), True
    for _, sentence, chunk_id in best:
        found = quantity_in(to_simplified(sentence), ctx.plan, ctx.people)
        if found:
            return ctx.say("count", n=found), (sentence, chunk_id), False
    return None


RANK_WINDOW = 8
"""How many characters before a 第N位 a word of the question may stand (排座次居第1位)."""


def rank_answer(ctx: Ctx) -> Lead | None:
    """第几位: the rank the person's profile gives beside a word of the question (排座次居第1位,
    not another list's 第1位 when the question asks the seating), quoted from the source that
    names them most fully (the roster a rank is read from gives star, nickname and name)."""
    if len(ctx.plan.person_ids) != 1:
        return None
    person = ctx.people.people[ctx.plan.person_ids[0]]
    chars = language().chars
    unit = re.escape(ctx.plan.detail.unit) if ctx.plan.detail.unit else f"[{chars.rank_units}]?"
    words = bigrams(ctx.plan.focus)
    profile = to_simplified(person.profile)
    for match in re.finditer(f"{chars.ordinal}([0-9]+|{number_pattern()}){unit}", profile):
        before = profile[max(0, match.start() - RANK_WINDOW):match.start()]
        if any(w in before for w in words):
            clause = profile[:match.end()].rsplit("；", 1)[-1].rsplit("。", 1)[-1]
            names = [to_simplified(n) for n in person.all_names if len(n) >= 2]
            sources = sorted((r for r in person.sources if r.chunk_id),
                             key=lambda r: (sum(n in to_simplified(r.quote) for n in names),
                                            r.chapter or 0))
            quote = (sources[-1].quote, sources[-1].chunk_id or "") if sources else None
            return ctx.say("rank", rank=match.group(0), clause=clause), quote, False
    return None


def whole_counts(ctx: Ctx, about: Sequence[str], weights: Mapping[str, float]
                  ) -> list[tuple[float, str, str]]:
    """The passages' sentences that give a whole count of the asked unit (共, `total_in`), of
    the counted thing when one is asked, the largest count first."""
    plan = ctx.plan
    whole = [b for b in best_sentences(about, ctx.block_of, weights, ctx.book.profile.wordings,
                                       limit=TOTAL_SENTENCES) if total_in(b[1], plan)]
    counted_forms = _forms(plan.detail.counted, ctx.book.profile.wordings) \
        if plan.detail.counted else ()
    whole = [b for b in whole if not counted_forms
             or any(f in to_simplified(b[1]) for f in counted_forms)] or whole
    return sorted(whole, key=lambda b: -whole_count(b[1], ctx))  # a story's count grows


def same_chapter(ctx: Ctx, chunk_a: str, chunk_b: str) -> bool:
    a, b = ctx.block_of(chunk_a), ctx.block_of(chunk_b)
    return a is not None and b is not None and a.chapter == b.chapter


def whole_count(sentence: str, ctx: Ctx) -> int:
    """The value of the count a 共 sentence gives (0 when it cannot be read): a story's count
    grows (四十位 in one chapter, 一百单八员 later), and 一共 asks the whole."""
    found = quantity_in(to_simplified(sentence), ctx.plan, ctx.people)
    return (numeral_value(found) or 0) if found else 0


ACT_BEFORE_NUMBER = 3
"""How many characters before a quantity the asked act may stand (要卖三千贯, 一日能行八百里)."""


def quantity_after_act(ctx: Ctx, best: Sequence[tuple[float, str, str]]
                        ) -> tuple[str, tuple[str, str]] | None:
    """A quantity the asked act governs: a sentence where the question's verb, or the book's
    word for it, stands just before the number (开价 → 要卖三千贯), whatever else the sentence
    counts (the coins he cut, 二十文, are counted by another act)."""
    acts = bigrams(ctx.plan.focus) | book_words([to_simplified(ctx.plan.cleaned)],
                                                  ctx.book.profile.wordings)
    act = ctx.plan.detail.act
    if act:  # 卖了多少钱: the one-character verb, and the book's one-character words for it
        acts |= {act} | {f for f in ctx.book.profile.wordings.get(act, ()) if len(f) == 1}
    if not acts:
        return None
    for _, sentence, chunk_id in best:
        text = to_simplified(sentence)
        found = [m.group(0) for m in quantities_in(text, ctx.plan, ctx.people)
                 if any(a in text[max(0, m.start() - ACT_BEFORE_NUMBER - 2):m.start()]
                        for a in acts)]
        if found:  # 一日能行五百里…便一日能行八百里: every one the sentence gives
            return "、".join(dict.fromkeys(found)), (sentence, chunk_id)
    return None
