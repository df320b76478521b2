"""A chapter window over one BM25 index: the index's postings read through a mask, nothing built.

A search limited to some chapters used to build a whole new index over their blocks (analysis,
sort, weights: 0.1–0.8 s of CPU and some hundred MB of temporaries a window, and a cache of them
that grew with every window a caller asked for). The window here shares every array of the
index it reads and holds only what depends on the window: which documents are in it (their
positions in the window, −1 for the others), their lengths and the BM25 length norms.

Scores are those of an index built over the window's blocks alone, to the last bit: BM25's
statistics (N, each term's df, avgdl) are the window's, counted at query time from the postings
of the query's terms, and every weight is computed with the very expression of
`retrieval.index_build.posting_weights`, summed in the same order (terms in code order, each
term's postings in document order). A test holds the two equal on the whole book.

Documents are window positions 0..m−1 (the window's blocks in book order), as they would be in
an index built over them; term ids are the positions of the terms in the index read (a term
with no posting in the window simply scores nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from retrieval.bm25 import BM25Index, FloatArray, IntArray, explain_score, top_of_scores
from retrieval.explanation import Explanation


class WindowIndex:
    """The documents `members` (ascending positions of `index`) as an index of their own."""

    def __init__(self, index: BM25Index, members: IntArray) -> None:
        self.index = index
        self.members = members
        self.local: IntArray = np.full(index.n_docs, -1, dtype=np.int64)
        self.local[members] = np.arange(len(members), dtype=np.int64)
        self.doc_lengths: FloatArray = index.doc_lengths[members]
        self.k1, self.b = index.k1, index.b
        self.avgdl = float(self.doc_lengths.mean()) if self.doc_lengths.sum() > 0 else 1.0
        self.norm: FloatArray = self.k1 * (1.0 - self.b + self.b * self.doc_lengths / self.avgdl)

    @property
    def n_docs(self) -> int:
        return len(self.members)

    def term_ids(self, codes: IntArray) -> IntArray:
        return self.index.term_ids(codes)

    def _postings(self, ids: IntArray) -> tuple[list[IntArray], list[IntArray]]:
        """Each term's postings inside the window: (window documents, term frequencies)."""
        index, docs, tfs = self.index, [], []
        for lo, hi in zip(index.indptr[ids].tolist(), index.indptr[ids + 1].tolist(),
                          strict=True):
            local = self.local[index.posting_docs[lo:hi]]
            inside = local >= 0
            docs.append(local[inside])
            tfs.append(index.posting_tfs[lo:hi][inside])
        return docs, tfs

    def _scores(self, docs: list[IntArray], tfs: list[IntArray]) -> FloatArray:
        """Every window document's score (the weights as `posting_weights` computes them)."""
        dfs = np.asarray([len(d) for d in docs], dtype=np.int64)
        idf = np.log(1.0 + (self.n_docs - dfs + 0.5) / (dfs + 0.5))
        joined = np.concatenate(docs)
        tf = np.concatenate(tfs).astype(np.float64)
        weights = np.repeat(idf, dfs) * tf / (tf + self.norm[joined])
        scores: FloatArray = np.bincount(  # type: ignore[assignment]
            joined, weights=weights, minlength=self.n_docs)
        return scores

    def scores_for_ids(self, ids: IntArray) -> FloatArray:
        if not len(ids):
            return np.zeros(self.n_docs)
        return self._scores(*self._postings(ids))

    def top_for_ids(self, ids: IntArray, depth: int) -> tuple[IntArray, FloatArray]:
        """As `BM25Index.top_for_ids`, over the window's documents and statistics."""
        if not len(ids) or depth < 1:
            return np.empty(0, dtype=np.int64), np.empty(0)
        docs, tfs = self._postings(ids)
        return top_of_scores(self._scores(docs, tfs), docs, depth)

    def _global(self, doc: int) -> int:
        return int(self.members[doc])

    def df(self, term: str) -> int:
        return self.document_frequencies([term])[0]

    def document_frequencies(self, terms: Sequence[str]) -> list[int]:
        """Window documents holding each term (0 for a term the index cannot hold)."""
        ids = [self.index.term_position(t) for t in terms]
        known = np.asarray([i for i in ids if i is not None], dtype=np.int64)
        counts = iter([len(d) for d in self._postings(known)[0]] if len(known) else [])
        return [0 if i is None else next(counts) for i in ids]

    def term_frequency(self, term: str, doc: int) -> int:
        return self.index.term_frequency(term, self._global(doc))

    def matched_terms_many(self, terms: Iterable[str], docs: Sequence[int]) -> dict[int, list[str]]:
        found = self.index.matched_terms_many(terms, [self._global(d) for d in docs])
        return {int(self.local[d]): hits for d, hits in found.items()}

    def matched_terms(self, terms: Iterable[str], doc: int) -> list[str]:
        return self.index.matched_terms(terms, self._global(doc))

    def explain(self, terms: Iterable[str], doc: int) -> Explanation:
        """The document's score term by term, with the window's N, df and avgdl."""
        return explain_score([(t, self.term_frequency(t, doc), self.df(t))
                              for t in self.matched_terms(terms, doc)],
                             self.n_docs, float(self.doc_lengths[doc]), self.avgdl, self.k1, self.b)
