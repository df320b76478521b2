"""A BM25 score explained term by term, in the shape of Lucene's `Explanation`.

Apart from the index (`retrieval.bm25`, which needs numpy) so that the trace models, and the
routes that answer with them, load without numpy.
"""

from __future__ import annotations

from pydantic import BaseModel


class Explanation(BaseModel):
    """A score and where it comes from, in the shape of Lucene's `Explanation`."""

    value: float
    description: str
    details: list[Explanation] = []
