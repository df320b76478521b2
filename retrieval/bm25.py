"""Okapi BM25, Lucene variant, over a compact inverted index, with per-term score explanations.

Scoring (Lucene `BM25Similarity`; Robertson & Zaragoza 2009, "The Probabilistic Relevance
Framework: BM25 and Beyond"):

    idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
    score(t, d) = idf(t) · tf(t,d) / (tf(t,d) + k1 · (1 − b + b · |d| / avgdl))
    score(q, d) = Σ over distinct terms t of q present in d of score(t, d)

As in Lucene ≥ 8 (and bm25s' "lucene" method), the constant factor (k1 + 1) of the classic Okapi
numerator is left out: it scales every score alike and changes no ranking. Each distinct query
term counts once. Terms are 1–3 character strings packed into one integer
(`term_code`), postings are stored CSR-style (term → slice of documents), and each posting's
contribution is precomputed at build time, so a query is one gather and one `bincount`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from retrieval.explanation import Explanation
from retrieval.topk import top_among

K1 = 1.2
B = 0.75

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def lucene_idf(df: int, n_docs: int) -> float:
    """idf = ln(1 + (N − df + 0.5) / (df + 0.5)); always positive, unlike classic Robertson idf."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def term_score(tf: float, df: int, n_docs: int, doc_len: float, avgdl: float,
               k1: float = K1, b: float = B) -> float:
    """One term's BM25 contribution to one document (the formula in the module docstring)."""
    if tf <= 0:
        return 0.0
    norm = k1 * (1.0 - b + b * doc_len / avgdl)
    return lucene_idf(df, n_docs) * tf / (tf + norm)


def _indexable(term: str) -> bool:
    return 1 <= len(term) <= 3 and all(ord(ch) <= 0xFFFF for ch in term)


def term_code(term: str) -> int:
    """Pack a term of 1–3 BMP characters into one integer (16 bits a character).

    Codes of different lengths never collide because every CJK character is ≥ 0x3400.
    """
    if not _indexable(term):
        raise ValueError(f"term must be 1-3 BMP characters: {term!r}")
    code = 0
    for ch in term:
        code = (code << 16) | ord(ch)
    return code


def code_term(code: int) -> str:
    chars = []
    while code:
        chars.append(chr(code & 0xFFFF))
        code >>= 16
    return "".join(reversed(chars))


def top_of_scores(scores: FloatArray, term_docs: Sequence[npt.NDArray[np.integer[Any]]],
                  depth: int) -> tuple[IntArray, FloatArray]:
    """The best `depth` documents of a query (`scores` of every document, `term_docs` the
    documents of each query term), best first, ties by position.

    Listing every matched document (a scan of the whole score vector) and choosing among
    them cost twice the scoring. Instead a floor is set first: all the documents of one query
    term are matched, so when that term has at least `depth` of them, the depth-th best score
    among them is reached by at least `depth` documents, and the depth-th best overall is no
    lower. Only the documents at or above the floor are listed and ordered
    (`retrieval.topk.top_among`); the term taken is the rarest with enough documents, whose
    documents tend to be the best. The result is exactly that of ordering every score."""
    enough = [d for d in term_docs if len(d) >= depth]
    if enough:
        rarest = min(enough, key=len)
        among = scores[rarest]
        floor = np.partition(among, len(among) - depth)[len(among) - depth]
        docs = np.flatnonzero(scores >= floor)
    else:  # no term alone reaches the depth: every matched document is a candidate
        docs = np.flatnonzero(scores > 0)
    return top_among(docs, scores[docs], depth)


def explain_score(matched: Sequence[tuple[str, int, int]], n_docs: int, dl: float, avgdl: float,
                  k1: float, b: float) -> Explanation:
    """A document's score as a sum of one explained part per matched (term, tf, df)."""
    parts = []
    for term, tf, df in matched:
        idf = lucene_idf(df, n_docs)
        parts.append(Explanation(
            value=term_score(tf, df, n_docs, dl, avgdl, k1, b),
            description=f"weight({term}) = idf · tf / (tf + k1·(1−b+b·dl/avgdl))",
            details=[
                Explanation(value=idf, description=f"idf, df={df} N={n_docs}"),
                Explanation(value=tf, description="tf, occurrences in the block"),
                Explanation(value=dl, description=f"dl, block length; avgdl={avgdl:.2f}"),
            ],
        ))
    return Explanation(value=sum(p.value for p in parts),
                       description=f"BM25 (Lucene) k1={k1} b={b}, sum of:", details=parts)


