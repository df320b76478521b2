"""Building a channel's BM25 index in time and memory linear in the blocks.

The blocks are cut into batches of about `BATCH_CHARS` characters. Each batch is analyzed and
sorted on its own (one int64 key per term occurrence: the term code, then the document), so no
sort ever grows with the corpus. Two passes over the batches:

1. the vocabulary: each batch's distinct terms, with the number of its blocks holding each, are
   merged into the sorted vocabulary (a binary search per distinct term and one insertion of the
   new ones), which gives every term's document frequency and so the postings layout (`indptr`);
2. the postings: each batch's (term, document, tf) triples are written straight to their place:
   batches come in document order, so each term's postings stay sorted by document.

Memory: the finished arrays (int32 documents and term frequencies, float64 weights: 16 bytes a
posting) plus one batch and the vocabulary. `BM25Index.from_postings` (one global sort) is the
reference the result is held to by a test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from retrieval.bm25 import K1, B, BM25Index, FloatArray, IntArray

BATCH_CHARS = 1 << 20
"""Characters per batch (about 1,700 blocks of 600 characters)."""
DOC_BITS = 15
"""A batch holds fewer than 2**15 blocks: the document is the low 15 bits of the sort key (term
codes use at most 48 bits, 3 characters of 16)."""
WEIGHT_CHUNK = 1 << 22
"""Postings whose weights are computed at once (bounds the temporaries)."""

Postings = Callable[[Sequence[str]], tuple[IntArray, IntArray]]
"""An analyzer over many texts: (term code, text position) for every term occurrence."""


def batches(texts: Sequence[str], max_chars: int = BATCH_CHARS) -> Iterator[tuple[int, int]]:
    """Consecutive document ranges [start, end) of at most `max_chars` characters (at least one
    document) and fewer than 2**DOC_BITS documents."""
    start, size = 0, 0
    for position, text in enumerate(texts):
        if position > start and (size + len(text) > max_chars
                                 or position - start >= (1 << DOC_BITS) - 1):
            yield start, position
            start, size = position, 0
        size += len(text)
    if start < len(texts):
        yield start, len(texts)


def _pairs(codes: IntArray, docs: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """(term code, document, tf) for each distinct pair of a batch, sorted by code then document."""
    if not len(codes):
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, empty
    key = np.sort((codes.astype(np.int64) << DOC_BITS) | docs)
    new = np.empty(len(key), dtype=bool)
    new[0] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    tfs = np.diff(np.append(starts, len(key)))
    unique = key[starts]
    return unique >> DOC_BITS, unique & ((1 << DOC_BITS) - 1), tfs


def _runs(sorted_values: IntArray) -> tuple[IntArray, IntArray]:
    """Start positions and lengths of the runs of equal values of a sorted array."""
    if not len(sorted_values):
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    new = np.empty(len(sorted_values), dtype=bool)
    new[0] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return starts, np.diff(np.append(starts, len(sorted_values)))


def _merge(vocab: IntArray, df: IntArray, codes: IntArray, counts: IntArray
           ) -> tuple[IntArray, IntArray]:
    """Add a batch's distinct sorted codes with their document counts to the sorted vocabulary."""
    at = np.searchsorted(vocab, codes)
    known = at < len(vocab)
    known[known] = vocab[at[known]] == codes[known]
    df[at[known]] += counts[known]
    fresh = ~known
    if fresh.any():
        vocab = np.insert(vocab, at[fresh], codes[fresh])
        df = np.insert(df, at[fresh], counts[fresh])
    return vocab, df


def build_channel(texts: Sequence[str], postings: Postings, k1: float = K1, b: float = B,
                  max_chars: int = BATCH_CHARS) -> BM25Index:
    """The BM25 index of one channel over `texts` (already simplified), batch by batch."""
    n_docs = len(texts)
    ranges = list(batches(texts, max_chars))
    vocab = np.empty(0, dtype=np.int64)
    df = np.empty(0, dtype=np.int64)
    doc_lengths = np.zeros(n_docs, dtype=np.float64)
    for start, end in ranges:  # pass 1: vocabulary, document frequencies, block lengths
        codes, docs = postings(texts[start:end])
        doc_lengths[start:end] = np.bincount(docs, minlength=end - start)
        pair_codes, _, _ = _pairs(codes, docs)
        run_starts, run_lengths = _runs(pair_codes)
        vocab, df = _merge(vocab, df, pair_codes[run_starts], run_lengths)
    indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    total = int(indptr[-1])
    posting_docs = np.empty(total, dtype=np.int32)
    posting_tfs = np.empty(total, dtype=np.int32)
    filled = indptr[:-1].copy()
    for start, end in ranges:  # pass 2: each posting straight to its place
        codes, docs = postings(texts[start:end])
        pair_codes, pair_docs, tfs = _pairs(codes, docs)
        terms = np.searchsorted(vocab, pair_codes)
        run_starts, run_lengths = _runs(terms)
        rank = np.arange(len(terms)) - np.repeat(run_starts, run_lengths)
        target = filled[terms] + rank
        posting_docs[target] = pair_docs + start
        posting_tfs[target] = tfs
        filled[terms[run_starts]] += run_lengths
    index = BM25Index(term_codes=vocab, indptr=indptr, posting_docs=posting_docs,
                      posting_tfs=posting_tfs, doc_lengths=doc_lengths, k1=k1, b=b,
                      posting_weights=np.empty(0))
    index.posting_weights = index.weights = posting_weights(index)
    return index


def posting_weights(index: BM25Index) -> FloatArray:
    """Each posting's BM25 contribution, computed a chunk of postings at a time."""
    total = len(index.posting_docs)
    weights = np.empty(total, dtype=np.float64)
    dfs = np.diff(index.indptr)
    idf = np.log(1.0 + (index.n_docs - dfs + 0.5) / (dfs + 0.5))
    norm = index.k1 * (1.0 - index.b + index.b * index.doc_lengths / index.avgdl)
    for lo in range(0, total, WEIGHT_CHUNK):
        hi = min(total, lo + WEIGHT_CHUNK)
        terms = np.searchsorted(index.indptr, np.arange(lo, hi), side="right") - 1
        tf = index.posting_tfs[lo:hi].astype(np.float64)
        weights[lo:hi] = idf[terms] * tf / (tf + norm[index.posting_docs[lo:hi]])
    return weights
