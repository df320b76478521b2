"""`/kb/suggest`, `/kb/graph/{person}`, `/kb/people/{person}/events`, `/kb/subgraph`: what the
explorer page draws and offers.

Suggestions are served from the in-memory `PeopleDirectory` (one per loaded bundle); the graphs
are built from the store's Protocol verbs (`kb.knowledge.graph`), in the graph pool like every
other graph read (503 at once while the store is down, within `KBX_GRAPH_TIMEOUT` when it hangs).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import Field

from api.deps import DirectoryDep, ProviderDep, ServicesDep
from api.inputs import MAX_ID, NAME_PATTERN
from api.responses import GRAPH_ERRORS, responses
from api.routes.knowledge import LOOKUP, PersonPath, find_person
from kb.knowledge.directory import MAX_SUGGESTIONS, NameMatch
from kb.knowledge.graph import EventStub, Neighbourhood, Subgraph, event_stubs, subgraph

router = APIRouter(prefix="/kb", tags=["explorer"])

MAX_RECORDS = 200
RecordId = Annotated[str, Field(min_length=1, max_length=MAX_ID, pattern=NAME_PATTERN)]


@router.get("/suggest", responses=responses(422, *GRAPH_ERRORS))
def suggest(q: Annotated[str, Query(min_length=1, max_length=50, pattern=NAME_PATTERN,
                                    description="what the reader typed, either script",
                                    examples=["林"])],
            directory: DirectoryDep,
            limit: Annotated[int, Query(ge=1, le=MAX_SUGGESTIONS)] = 10) -> list[NameMatch]:
    """People whose name, alias, nickname or star name starts with (then contains) `q`."""
    return directory.suggest(q, limit)


@router.get("/graph/{person}", responses=LOOKUP)
async def graph(person: PersonPath, provider: ProviderDep,
                services: ServicesDep) -> Neighbourhood:
    """The person, every neighbour (most relations first), and the relations with their types
    and chapters (no sources: open a relation by id for those)."""
    return await services.graph(
        lambda: services.graphs.get(provider, find_person(provider, person).id))


@router.get("/people/{person}/events", responses=LOOKUP)
async def events(person: PersonPath, provider: ProviderDep,
                 services: ServicesDep) -> list[EventStub]:
    """The person's events in book order, in short (open one by id for its sources)."""
    return await services.graph(lambda: event_stubs(provider, find_person(provider, person).id))


@router.get("/subgraph", responses=responses(422, *GRAPH_ERRORS))
async def records_subgraph(records: Annotated[list[RecordId],
                                              Query(min_length=1, max_length=MAX_RECORDS,
                                                    description="record ids",
                                                    examples=[["lin_chong"]])],
                           provider: ProviderDep, services: ServicesDep) -> Subgraph:
    """People, events and relations of the given records; unknown ids are listed in `missing`."""
    return await services.graph(lambda: subgraph(provider, records))
