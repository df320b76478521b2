"""Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009).

    rrf(d) = Σ over rankings r containing d of  w_r / (k + rank_r(d)),   rank counted from 1

A document absent from a ranking adds nothing for it (it is not ranked last). Ties are broken by
the best single rank, then by the key itself, so the result does not depend on the order in which
the rankings are given.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

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


def rrf_positions(rankings: Sequence[Sequence[int] | npt.NDArray[np.integer[Any]]], k: int = K
                  ) -> list[tuple[int, float]]:
    """`rrf` with equal weights for rankings of document positions, in numpy.

    Same result as `rrf` (a test holds them together): ties by best rank, then by position. Only
    the ranked documents are touched (grouped by a stable sort of their positions, so each one's
    parts are added in the order of the rankings), never an array over the whole corpus: a
    query ranks a few hundred documents of tens of thousands.
    """
    lists = [np.asarray(ranking, dtype=np.int64) for ranking in rankings]
    docs = np.concatenate(lists) if lists else np.empty(0, dtype=np.int64)
    if not len(docs):
        return []
    ranks = np.concatenate([np.arange(1, len(ranking) + 1) for ranking in lists])
    order = np.argsort(docs, kind="stable")
    docs, ranks = docs[order], ranks[order]
    first = np.empty(len(docs), dtype=bool)
    first[0] = True
    np.not_equal(docs[1:], docs[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    scores = np.add.reduceat(1.0 / (k + ranks), starts)
    best = np.minimum.reduceat(ranks, starts)
    docs = docs[starts]
    order = np.lexsort((docs, best, -scores))
    return list(zip(docs[order].tolist(), scores[order].tolist(), strict=True))
