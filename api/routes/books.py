"""`GET /books` and `GET /books/{book}`: the books this service serves (every built one).

The list reads each book's manifest (`core.books`) and opens none; one book's view opens it
(its counts and the person the explorer starts on come from its bundle).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from api.book_deps import ShelfDep
from api.responses import GRAPH_ERRORS, responses
from api.shelf import Shelf
from core.books import BOOK_PATTERN, BookCounts, for_book, read_manifest, title_of
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import Person

router = APIRouter(tags=["books"])


class Hub(BaseModel):
    id: str
    name: str


class BookView(BaseModel):
    name: str = Field(description="what `book` takes")
    title: str
    source: str = Field(description="curated, extracted (offline) or llm")
    built_at: str | None = Field(description="ISO 8601; none for a corpus ingested without "
                                             "`kbx build`")
    counts: BookCounts | None = Field(description="records by kind (when built, or open)")
    default: bool = Field(description="read when a request names no book")
    open: bool = Field(description="held open by the service now")
    hubs: list[Hub] = Field(default=[], description="the most connected people, most first "
                                                    "(one book's view only)")


def _view(shelf: Shelf, name: str) -> BookView:
    settings = for_book(shelf.root, name)
    manifest = read_manifest(shelf.root, name)
    return BookView(name=name, title=title_of(settings),
                    source=manifest.source if manifest else "curated",
                    built_at=manifest.built_at if manifest else None,
                    counts=manifest.counts if manifest else None,
                    default=name == shelf.default, open=shelf.is_open(name))


@router.get("/books")
async def books(shelf: ShelfDep) -> list[BookView]:
    """Every book served: name, title, where its knowledge came from, counts, when built."""
    return [_view(shelf, name) for name in shelf.built()]


@router.get("/books/{book}", responses=responses(404, 422, *GRAPH_ERRORS))
async def book(book: Annotated[str, Path(pattern=BOOK_PATTERN, max_length=40,
                                         examples=["shuihu"])],
               shelf: ShelfDep) -> BookView:
    """One book, opened: its counts and the person the explorer starts on (most relations)."""
    async with shelf.using(book) as services:
        view = _view(shelf, book)
        bundle = services.require_asker().pipeline.bundle
        counts = BookCounts(**bundle.counts()) if view.counts is None else view.counts
        hubs = [Hub(id=p.id, name=p.name) for p in most_connected(bundle)]
        return view.model_copy(update={"counts": counts, "hubs": hubs, "open": True})


def most_connected(bundle: KnowledgeBundle, count: int = 3) -> list[Person]:
    """The people with the most relations (then events, then first in the book): where a
    reader new to the book starts (a few milliseconds for the largest bundle)."""
    degree: dict[str, int] = {}
    for relation in bundle.relations:
        for person in (relation.source, relation.target):
            degree[person] = degree.get(person, 0) + 1
    events: dict[str, int] = {}
    for event in bundle.events:
        for person in event.person_ids:
            events[person] = events.get(person, 0) + 1
    ranked = sorted(enumerate(bundle.people), key=lambda item: (
        -degree.get(item[1].id, 0), -events.get(item[1].id, 0), item[0]))
    return [person for _, person in ranked[:count]]