class SearchIndex(Protocol):
    """What a retriever asks of a channel's index: a `BM25Index`, or a chapter window over one
    (`retrieval.window.WindowIndex`). Documents are positions 0..n_docs−1 of the retriever's
    blocks."""

    @property
    def n_docs(self) -> int: ...

    def term_ids(self, codes: IntArray) -> IntArray: ...

    def top_for_ids(self, ids: IntArray, depth: int) -> tuple[IntArray, FloatArray]: ...

    def scores_for_ids(self, ids: IntArray) -> FloatArray: ...

    def df(self, term: str) -> int: ...

    def document_frequencies(self, terms: Sequence[str]) -> list[int]: ...

    def matched_terms_many(self, terms: Iterable[str], docs: Sequence[int]
                           ) -> dict[int, list[str]]: ...

    def explain(self, terms: Iterable[str], doc: int) -> Explanation: ...


@dataclass
class BM25Index:
    """Inverted index of one channel; documents are addressed by position 0..N-1."""

    term_codes: IntArray  # sorted, one per term
    indptr: IntArray  # postings of term i are [indptr[i], indptr[i+1])
    posting_docs: npt.NDArray[np.integer[Any]]
    posting_tfs: npt.NDArray[np.integer[Any]]
    doc_lengths: FloatArray
    k1: float = K1
    b: float = B
    posting_weights: FloatArray | None = None
    """each posting's score contribution; computed here when not given (saved indexes hold it)"""

    def __post_init__(self) -> None:
        # memory-mapped arrays stay mapped, but as plain ndarray views: every slice of a
        # `np.memmap` is a memmap again, which costs microseconds a query can feel
        self.term_codes, self.indptr = np.asarray(self.term_codes), np.asarray(self.indptr)
        self.posting_docs, self.posting_tfs = (np.asarray(self.posting_docs),
                                               np.asarray(self.posting_tfs))
        self.doc_lengths = np.asarray(self.doc_lengths)
        if self.posting_weights is not None:
            self.posting_weights = np.asarray(self.posting_weights)
        self.avgdl = float(self.doc_lengths.mean()) if self.doc_lengths.sum() > 0 else 1.0
        if self.posting_weights is None:
            dfs = np.diff(self.indptr)
            idf = np.log(1.0 + (self.n_docs - dfs + 0.5) / (dfs + 0.5))
            tf = self.posting_tfs.astype(np.float64)
            norm = self.k1 * (1.0 - self.b + self.b * self.doc_lengths[self.posting_docs]
                              / self.avgdl)
            self.posting_weights = np.repeat(idf, dfs) * tf / (tf + norm)
        self.weights: FloatArray = self.posting_weights

    @classmethod
    def from_postings(cls, codes: IntArray, docs: IntArray, n_docs: int,
                      k1: float = K1, b: float = B) -> BM25Index:
        """Build from one (term code, document) pair per term occurrence (one global sort: the
        corpus indexes use the batched `retrieval.index_build.build_channel`)."""
        if n_docs < 1 << 15:  # codes use at most 48 bits: one key, sorted by value, is fastest
            key = np.sort((codes.astype(np.int64) << 15) | docs)
            codes, docs = key >> 15, key & ((1 << 15) - 1)
        else:
            order = np.lexsort((docs, codes))
            codes, docs = codes[order], docs[order]
        new_pair = np.ones(len(codes), dtype=bool)
        new_pair[1:] = (codes[1:] != codes[:-1]) | (docs[1:] != docs[:-1])
        starts = np.flatnonzero(new_pair)
        tfs = np.diff(np.append(starts, len(codes)))
        pair_codes, pair_docs = codes[starts], docs[starts]
        new_term = np.ones(len(pair_codes), dtype=bool)
        new_term[1:] = pair_codes[1:] != pair_codes[:-1]
        term_starts = np.flatnonzero(new_term)
        return cls(
            term_codes=pair_codes[term_starts].astype(np.int64),
            indptr=np.append(term_starts, len(pair_codes)).astype(np.int64),
            posting_docs=pair_docs.astype(np.int64),
            posting_tfs=tfs.astype(np.int64),
            doc_lengths=np.bincount(docs, minlength=n_docs).astype(np.float64),
            k1=k1,
            b=b,
        )

    @classmethod
    def build(cls, documents: Sequence[Sequence[str]], k1: float = K1, b: float = B) -> BM25Index:
        """Build from tokenized documents (the plain path; the corpus index uses `from_postings`)."""
        codes = [term_code(t) for terms in documents for t in terms]
        docs = [d for d, terms in enumerate(documents) for _ in terms]
        return cls.from_postings(np.asarray(codes, dtype=np.int64),
                                 np.asarray(docs, dtype=np.int64), len(documents), k1, b)

    @property
    def n_docs(self) -> int:
        return len(self.doc_lengths)

    @property
    def n_terms(self) -> int:
        return len(self.term_codes)

    def term_ids(self, codes: IntArray) -> IntArray:
        """Positions of the (distinct) term codes that the index knows; unknown codes dropped."""
        if not len(codes) or not self.n_terms:
            return np.empty(0, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.term_codes, codes), self.n_terms - 1)
        found: IntArray = pos[self.term_codes[pos] == codes].astype(np.int64)
        return found

    def _term_ids(self, terms: Iterable[str]) -> IntArray:
        """Ids of the indexed terms among `terms`; a term no index can hold (longer than three
        characters, outside the BMP: a wording such as 盘缠使尽) is simply absent."""
        return self.term_ids(np.fromiter((term_code(t) for t in dict.fromkeys(terms)
                                          if _indexable(t)), dtype=np.int64))

    def _spans(self, ids: IntArray) -> list[slice]:
        """Each distinct term position's postings, as a slice of the posting arrays."""
        indptr = self.indptr
        return [slice(lo, hi) for lo, hi in zip(indptr[ids].tolist(), indptr[ids + 1].tolist(),
                                                 strict=True)]

    def _scores(self, spans: list[slice]) -> FloatArray:
        """Every document's score: the terms' posting slices joined, then one weighted
        `bincount` (a query has a handful of terms: slicing each costs less than computing the
        gather indices with array arithmetic)."""
        scores: FloatArray = np.bincount(  # type: ignore[assignment]
            np.concatenate([self.posting_docs[s] for s in spans]),
            weights=np.concatenate([self.weights[s] for s in spans]), minlength=self.n_docs)
        return scores

    def scores_for_ids(self, ids: IntArray) -> FloatArray:
        """Scores of every document for distinct term positions."""
        if not len(ids):
            return np.zeros(self.n_docs)
        return self._scores(self._spans(ids))

    def top_for_ids(self, ids: IntArray, depth: int) -> tuple[IntArray, FloatArray]:
        """(documents, scores) with a positive score, best first, ties by position; at most depth
        (`top_of_scores`)."""
        if not len(ids) or depth < 1:
            return np.empty(0, dtype=np.int64), np.empty(0)
        spans = self._spans(ids)
        return top_of_scores(self._scores(spans), [self.posting_docs[s] for s in spans], depth)

    def term_position(self, term: str) -> int | None:
        """The term's position in the vocabulary; None when the index does not hold it."""
        ids = self._term_ids([term])
        return int(ids[0]) if len(ids) else None

    def df(self, term: str) -> int:
        ids = self._term_ids([term])
        return int(self.indptr[ids[0] + 1] - self.indptr[ids[0]]) if len(ids) else 0

    def scores(self, terms: Iterable[str]) -> FloatArray:
        """Score of every document for the distinct `terms`."""
        return self.scores_for_ids(self._term_ids(terms))

    def top(self, terms: Iterable[str], depth: int) -> list[tuple[int, float]]:
        """`top_for_ids` for string terms, as (document, score) pairs."""
        docs, scores = self.top_for_ids(self._term_ids(terms), depth)
        return list(zip(docs.tolist(), scores.tolist(), strict=True))

    def term_frequency(self, term: str, doc: int) -> int:
        ids = self._term_ids([term])
        if not len(ids):
            return 0
        lo, hi = int(self.indptr[ids[0]]), int(self.indptr[ids[0] + 1])
        pos = lo + int(np.searchsorted(self.posting_docs[lo:hi], doc))
        return int(self.posting_tfs[pos]) if pos < hi and self.posting_docs[pos] == doc else 0

    def matched_terms_many(self, terms: Iterable[str], docs: Sequence[int]) -> dict[int, list[str]]:
        """For each of `docs`, the distinct query terms it contains (in query order). All the
        terms' postings are joined and filtered against `docs` at once (one pass in numpy, not
        one intersection a term: a traced query has some hundred terms)."""
        wanted = np.asarray(sorted(set(docs)), dtype=np.int64)
        found: dict[int, list[str]] = {int(d): [] for d in wanted}
        distinct = list(dict.fromkeys(terms))
        if not distinct or not len(wanted) or not self.n_terms:
            return found
        codes = np.fromiter((term_code(t) for t in distinct), dtype=np.int64, count=len(distinct))
        pos = np.minimum(np.searchsorted(self.term_codes, codes), self.n_terms - 1)
        known = np.flatnonzero(self.term_codes[pos] == codes)  # query order kept
        if not len(known):
            return found
        starts, ends = self.indptr[pos[known]], self.indptr[pos[known] + 1]
        lengths = ends - starts
        owner = np.repeat(known, lengths)  # the query term of each joined posting
        offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
        joined = self.posting_docs[np.arange(int(lengths.sum())) + offsets]
        mask = np.zeros(self.n_docs, dtype=bool)
        mask[wanted] = True
        hit = mask[joined]
        for term_index, doc in zip(owner[hit].tolist(), joined[hit].tolist(), strict=True):
            found[doc].append(distinct[term_index])
        return found

    def document_frequencies(self, terms: Sequence[str]) -> list[int]:
        """`df` of each term, in one lookup."""
        if not terms or not self.n_terms:
            return [0] * len(terms)
        codes = np.fromiter((term_code(t) for t in terms), dtype=np.int64, count=len(terms))
        pos = np.minimum(np.searchsorted(self.term_codes, codes), self.n_terms - 1)
        counts = np.where(self.term_codes[pos] == codes, self.indptr[pos + 1] - self.indptr[pos], 0)
        return [int(c) for c in counts]

    def matched_terms(self, terms: Iterable[str], doc: int) -> list[str]:
        return [t for t in dict.fromkeys(terms) if self.term_frequency(t, doc) > 0]

    def explain(self, terms: Iterable[str], doc: int) -> Explanation:
        """The document's score as a sum of one explained part per matched term."""
        return explain_score([(t, self.term_frequency(t, doc), self.df(t))
                              for t in self.matched_terms(terms, doc)],
                             self.n_docs, float(self.doc_lengths[doc]), self.avgdl, self.k1, self.b)

    def to_arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        return {"term_codes": self.term_codes, "indptr": self.indptr,
                "posting_docs": self.posting_docs, "posting_tfs": self.posting_tfs,
                "posting_weights": self.weights, "doc_lengths": self.doc_lengths,
                "params": np.asarray([self.k1, self.b])}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> BM25Index:
        """An index over saved arrays (memory-mapped ones stay mapped: workers share the pages)."""
        k1, b = (float(x) for x in arrays["params"])
        return cls(arrays["term_codes"], arrays["indptr"], arrays["posting_docs"],
                   arrays["posting_tfs"], arrays["doc_lengths"], k1, b,
                   arrays.get("posting_weights"))
