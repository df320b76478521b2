"""`GET /chunks/{id}`: one source block, the unit every citation points to."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import CorpusDep
from api.models import ChunkView, ErrorBody
from providers.naming import unknown_id

router = APIRouter(tags=["source"], responses={404: {"model": ErrorBody}})


@router.get("/chunks/{chunk_id}")
def chunk(chunk_id: str, corpus: CorpusDep) -> ChunkView:
    """The block's original text, chapter and character offsets."""
    block = corpus.block(chunk_id)
    if block is None:
        raise unknown_id("block", chunk_id, corpus.retriever.position)
    return ChunkView(id=block.id, chapter=block.chapter,
                     chapter_title=corpus.chapters[block.chapter].title, index=block.index,
                     start=block.start, end=block.end, text=block.display_text)
