"""`/kb/suggest`, `/kb/graph/{person}`, `/kb/people/{person}/events`, `/kb/subgraph`: what the
explorer page draws and offers.

Suggestions are served from the in-memory `PeopleDirectory` (one per loaded bundle); the graphs
are built from the store's Protocol verbs (`kb.knowledge.graph`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import DirectoryDep, ProviderDep, ServicesDep
from api.models import ErrorBody
from api.routes.knowledge import find_person
from kb.knowledge.directory import MAX_SUGGESTIONS, NameMatch
from kb.knowledge.graph import EventStub, Neighbourhood, Subgraph, event_stubs, subgraph

router = APIRouter(prefix="/kb", tags=["explorer"],
                   responses={404: {"model": ErrorBody}, 422: {"model": ErrorBody},
                              503: {"model": ErrorBody}})

MAX_RECORDS = 200


@router.get("/suggest")
def suggest(q: Annotated[str, Query(min_length=1, max_length=50,
                                    description="what the reader typed, either script")],
            directory: DirectoryDep,
            limit: Annotated[int, Query(ge=1, le=MAX_SUGGESTIONS)] = 10) -> list[NameMatch]:
    """People whose name, alias, nickname or star name starts with (then contains) `q`."""
    return directory.suggest(q, limit)


@router.get("/graph/{person}")
def graph(person: str, provider: ProviderDep, services: ServicesDep) -> Neighbourhood:
    """The person, every neighbour (most relations first), and the relations with their types
    and chapters (no sources: open a relation by id for those)."""
    return services.graphs.get(provider, find_person(provider, person).id)


@router.get("/people/{person}/events")
def events(person: str, provider: ProviderDep) -> list[EventStub]:
    """The person's events in book order, in short (open one by id for its sources)."""
    return event_stubs(provider, find_person(provider, person).id)


@router.get("/subgraph")
def records_subgraph(records: Annotated[list[str], Query(min_length=1, max_length=MAX_RECORDS,
                                                         description="record ids")],
                     provider: ProviderDep) -> Subgraph:
    """People, events and relations of the given records; unknown ids are listed in `missing`."""
    return subgraph(provider, records)
