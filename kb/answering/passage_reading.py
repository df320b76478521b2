"""Reading the asked slot from the passages themselves, for a book whose records are thin (built
from its text alone: events from the 回目, relations from cues, fates). The records of such a book
rarely hold who gave a horse, where someone died or how many times something was done; the
retrieved sentences do. A sentence is read first when it holds the question's content words
(IDF-weighted coverage, its neighbours counting half), stands in a passage of the question's
people, and holds the cue of the slot asked (the language's `reading` families: a place marker
for where, a number for how many, an arm for a weapon, a death word for a death, another person
for who)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.text import normalize, to_simplified
from kb.answering.coverage import Coverage, _forms
from kb.answering.drafting import Ctx
from kb.answering.dying import dies_in, kill_words, said
from kb.answering.passage_words import book_wordings, never_written, reading_weights
from kb.answering.quotes import normalized_block, sentence_pairs
from kb.answering.record_search import participants
from kb.answering.short_names import people_in
from kb.answering.wording import fold_colloquial, has_any
from kb.knowledge.genre import genre, is_death
from kb.knowledge.language import language

READ_BLOCKS = 40
"""The blocks read: the packed ones, then the lexical ranking's best up to this many."""
NEIGHBOUR_SHARE = 0.5
MIN_WORDS = 0.2
"""A sentence is read only when it and its neighbours hold this much of the question's words
(its own share plus half its window's): a cue word and a name are in half the book."""
CUE_BONUS = 0.5
PERSON_BONUS = 0.3
OTHER_PERSON_BONUS = 0.3
DEATH_SPAN = 1
LAST_SCENES = 6
"""Of a question about how someone died, the blocks of their last this many scenes are read too."""
DEATH_BONUS = 0.3
TOLD_DEATH = 0.6
"""A sentence that tells the asked person's death (`kb.answering.dying`) answers how they died
even when it holds none of the question's other words."""
SAID_SHARE = 0.5
"""Of that, a death someone reports in speech (乙曰：「甲已亡」) counts half: the narrative tells
how it happened."""
WINDOW_ASKS = ("why",)
"""Asks whose family's cue may stand in the sentence before or after the one holding the question's
words: a cause is told around the act (因此 in the next sentence, 想起 … 恩义 in the one before),
a place or a count in the act's own sentence."""
CHUNK_NUMBER = re.compile(r"(\d+)$")
DEATH_ASKS = ("how", "where", "when", "what")
"""Asks about one person's death that only a sentence telling that death answers (who killed
them is told beside it too: 乙杀甲 holds no death word)."""
NAMES_CHECKED = 40
"""Only the best sentences by words and cues are searched for other people's names (cost)."""


@dataclass(frozen=True)
class Reading:
    score: float
    sentence: str
    """As written, so the quote is verbatim."""
    chunk_id: str
    following: str
    """The next sentence of the block ('' at its end): a cause or a count is often told there."""
    preceding: str = ""
    """The sentence before, when it holds the cue of a cause (`WINDOW_ASKS`): 想起当日恩义
    is told before the act it explains."""
    preceding_chunk: str = ""
    """The block of `preceding` (the block before, when the sentence opens its block)."""


def read_blocks(ctx: Ctx, dying: bool, whose: str | None = None) -> tuple[list[str], set[str]]:
    """The packed blocks, the passage of the death of the question's people when it asks about
    a death, an age or last wishes (the records tell where the death is, not what it says), then
    the best-ranked others, up to `READ_BLOCKS` of these; and the death passage's blocks. Of a
    question about how one person died (`whose`), the blocks of their last scenes too: a book's
    records may miss the death, and it is told where their story ends."""
    death: list[str] = []
    if dying:
        for timeline in ctx.g.timelines.values():
            for state in timeline.states:
                if is_death(state) and participants(state) & set(ctx.plan.person_ids):
                    death += [n for ref in state.sources if ref.chunk_id
                              for n in neighbour_ids(ref.chunk_id, DEATH_SPAN)]
    last: list[str] = []
    own = ctx.g.timelines.get(whose) if whose else None
    if own is not None:
        last = [n for event in own.events[-LAST_SCENES:] for ref in event.sources
                if ref.chunk_id for n in neighbour_ids(ref.chunk_id, DEATH_SPAN)]
    return list(dict.fromkeys([*ctx.g.packed, *death, *ranked_blocks(ctx), *last])), set(death)


def ranked_blocks(ctx: Ctx) -> list[str]:
    """The packed blocks, then the lexical ranking's best, `READ_BLOCKS` in all."""
    return list(dict.fromkeys([*ctx.g.packed, *ctx.g.ranking]))[:READ_BLOCKS]


