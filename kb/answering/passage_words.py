"""The question's content words as the passage reader weighs them, and those the novel never
writes. The plan's cleaned question is one run with its punctuation gone, so two words on either
side of a comma glue into a bigram no sentence holds (掉了，他 → 掉他), and its asking words are cut
before its longer asking phrases (怎么回事 loses 怎么 and leaves 回事). Here each clause is
weighed on its own, every asking, frame and moment phrase of two characters or more is cut
first, longest first, and 哪 with a measure word after it (哪条河, 哪座城) is asking too: none of
these is what the story tells."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from core.text import to_simplified
from kb.answering.coverage import UNSEEN_WEIGHT, _forms, character_weights, question_weights
from kb.answering.drafting import CHARACTER_ASKS_NOT, Ctx
from kb.answering.wording import asked_form, not_content, strip_words
from kb.knowledge.language import Role, language
from retrieval.analyzers import FUNCTION_CHARS
from retrieval.bm25 import lucene_idf

CLAUSE_MARKS = re.compile(r"[，。？！；：、,.?!;:“”‘’「」『』《》（）()\s]+")
WHICH = "哪"
"""哪 before a measure word asks which one (哪条河 asks the river's name)."""
ASKING_ROLES: tuple[Role, ...] = (
    "asks_who", "asks_where", "asks_why", "asks_when", "asks_whether", "asks_chapter")
ASKED_CLAUSE = 1.5
"""The weight of the words of the clause that asks, over the setting clauses' (the setting is
told in many sentences; the asked act in the one that answers)."""
SETTING_ASKS = frozenset({"who", "where"})
"""Asks whose first clauses set the scene (甲去打乙，是谁…); a chapter or a time asked of a
scene (甲三顾茅庐，第几回见到乙) is asked of the first clause as much."""


def clauses(question: str, slot: Sequence[str] = ()) -> list[str]:
    """The question's clauses, each with its asking and frame phrases cut (module docstring),
    and the words that only name the asked slot (`slot_words`)."""
    return [text for text, _ in asking_clauses(question, slot)]


def asking_clauses(question: str, slot: Sequence[str] = ()) -> list[tuple[str, bool]]:
    """`clauses`, each with whether it held an asking word (是谁, 哪里, 为什么 …): of 甲去打乙，
    是谁射死了乙, the second clause is the thing asked, the first its setting."""
    lang = language()
    units = re.escape(lang.chars.units)
    which = re.compile(f"{WHICH}一?[{units}]")
    cut = [w for w in (*not_content(), *lang.measures, *slot) if len(w) >= 2]
    asking = [w for role in ASKING_ROLES for w in lang.words_of(role)]
    out = []
    for part in CLAUSE_MARKS.split(to_simplified(question)):
        text = which.sub(" ", asked_form(part)) if part else ""
        text = strip_words(text, cut).strip()
        if text:
            out.append((text, any(w in part for w in asking) or WHICH in part))
    return out


def book_wordings(ctx: Ctx) -> dict[str, tuple[str, ...]]:
    """The book's wordings of a reader's words, and the old text's that only the passage reader
    looks for (the language's `reading.book_wordings`: 抓住 → 获), joined."""
    extra = language().reading.book_wordings
    wordings = ctx.book.profile.wordings
    return {**wordings, **{k: tuple(dict.fromkeys([*wordings.get(k, ()), *v]))
                           for k, v in extra.items()}}


def slot_words(ctx: Ctx) -> tuple[str, ...]:
    """Words that name the slot asked, not the story: 兵器 of a weapon question, 什么地方 and
    哪座 of a where question. A sentence answering holds the arm or the place, not these."""
    lang = language()
    words = [*lang.words_of("asks_where")] if ctx.plan.asks == "where" else []
    if ctx.plan.detail.weapon:
        words += lang.words_of("weapon")
    return tuple(words)


def reading_weights(ctx: Ctx) -> dict[str, float]:
    """Content term → weight, clause by clause (`coverage.question_weights` on each); the
    plan's focus words weighed when the clauses leave none (在哪里打的虎 → 打虎)."""
    names = [*ctx.all_names, *ctx.plan.names]
    df, n_docs = ctx.passages.document_frequency, ctx.passages.n_docs
    wordings = book_wordings(ctx)
    slot = slot_words(ctx)
    weights: dict[str, float] = {}
    parts = asking_clauses(ctx.plan.question, slot)
    setting = ctx.plan.asks in SETTING_ASKS and len(parts) > 1 and sum(a for _, a in parts) == 1
    for clause, asks in parts:
        gain = ASKED_CLAUSE if setting and asks else 1.0
        for term, weight in question_weights(clause, names, df, n_docs, wordings).items():
            weights[term] = max(weight * gain, weights.get(term, 0.0))
    if not weights:
        for clause in clauses(" ".join(ctx.plan.focus), slot):
            weights.update(question_weights(clause, names, df, n_docs, wordings))
    if not weights and len(set(ctx.plan.person_ids)) == 1 and \
            ctx.plan.asks not in CHARACTER_ASKS_NOT:
        weights = character_weights(ctx.plan.cleaned, names)  # 甲葬在哪里: 葬
    return weights


def never_written(ctx: Ctx, weights: Mapping[str, float]) -> list[str]:
    """The weighed words (those weighed as unseen: too rare to count as known) that the novel
    writes nowhere, neither as themselves nor in a wording the language or the book gives
    them (尸体 → 尸首). A word written in one block (淯水) is the book's, however rare; the
    function characters at a word's edges are the seam of the question's words, not the word."""
    unseen = lucene_idf(1, ctx.passages.n_docs) * UNSEEN_WEIGHT
    df, wordings = ctx.passages.document_frequency, book_wordings(ctx)

    def written(form: str) -> bool:
        """A one-character wording is the language's word for it; the index holds bigrams and
        trigrams only, so a longer form is written when each of its bigrams is."""
        if len(form) == 1:
            return True
        return df(form) > 0 if len(form) <= 3 else all(
            df(form[i:i + 2]) > 0 for i in range(len(form) - 1))

    def told(term: str) -> bool:  # 要背叛 is 背叛; 又认 is a particle glued to a verb, no word
        core = term.strip("".join(FUNCTION_CHARS))
        return len(core) < 2 or any(written(f) for t in {term, core} for f in _forms(t, wordings))

    return [t for t, w in weights.items() if w >= unseen - 1e-9 and not told(t)]
