"""The two analyzers: character bigrams+trigrams, and single characters minus function characters.

Both read CJK runs of the simplified text, so no term spans punctuation. Queries go through the
same analyzers after their question words are cut out (`clean_query`).
"""

from __future__ import annotations

from collections.abc import Callable

from core.text import cjk_runs, to_simplified

FUNCTION_CHARS = frozenset(
    "的了是也之着在不有这那个来去道便又都把与和却只他你我们得说一将么里时被就要见而其于以乃矣"
    "哉乎焉者曰吧吗呢啊呀此则亦已"
)
"""Characters frequent enough in the novel (or in questions) to carry no evidence on their own:
particles, pronouns, copulas and 道 ("said", on almost every page). Removed from the unigram
channel only; the n-gram channel keeps them inside its bigrams and trigrams."""

QUESTION_WORDS = (
    "为什么", "是什么", "什么样", "怎么样", "怎么会", "怎么", "什么", "如何", "怎样", "为何",
    "哪里", "哪儿", "哪个", "哪些", "哪位", "是谁", "有谁", "谁", "多少", "几个", "是否", "有没有",
    "请问", "一下", "是不是", "了吗", "吗", "呢", "吧", "呀", "啊", "之间", "有哪些", "发生了",
    "经过", "过程", "讲讲", "说说", "介绍", "告诉我", "哪一天", "哪天", "哪年", "什么时候",
    "几时", "多长", "多重", "多高", "多远", "多久", "为甚么", "甚么", "什么东西", "甚么东西",
    "到哪里", "去哪里", "在哪里", "到哪儿", "去哪儿", "在哪儿",
)
"""Words of asking, not of the story; longest first so 为什么 is cut before 什么. 甚么 is how
the traditional text (and its readers) spell 什么. The place questions keep their preposition:
cut as 哪里 alone, 刺配到哪里 would leave 配到, a bigram of many another sentence."""

_QUESTION_WORDS_SORTED = tuple(sorted(QUESTION_WORDS, key=len, reverse=True))

QUERY_BREAKS = "的了是与跟被把给对"
"""Particles and prepositions that join a question's words without being part of them: the query
is split there, so 甲是 or 识的 (甲 a name) do not become n-gram terms (blocks keep every n-gram)."""
_BREAK_TABLE = str.maketrans({ch: " " for ch in QUERY_BREAKS})


def clean_query(question: str) -> str:
    """The simplified question with its question words replaced by breaks (a space)."""
    text = to_simplified(question)
    for word in _QUESTION_WORDS_SORTED:
        text = text.replace(word, " ")
    return text.translate(_BREAK_TABLE)


def ngram_terms(text: str) -> list[str]:
    """Bigrams and trigrams of each CJK run of `text` (already simplified); a 1-char run gives none."""
    terms: list[str] = []
    for run in cjk_runs(text):
        terms.extend(run[i : i + 2] for i in range(len(run) - 1))
        terms.extend(run[i : i + 3] for i in range(len(run) - 2))
    return terms


def unigram_terms(text: str) -> list[str]:
    """Each CJK character of `text` (already simplified), function characters removed."""
    return [ch for run in cjk_runs(text) for ch in run if ch not in FUNCTION_CHARS]


Analyzer = Callable[[str], list[str]]
ANALYZERS: dict[str, Analyzer] = {"ngram": ngram_terms, "unigram": unigram_terms}
"""Channel name → analyzer; the order is the order channels appear in traces."""

_FUNCTION_CODES = frozenset(ord(ch) for ch in FUNCTION_CHARS)


def ngram_codes(text: str) -> list[int]:
    """`ngram_terms` as term codes (`retrieval.bm25.term_code`: 16 bits a character), made from
    the code points directly: a query's terms are wanted as codes, and coding each string costs
    more than the analysis itself."""
    codes: list[int] = []
    for run in cjk_runs(text):
        points = [ord(ch) for ch in run]
        codes.extend([(a << 16) | b for a, b in zip(points, points[1:], strict=False)])
        codes.extend([(a << 32) | (b << 16) | c
                      for a, b, c in zip(points, points[1:], points[2:], strict=False)])
    return codes


def unigram_codes(text: str) -> list[int]:
    """`unigram_terms` as term codes (a character's code is its code point)."""
    return [point for run in cjk_runs(text) for point in map(ord, run)
            if point not in _FUNCTION_CODES]


CodeAnalyzer = Callable[[str], list[int]]
CODE_ANALYZERS: dict[str, CodeAnalyzer] = {"ngram": ngram_codes, "unigram": unigram_codes}
"""Channel name → the analyzer giving term codes (same channels, same order as `ANALYZERS`)."""
