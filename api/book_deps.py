"""Which book a request reads: the `book` query field (or `POST /ask`'s body field), else the
service's default book; its services held open for the request's length (`api.shelf`).

An unknown book is `core.books.UnknownBook`, a 404 whose `suggestions` are the built books.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Query, Request

from api.shelf import Shelf
from api.startup import Startup
from core.books import BOOK_PATTERN

if TYPE_CHECKING:  # loaded with the services, after the app serves (see api.deps)
    from api.services import Services

BookQuery = Annotated[str | None, Query(
    pattern=BOOK_PATTERN, max_length=40,
    description="the book to read (`GET /books` lists them); default the service's book",
    examples=["shuihu"])]


async def get_shelf(request: Request) -> Shelf:
    """Every book's services, waited for while the default book opens at start (503 if it
    could not)."""
    startup: Startup[Shelf] = request.app.state.startup
    return await startup.services()


async def book_services(request: Request, book: BookQuery = None) -> AsyncIterator[Services]:
    """The services of the book the request names, opened on first use and held open while
    the request runs."""
    shelf = await get_shelf(request)
    async with shelf.using(book) as services:
        yield services


async def ask_services(request: Request, book: BookQuery = None) -> AsyncIterator[Services]:
    """`book_services` for `POST /ask`, whose body may name the book too (the body wins). The
    body is the one FastAPI validates as `AskBody` (Starlette keeps it once read); a body that
    is not a JSON object, or a book that is no book name, names no book here and is refused by
    that validation."""
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        body = None
    named = body.get("book") if isinstance(body, dict) else None
    if not isinstance(named, str) or not re.fullmatch(BOOK_PATTERN, named):
        named = book  # none, or one the body's validation refuses (422) after this
    shelf = await get_shelf(request)
    async with shelf.using(named) as services:
        yield services


ShelfDep = Annotated[Shelf, Depends(get_shelf)]
AskServicesDep = Annotated["Services", Depends(ask_services)]
