"""`GET /chunks/{id}`: one source block, the unit every citation points to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Path, Query

from api.deps import CorpusDep
from api.inputs import MAX_ID, NAME_PATTERN, TEXT_PATTERN
from api.models import ChunkView, Span
from api.responses import responses
from ingest.locate import spans_in
from providers.naming import unknown_id

if TYPE_CHECKING:  # numpy and the indexes load with the services, after the app serves
    from retrieval.corpus import Corpus

router = APIRouter(tags=["source"])

MAX_QUOTE_CHARS = 500


def chunk_view(corpus: Corpus, chunk_id: str, quote: str | None = None) -> ChunkView:
    """The block with its neighbours in book order and, given a quote, where it lies in the text
    (no highlight when it is not there: the reader sees that the quote is not in this block)."""
    block = corpus.block(chunk_id)
    if block is None:
        raise unknown_id("block", chunk_id, corpus.retriever.position)
    blocks = corpus.blocks
    at = corpus.retriever.position[chunk_id]
    text = block.display_text
    spans = spans_in(text, quote) if quote else []
    return ChunkView(id=block.id, chapter=block.chapter,
                     chapter_title=corpus.chapters[block.chapter].title, index=block.index,
                     start=block.start, end=block.end, text=text,
                     previous=blocks[at - 1].id if at > 0 else None,
                     next=blocks[at + 1].id if at + 1 < len(blocks) else None,
                     quote=quote, highlights=[Span(start=s, end=e) for s, e in spans])


@router.get("/chunks/{chunk_id}", responses=responses(404, 422))
def chunk(chunk_id: Annotated[str, Path(max_length=MAX_ID, pattern=NAME_PATTERN,
                                        description="e.g. ch007_chunk_004",
                                        examples=["ch007_chunk_004"])],
          corpus: CorpusDep,
          quote: Annotated[str | None, Query(max_length=MAX_QUOTE_CHARS, pattern=TEXT_PATTERN,
                                             description="a quote to highlight")] = None
          ) -> ChunkView:
    """The block's original text, chapter, character offsets and neighbours; `quote` adds where
    that quote lies in the text."""
    return chunk_view(corpus, chunk_id, quote)
