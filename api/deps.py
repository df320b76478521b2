"""Route dependencies: the services opened by the lifespan, request limits and the admin key."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Header, Request

from api.admin_key import AdminGuard
from api.inputs import parse_chapters
from api.startup import Startup
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
    """The services, waited for while they open at start (503 if they could not)."""
    startup: Startup = request.app.state.startup
    return await startup.services()


ServicesDep = Annotated["Services", Depends(get_services)]


async def get_settings(request: Request) -> Settings:
    return (await get_services(request)).settings


async def get_corpus(request: Request) -> Corpus:
    return (await get_services(request)).corpus


async def get_provider(request: Request) -> RelationProvider:
    return (await get_services(request)).require_provider()


async def get_asker(request: Request) -> AskService:
    return (await get_services(request)).require_asker()


async def get_directory(request: Request) -> PeopleDirectory:
    return (await get_services(request)).require_directory()


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
