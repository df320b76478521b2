"""Which chapter? Questions such as 「某某倒拔垂杨柳是在第几回」 are answered from the chapter titles
(回目): the title sharing the most of the question's words, weighted by rarity, wins."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.text import to_simplified
from kb.knowledge.language import language
from retrieval.analyzers import clean_query, ngram_terms
from retrieval.bm25 import lucene_idf

MIN_SHARED = 2
"""A title must share at least this many bigrams with the question to be the answer."""
NAME_WEIGHT = 1
"""A title that names one of the question's people (by any of their forms) counts as one more
shared bigram."""


@dataclass(frozen=True)
class ChapterMatch:
    chapter: int
    title: str
    score: float


class ChapterTitles:
    def __init__(self, titles: Mapping[int, str]) -> None:
        self.titles = dict(titles)
        self._simplified = {n: to_simplified(title) for n, title in self.titles.items()}
        self._grams = {n: set(t for t in ngram_terms(text) if len(t) == 2)
                       for n, text in self._simplified.items()}
        df = Counter(g for grams in self._grams.values() for g in grams)
        n = max(1, len(self.titles))
        self._idf = {g: lucene_idf(c, n) for g, c in df.items()}

    def match(self, question: str, names: Sequence[str] = ()) -> ChapterMatch | None:
        """The chapter whose title best matches a which-chapter question (the plan decides that
        it is one: `Plan.asks == "chapter"`), else None. `names`: every form of the question's
        people — a title that calls them another way (a nickname) holds them too."""
        text = to_simplified(question)
        for word in language().words_of("asks_chapter"):
            text = text.replace(word, " ")
        asked = {g for g in ngram_terms(clean_query(text)) if len(g) == 2}
        forms = [to_simplified(n) for n in names if len(n) >= 2]
        best: ChapterMatch | None = None
        for number, grams in self._grams.items():
            shared = asked & grams
            named = next((f for f in forms if f in self._simplified[number]), None)
            if len(shared) + (NAME_WEIGHT if named else 0) < MIN_SHARED:
                continue
            score = sum(self._idf[g] for g in shared) + (NAME_WEIGHT if named else 0)
            if best is None or score > best.score:
                best = ChapterMatch(number, self.titles[number], score)
        return best
