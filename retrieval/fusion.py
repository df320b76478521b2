"""Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009).

    rrf(d) = Σ over rankings r containing d of  w_r / (k + rank_r(d)),   rank counted from 1

A document absent from a ranking adds nothing for it (it is not ranked last). Ties are broken by
the best single rank, then by the key itself, so the result does not depend on the order in which
the rankings are given.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import numpy as np

K = 60
T = TypeVar("T", bound=Hashable)


def rrf(rankings: Mapping[str, Sequence[T]], k: int = K,
        weights: Mapping[str, float] | None = None) -> list[tuple[T, float]]:
    """Fuse named rankings (best first) into one list of (key, fused score), best first."""
    parts: dict[T, list[float]] = {}
    best_rank: dict[T, int] = {}
    for name, ranking in rankings.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, key in enumerate(ranking, start=1):
            parts.setdefault(key, []).append(weight / (k + rank))
            best_rank[key] = min(best_rank.get(key, rank), rank)
    scores = {key: math.fsum(values) for key, values in parts.items()}  # exact: order-free
    return sorted(scores.items(), key=lambda kv: (-kv[1], best_rank[kv[0]], kv[0]))


def rrf_positions(rankings: Sequence[Sequence[int]], n_docs: int, k: int = K
                  ) -> list[tuple[int, float]]:
    """`rrf` with equal weights for rankings of document positions 0..n_docs-1, in numpy.

    Same result as `rrf` (a test holds them together): ties by best rank, then by position.
    """
    scores = np.zeros(n_docs)
    best = np.full(n_docs, np.iinfo(np.int64).max)
    for ranking in rankings:
        docs = np.asarray(ranking, dtype=np.int64)
        ranks = np.arange(1, len(docs) + 1)
        scores[docs] += 1.0 / (k + ranks)
        best[docs] = np.minimum(best[docs], ranks)
    hits = np.flatnonzero(best != np.iinfo(np.int64).max)
    order = np.lexsort((hits, best[hits], -scores[hits]))
    return list(zip(hits[order].tolist(), scores[hits[order]].tolist(), strict=True))
