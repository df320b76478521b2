"""The analyzers of `analyzers.py` run over a whole corpus at once with numpy, for fast builds.

They produce exactly the terms `ngram_terms` and `unigram_terms` produce (a test holds them to it),
as (term code, document) pairs for `BM25Index.from_postings`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from retrieval.analyzers import FUNCTION_CHARS
from retrieval.bm25 import IntArray

_FUNCTION_CODES = np.asarray(sorted(ord(c) for c in FUNCTION_CHARS), dtype=np.int64)


def _code_points(texts: Sequence[str]) -> tuple[IntArray, IntArray, np.ndarray]:
    """All texts joined by a newline: code points, the document of each position, a CJK mask."""
    joined = "\n".join(texts) + "\n"
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    lengths = np.asarray([len(t) + 1 for t in texts], dtype=np.int64)
    docs = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    cjk = ((points >= 0x4E00) & (points <= 0x9FFF)) | ((points >= 0x3400) & (points <= 0x4DBF)) \
        | ((points >= 0xF900) & (points <= 0xFAFF))
    return points, docs, cjk


def ngram_postings(texts: Sequence[str]) -> tuple[IntArray, IntArray]:
    """(code, doc) for every bigram and trigram inside a CJK run."""
    points, docs, cjk = _code_points(texts)
    bi = np.flatnonzero(cjk[:-1] & cjk[1:])
    tri = np.flatnonzero(cjk[:-2] & cjk[1:-1] & cjk[2:])
    bi_codes = (points[bi] << 16) | points[bi + 1]
    tri_codes = (points[tri] << 32) | (points[tri + 1] << 16) | points[tri + 2]
    return np.concatenate([bi_codes, tri_codes]), np.concatenate([docs[bi], docs[tri]])


def unigram_postings(texts: Sequence[str]) -> tuple[IntArray, IntArray]:
    """(code, doc) for every CJK character that is not a function character."""
    points, docs, cjk = _code_points(texts)
    keep = cjk & ~np.isin(points, _FUNCTION_CODES)
    return points[keep], docs[keep]


CHANNEL_POSTINGS = {"ngram": ngram_postings, "unigram": unigram_postings}
