"""How much of a question a sentence holds: the question's content words, weighted by IDF, and
the share of that weight a sentence contains. Used to pick quotes and to refuse an answer.

Content words are the question's bigrams that the novel uses (df ≥ `KNOWN_DF`), plus bigrams it
never uses whose characters no known bigram covers — modern words such as 水果 or 离婚, which an
answer cannot contain and so count against it. The seam between two words (婆离 in 老婆离婚) is
dropped: its characters already belong to known words, and so is a known bigram between two
commoner ones (哥报 in 哥哥报仇); the question is split at joining characters (替, 在, 从 …)
first; consecutive unseen bigrams are one unseen word (刀开价 weighs once, not twice). A
reader's word the corpus profile maps to the novel's wording (发配 → 刺配) is known, weighted by
its commonest wording. Names, question words and frame words (最后, 以后, 当时 …) are cut out
first."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from core.text import cjk_runs, to_simplified
from ingest.chunking import Block
from kb.answering.quotes import sentence_pairs
from kb.knowledge.language import language
from retrieval.analyzers import FUNCTION_CHARS, clean_query
from retrieval.bm25 import lucene_idf

KNOWN_DF = 2
UNSEEN_WEIGHT = 2.0
"""A word the novel never uses weighs this many times the rarest known word: it is usually what
the question is about (水果), and the text cannot hold it unless a curated wording does."""


def question_weights(question: str, names: Sequence[str], df: Callable[[str], int],
                     n_docs: int, wordings: Wordings | None = None) -> dict[str, float]:
    """Content term → IDF weight (rules in the module docstring)."""
    text = clean_query(question)
    lang = language()
    frame = lang.words_of("frame")
    for word in sorted([*map(to_simplified, names), *frame], key=len, reverse=True):
        text = text.replace(word, " ")
    weights: dict[str, float] = {}
    unseen = lucene_idf(1, n_docs) * UNSEEN_WEIGHT

    def known(bigram: str) -> int:
        count = df(bigram)
        if count < KNOWN_DF and wordings:
            count = max([count, *(df(f) for f in _forms(bigram, wordings)[1:] if f)])
        return count

    text = "".join(" " if ch in lang.chars.focus_breaks else ch for ch in text)
    for run in cjk_runs(text):
        bigrams = [run[i:i + 2] for i in range(len(run) - 1)]
        counts = [known(b) for b in bigrams]
        counts = _without_seams(counts)
        covered = {j for i, c in enumerate(counts) if c >= KNOWN_DF for j in (i, i + 1)}
        word, last = "", -2
        for i, (bigram, count) in enumerate(zip(bigrams, counts, strict=True)):
            unseen_here = (not set(bigram) <= FUNCTION_CHARS and count < KNOWN_DF
                           and i not in covered and i + 1 not in covered)
            if unseen_here:
                word = word + bigram[-1] if last == i - 1 else bigram
                last = i
                continue
            if word:
                weights[word] = unseen
                word = ""
            if count >= KNOWN_DF and not set(bigram) <= FUNCTION_CHARS:
                weights[bigram] = lucene_idf(count, n_docs)
        if word:
            weights[word] = unseen
    return weights


def character_weights(question: str, names: Sequence[str]) -> dict[str, float]:
    """The question's content characters, alike, for a question whose content is single
    characters once names and asking words are cut (甲葬在哪里)."""
    text = clean_query(question)
    for word in sorted([*map(to_simplified, names), *language().words_of("frame")], key=len,
                       reverse=True):
        text = text.replace(word, " ")
    return {ch: 1.0 for run in cjk_runs(text) for ch in run if ch not in FUNCTION_CHARS}


def unseen_terms(weights: Mapping[str, float], n_docs: int) -> set[str]:
    """The question's words the novel never uses (`UNSEEN_WEIGHT`): a reader's paraphrase (搭车 for
    同载) or a thing the book has not (水果)."""
    unseen = lucene_idf(1, n_docs) * UNSEEN_WEIGHT
    return {t for t, w in weights.items() if w >= unseen - 1e-9}


def _without_seams(counts: Sequence[int]) -> list[int]:
    """A known bigram between two commoner known bigrams is the seam of two words (哥报 in
    哥哥报仇): its count is zeroed, so it neither weighs nor covers."""
    out = list(counts)
    for i in range(1, len(counts) - 1):
        if KNOWN_DF <= counts[i] < min(counts[i - 1], counts[i + 1]):
            out[i] = 0
    return out


Wordings = Mapping[str, Sequence[str]]




def _forms(term: str, wordings: Wordings) -> tuple[str, ...]:
    """The term; the novel's wordings (the corpus profile's map) of a reader's word that holds
    the term or that the term holds (刀开价 holds 开价 → 要卖: the question's words are cut without
    a dictionary, so a reader's word often comes glued to its neighbour); for a verb with a
    result complement or an adverb glued before it, the verb alone."""
    chars = language().chars
    complements = chars.result_complements  # 捉住, 找到: the book writes 活捉
    bare = (term[0],) if len(term) == 2 and term[1] in complements else \
        (term[1],) if len(term) == 2 and term[0] in chars.lead_adverbs \
        and term[1] not in FUNCTION_CHARS else ()  # 先躲: 躲 (先去: 去 would match any line)
    return (term, *(w for key, words in wordings.items()
                    if term in key or len(key) >= 2 and key in term for w in words), *bare)


SPLIT_GAP = 4
CLAUSE_ENDS = "，。；！？、：「」"
"""A two-character word of the question is held split within a clause by up to `SPLIT_GAP`
characters: a verb and its object with words between (买刀 in 买了这口好刀, 上山 in 上了山)."""


class Coverage:
    """`coverage` for one question's weights, prepared once: the answer step scores hundreds of
    records and sentences against the same weights (a hub character's timeline)."""

    def __init__(self, weights: Mapping[str, float],
                 forms: Mapping[str, tuple[str, ...]] | None = None,
                 words: Sequence[str] = ()) -> None:
        """`words`: the question's own two-character words (the plan's focus words), which may
        stand split in the book; a bigram cut from a longer run (上那 of 脸上那块) may not."""
        self.total = sum(weights.values())
        self.items = [((forms or {}).get(t, (t,)), w) for t, w in weights.items()]
        self.split = {w: re.compile(f"{re.escape(w[0])}[^{CLAUSE_ENDS}]{{1,{SPLIT_GAP}}}"
                                    f"{re.escape(w[1])}")
                      for w in words if len(w) == 2 and w in weights}

    def __call__(self, simplified_sentence: str) -> float:
        if not self.total:
            return 0.0
        held = 0.0
        for forms, weight in self.items:
            for form in forms:
                if form in simplified_sentence or (
                        form in self.split and self.split[form].search(simplified_sentence)):
                    held += weight
                    break
        return held / self.total


def coverage(simplified_sentence: str, weights: Mapping[str, float],
             forms: Mapping[str, tuple[str, ...]] | None = None) -> float:
    """Share of the weight whose terms the (simplified) sentence holds. A bigram is held when it is
    a substring: punctuation is never inside a bigram, so this equals n-gram membership."""
    return Coverage(weights, forms)(simplified_sentence)


WINDOW = 3
"""A reader's paraphrase spreads what one sentence of the question says over a few sentences of
the book (半路上让一个妇人搭车: 见一妇人 … 来求同载 … 让车与妇人): whether the evidence holds the
question is read over this many consecutive sentences of a block, not one."""


def best_window(packed: Sequence[str], block_of: Callable[[str], Block | None],
                weights: Mapping[str, float], wordings: Wordings, span: int = WINDOW) -> float:
    """The most of the question's weight that `span` consecutive sentences of one packed block
    hold (`WINDOW`)."""
    covered = Coverage(weights, {t: _forms(t, wordings) for t in weights})
    best = 0.0
    for chunk_id in packed:
        block = block_of(chunk_id)
        simplified = [s for _, s in sentence_pairs(block.text)] if block else []
        for i in range(len(simplified)):
            best = max(best, covered("\n".join(simplified[i:i + span])))
    return best


def best_sentences(packed: Sequence[str], block_of: Callable[[str], Block | None],
                   weights: Mapping[str, float], wordings: Wordings, limit: int = 3
                   ) -> list[tuple[float, str, str]]:
    """(coverage, sentence, chunk id) over the packed blocks' sentences, best first (ties: the
    better-ranked block)."""
    covered = Coverage(weights, {t: _forms(t, wordings) for t in weights})
    scored = []
    for rank, chunk_id in enumerate(packed):
        block = block_of(chunk_id)
        for written, simplified in sentence_pairs(block.text) if block else ():
            scored.append((covered(simplified), -rank, written, chunk_id))
    scored.sort(reverse=True)
    return [(c, s, cid) for c, _, s, cid in scored[:limit]]