def neighbour_ids(chunk_id: str, span: int) -> list[str]:
    """The block and those up to `span` before and after it in its chapter (ids end in their
    number; a missing one is skipped by the reader)."""
    match = CHUNK_NUMBER.search(chunk_id)
    if not match:
        return [chunk_id]
    n, width = int(match.group(1)), len(match.group(1))
    head = chunk_id[:match.start(1)]
    return [f"{head}{i:0{width}d}" for i in range(max(0, n - span), n + span + 1)]


def called_families(ctx: Ctx) -> list[str]:
    """The families the question calls: by the slot it asks, or by holding one of their words."""
    plan, words = ctx.plan, language().reading
    asked = to_simplified(plan.question)
    called = {name for name, cues in words.families.items() if any(c in asked for c in cues)}
    if plan.detail.weapon:
        called.add(words.asks["weapon"])
    if plan.asks in words.asks and not called - set(words.asked_only):
        called.add(words.asks[plan.asks])  # 多大岁数 is an age, not a count of times
    return sorted(called)


def unexplained(ctx: Ctx, weights: Mapping[str, float]) -> list[str]:
    """The question's words the novel never writes (`passage_words.never_written`) that no
    called family explains (岁数 holds the age family's 岁): what the question is about is not in
    the book (私塾, 背叛), so no sentence of it answers."""
    cues = [c for family in cues_of(ctx) for c in family]
    return [t for t in never_written(ctx, weights) if not any(c in t for c in cues)]


def _cue_names(ctx: Ctx) -> list[str]:
    """The names of the families `cues_of` gives, in its order (then the arms and numerals)."""
    words = language().reading
    return [name for name in called_families(ctx) if name not in words.asked_only]


def cues_of(ctx: Ctx) -> list[tuple[str, ...]]:
    """The cue words of every family the question calls (module docstring)."""
    words = language().reading
    asked = words.asks.get(ctx.plan.asks)
    cues = [(*words.families[name], *(words.slot_cues.get(name, ()) if name == asked else ()))
            for name in _cue_names(ctx)]
    chars, plan = language().chars, ctx.plan
    if plan.detail.weapon:
        cues.append(tuple(chars.arms))
    if plan.asks == "how_many":
        cues.append(tuple(chars.numeral))
    return cues


def readings(ctx: Ctx) -> list[Reading]:
    """Every sentence of the read blocks that stands among the question's people, best first.
    The chapter's title counts with a sentence's neighbours: readers name a scene by its 回目
    (水淹七军, 单刀赴会), which its sentences seldom repeat; only of a question about people
    (without them, every sentence of the chapter would hold the scene)."""
    cues = cues_of(ctx)
    weights = reading_weights(ctx)
    if unexplained(ctx, weights):
        return []
    # the never-written words left hold a cue (岁数 holds 岁): they name the slot, no sentence does
    weights = {t: w for t, w in weights.items() if t not in never_written(ctx, weights)}
    wordings = book_wordings(ctx)
    covered = Coverage(weights, {t: _forms(t, wordings) for t in weights},
                       ctx.plan.focus)
    names = [k for k in {normalize(n) for n in ctx.all_names} if len(k) >= 2]
    dead = _asks_death(ctx, weights, wordings)
    dying = dead or bool(set(called_families(ctx)) & set(language().reading.dying))
    scored: list[tuple[float, int, Reading]] = []
    spread = {language().reading.asks.get(a) for a in WINDOW_ASKS}
    window = [cues[i] for i, name in enumerate(_cue_names(ctx)) if name in spread]
    whose = death_subject(ctx, dead)
    blocks, death = read_blocks(ctx, dying, whose)
    for rank, chunk_id in enumerate(blocks):
        block = ctx.block_of(chunk_id)
        if block is None or not (chunk_id in death or _among_people(ctx, chunk_id, names)):
            continue
        at_death = DEATH_BONUS if chunk_id in death else 0.0
        pairs = sentence_pairs(block.text)
        scene = to_simplified(ctx.book.titles.titles.get(block.chapter, "")) if names else ""
        alone, told, before = _deaths_told(ctx, whose, chunk_id, [w for w, _ in pairs])
        for i, (written, simple) in enumerate(pairs):
            near = " ".join([*(s for _, s in pairs[max(0, i - 1):i + 2]), scene])
            dies = told[i]
            if whose and not any(told[max(0, i - 1):i + 2]):
                continue  # around another's death, or none: the asked death is told here or beside
            held_words = covered(simple) + NEIGHBOUR_SHARE * covered(near)
            if weights and held_words < MIN_WORDS and not dies:
                continue  # the cue and the people alone: a sentence of another story
            death_bonus = TOLD_DEATH * (SAID_SHARE if said(written) else 1.0) if dies else 0.0
            score = held_words + at_death + death_bonus
            held = sum(any(c in (near if family in window else simple) for c in family)
                       for family in cues)
            if cues and not held and not dies:
                continue  # the slot asked is not in it: a sentence of the same words elsewhere
            score += CUE_BONUS * held
            if dead and genre().death_words.search(simple):
                score += CUE_BONUS
            if any(k in normalize(simple) for k in names):
                score += PERSON_BONUS
            following = pairs[i + 1][0] if i + 1 < len(pairs) else ""
            preceding = pairs[i - 1][0] if i and window and not any(
                c in simple for family in window for c in family) else ""
            preceding_chunk = chunk_id
            if dies and not alone[i]:  # 言讫而亡: who died, and their last words, stand before
                preceding, preceding_chunk = before[i]
            scored.append((score, -rank, Reading(score, written, chunk_id, following, preceding,
                                                 preceding_chunk)))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    best = [r for _, _, r in scored[:NAMES_CHECKED]]
    return _others_first(ctx, best) if ctx.plan.asks == "who" else best


