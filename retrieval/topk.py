"""Choosing the best k documents by score, in the one order every ranking here promises.

The order: positive scores only, higher first, equal scores by lower position (block order, so
the earlier chapter first). Ties matter: a repeated passage scores alike wherever it occurs, and
the k-th place may be shared by many documents, which must then be the first of them. Choosing
with `argpartition` alone and sorting what it picked (as this code once did) keeps arbitrary
members of a tie at the cut.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Positions = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]

SORT_AT_ONCE = 64
"""Up to this many documents are sorted outright; more are first cut down to the k best with a
linear `np.partition` (so the sort never grows with the matched documents)."""


def top_among(docs: Positions, scores: Scores, k: int) -> tuple[Positions, Scores]:
    """The best `k` of `docs` (distinct positions in ascending order, each with a positive score
    in `scores`), best first, ties by position."""
    if k < 1:
        return docs[:0], scores[:0]
    if len(docs) > max(k, SORT_AT_ONCE):
        cut = len(scores) - k
        kth = np.partition(scores, cut)[cut]  # the k-th best score
        keep = scores > kth
        tied = np.flatnonzero(scores == kth)  # in position order: the first ones are kept
        keep[tied[: k - int(np.count_nonzero(keep))]] = True
        docs, scores = docs[keep], scores[keep]
    order = np.argsort(-scores, kind="stable")[:k]  # stable: ties stay in position order
    return docs[order], scores[order]


def top_of_dense(scores: Scores, k: int) -> tuple[Positions, Scores]:
    """The best `k` positions of a score for every document (zero: not matched), in the same
    order: the matched documents listed, then `top_among`. (`np.partition` over the whole vector
    is no shortcut: with most scores equal to zero it is an order of magnitude slower.)"""
    docs = np.flatnonzero(scores > 0)
    return top_among(docs, scores[docs], k)
