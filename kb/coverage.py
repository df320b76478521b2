"""How much of a question a sentence holds: the question's content words, weighted by IDF, and
the share of that weight a sentence contains. Used to pick quotes and to refuse an answer.

Content words are the question's bigrams that the novel uses (df ≥ `KNOWN_DF`), plus bigrams it
never uses whose characters no known bigram covers — modern words such as 水果 or 离婚, which an
answer cannot contain and so count against it. The seam between two words (婆离 in 老婆离婚) is
dropped: its characters already belong to known words. Names, question words and frame words
(最后, 以后, 当时 …) are cut out first."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ingest.chunking import Block
from ingest.normalize import cjk_runs, to_simplified
from kb.expansion import WORDINGS
from kb.quotes import sentences
from retrieval.analyzers import FUNCTION_CHARS, clean_query, ngram_terms
from retrieval.bm25 import lucene_idf

KNOWN_DF = 2
UNSEEN_WEIGHT = 2.0
"""A word the novel never uses weighs this many times the rarest known word: it is usually what
the question is about (水果), and the text cannot hold it unless a curated wording does."""
FRAME_WORDS = ("最后", "以后", "之后", "后来", "时候", "当时", "一次", "第一次", "到底", "为啥",
               "一共", "大概", "差点", "中间", "一直", "这个", "那个", "这几回", "这几", "一下",
               "哪些", "哪去", "到哪", "去哪", "那会儿", "是不是", "原来", "先后", "怎么了")


def question_weights(question: str, names: Sequence[str], df: Callable[[str], int],
                     n_docs: int) -> dict[str, float]:
    """Content bigram → IDF weight (rules in the module docstring)."""
    text = clean_query(question)
    for word in sorted([*map(to_simplified, names), *FRAME_WORDS], key=len, reverse=True):
        text = text.replace(word, " ")
    weights: dict[str, float] = {}
    unseen = lucene_idf(1, n_docs) * UNSEEN_WEIGHT
    for run in cjk_runs(text):
        bigrams = [run[i:i + 2] for i in range(len(run) - 1)]
        counts = [df(b) for b in bigrams]
        covered = {j for i, c in enumerate(counts) if c >= KNOWN_DF for j in (i, i + 1)}
        for i, (bigram, count) in enumerate(zip(bigrams, counts, strict=True)):
            if set(bigram) <= FUNCTION_CHARS:
                continue
            if count >= KNOWN_DF:
                weights[bigram] = lucene_idf(count, n_docs)
            elif i not in covered and i + 1 not in covered:
                weights[bigram] = unseen
    return weights


def _holds(term: str, text: str, grams: set[str]) -> bool:
    """A term is held as written, or (for a reader's word) in one of the novel's wordings."""
    return term in grams or any(w in text for key, ws in WORDINGS.items() if term in key for w in ws)


def coverage(sentence: str, weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    if not total:
        return 0.0
    text = to_simplified(sentence)
    grams = set(ngram_terms(text))
    return sum(w for t, w in weights.items() if _holds(t, text, grams)) / total


def best_sentences(packed: Sequence[str], block_of: Callable[[str], Block | None],
                   weights: Mapping[str, float], limit: int = 3) -> list[tuple[float, str, str]]:
    """(coverage, sentence, chunk id) over the packed blocks' sentences, best first (ties: the
    better-ranked block)."""
    scored = []
    for rank, chunk_id in enumerate(packed):
        block = block_of(chunk_id)
        for sentence in sentences(block.text) if block else []:
            scored.append((coverage(sentence, weights), -rank, sentence, chunk_id))
    scored.sort(reverse=True)
    return [(c, s, cid) for c, _, s, cid in scored[:limit]]