def death_subject(ctx: Ctx, dead: bool | None = None) -> str | None:
    """The one person whose death the question asks how, where or when (`DEATH_ASKS`), or who
    killed them (被谁杀), or None."""
    people = set(ctx.plan.person_ids)
    lang = language()
    asked = fold_colloquial(to_simplified(ctx.plan.question))
    killed = ctx.plan.asks == "who" and ctx.plan.detail.passive and has_any(asked, kill_words())
    if len(people) != 1 or (ctx.plan.asks not in DEATH_ASKS and not killed):
        return None  # (甲被谁杀了 asks the one named in the sentence that tells his death)
    if set(called_families(ctx)) & set(lang.reading.dying) or \
            has_any(asked, (*lang.words_of("deeds"), *lang.words_of("journey_strong"))):
        return None  # 临死前说了什么, 从起兵到死做了什么, 一生…: about a life or its last hours
    if dead is None:
        dead = _asks_death(ctx, reading_weights(ctx), book_wordings(ctx))
    return next(iter(people)) if dead or killed else None


def _asks_death(ctx: Ctx, weights: Mapping[str, float],
                wordings: Mapping[str, Sequence[str]]) -> bool:
    """The question asks about a death: it writes 死, or one of its words is the book's 死 in a
    reader's wording (去世 → 死, language `wordings`)."""
    dead = language().chars.dead
    texts = [to_simplified(ctx.plan.question),
             *(f for t in weights for f in _forms(t, wordings))]
    return any(ch in text for text in texts for ch in dead)


def _deaths_told(ctx: Ctx, whose: str | None, chunk_id: str, sentences: Sequence[str]
                 ) -> tuple[list[bool], list[bool], list[tuple[str, str]]]:
    """Of each sentence of a block: does it tell `whose`'s death by itself, does it with the
    sentence before it (言讫而亡), and that sentence with its block."""
    if not whose:
        return [False] * len(sentences), [False] * len(sentences), []
    before = [(sentences[i - 1], chunk_id) if i else _last_sentence(ctx, chunk_id)
              for i in range(len(sentences))]
    alone = [dies_in(w, whose, ctx.people) for w in sentences]
    told = [a or dies_in(w, whose, ctx.people, before[i][0])
            for i, (a, w) in enumerate(zip(alone, sentences, strict=True))]
    return alone, told, before


def _last_sentence(ctx: Ctx, chunk_id: str) -> tuple[str, str]:
    """The last sentence of the block before, and that block (a block may begin on 言讫而亡)."""
    before = neighbour_ids(chunk_id, 1)[0]
    block = ctx.block_of(before) if before != chunk_id else None
    pairs = sentence_pairs(block.text) if block is not None else []
    return (pairs[-1][0], before) if pairs else ("", chunk_id)


def _among_people(ctx: Ctx, chunk_id: str, names: Sequence[str]) -> bool:
    """The block, or the one before it, names one of the question's people (a scene goes on by
    a single character of the name: 布, 飞)."""
    if not names:
        return True
    for near in neighbour_ids(chunk_id, 1)[:2]:
        block = ctx.block_of(near)
        if block is not None and any(k in normalized_block(block.text) for k in names):
            return True
    return False


def _others_first(ctx: Ctx, best: Sequence[Reading]) -> list[Reading]:
    """For a who question: a sentence naming someone besides the question's people gains, by
    the full name or by the given name alone once its block names them in full (`short_names`)."""
    own = {*ctx.plan.person_ids, *(pid for pid, _ in ctx.plan.named)}  # 丁原 of 杀了丁原投奔了谁
    rescored = []
    for r in best:
        block = ctx.block_of(r.chunk_id)  # 恢曰 once 李恢 is named
        others = {pid for _, pid in people_in(r.sentence, block.text if block else None,
                                              ctx.people)} - own
        bonus = OTHER_PERSON_BONUS if others else 0.0
        rescored.append(Reading(r.score + bonus, r.sentence, r.chunk_id, r.following,
                                r.preceding, r.preceding_chunk))
    return sorted(rescored, key=lambda r: r.score, reverse=True)
