"""Route dependencies: the services opened by the lifespan, request limits and the admin key."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, cast

from fastapi import Depends, Header, Request

from api.admin_key import AdminGuard
from api.book_deps import book_services, get_shelf
from api.inputs import parse_chapters
from core.settings import Settings
from core.validation import checked_question

if TYPE_CHECKING:  # loaded with the services, after the app serves (api.startup); FastAPI
    # leaves a dependency's own type unresolved, so the aliases below name them as strings (and
    # the dependencies take the request, not another alias: nested, one would not resolve)
    from api.services import Services
    from kb.answering.service import AskService
    from kb.knowledge.directory import PeopleDirectory
    from kb.knowledge.protocol import RelationProvider
    from retrieval.corpus import Corpus

MAX_BUDGET = 32_000
"""Evidence budget bounds of the API (the same as `AskRequest.budget`)."""
MIN_BUDGET = 100
MAX_BLOCKS = 50


async def get_services(request: Request) -> Services:
    """The default book's services, waited for while they open at start (503 if they could
    not); a route reads the book its request names through `ServicesDep` (`api.book_deps`)."""
    return (await get_shelf(request)).require_default()


ServicesDep = Annotated["Services", Depends(book_services)]
_Services = Annotated[object, Depends(book_services)]
"""The same dependency as a sub-dependency (FastAPI resolves it once per request); typed
`object` since `Services` loads after the app serves (see above)."""


def _of(services: object) -> Services:
    return cast("Services", services)


async def get_settings(services: _Services) -> Settings:
    return _of(services).settings


async def get_corpus(services: _Services) -> Corpus:
    return _of(services).corpus


async def get_provider(services: _Services) -> RelationProvider:
    return _of(services).require_provider()


async def get_asker(services: _Services) -> AskService:
    return _of(services).require_asker()


async def get_directory(services: _Services) -> PeopleDirectory:
    return _of(services).require_directory()


SettingsDep = Annotated[Settings, Depends(get_settings)]
CorpusDep = Annotated["Corpus", Depends(get_corpus)]
ProviderDep = Annotated["RelationProvider", Depends(get_provider)]
AskerDep = Annotated["AskService", Depends(get_asker)]
DirectoryDep = Annotated["PeopleDirectory", Depends(get_directory)]


def check_question(field: str, text: str, settings: Settings) -> None:
    """A question must say something and stay under `max_question_chars`."""
    checked_question(text, settings.max_question_chars, field)


def chapter_selection(spec: str | None, corpus: Corpus) -> set[int] | None:
    """`7-11` or `7,9,12-14` → the chapters, every one within the corpus; None = all."""
    return None if spec is None else parse_chapters(spec, corpus.chapters)


async def require_admin(
        request: Request,
        x_api_key: Annotated[str | None, Header(description="the KBX_API_KEY")] = None) -> None:
    """401 for a missing or wrong key (one shared key: no caller is known to be refused, so no
    403); 503 when no key of at least 16 characters is configured, so that admin routes are
    never open by default; 429 after repeated wrong keys (`api.admin_key`)."""
    expected = (await get_services(request)).settings.api_key
    guard: AdminGuard = request.app.state.admin_guard
    guard.check(expected, x_api_key, request.client.host if request.client else "?")
