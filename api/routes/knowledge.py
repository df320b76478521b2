"""`/kb/…`: people, pairs, records, journeys and paths, read from the graph store by id or name.

A person may be named by id (`lin_chong`), name or alias, in either script (林冲, 林沖, 豹子头).
Every route runs its graph work in the graph pool (`api.graph_pool`): 503 at once while the
store is down, within `KBX_GRAPH_TIMEOUT` when it stops answering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Path, Query, Response

from api.deps import ProviderDep, ServicesDep
from api.inputs import MAX_ID, MAX_NAME, NAME_PATTERN
from api.models import PersonDetail
from api.responses import GRAPH_ERRORS, json_response, responses
from core.validation import two_people
from kb.knowledge.journey_store import MAX_PAGE_LIMIT, PAGE_LIMIT, JourneyDigest, StageEvents
from kb.knowledge.models import Person
from kb.knowledge.names import pair_ids
from kb.knowledge.protocol import MAX_HOPS, RelationProvider
from kb.knowledge.views import EventView, Journey, Pair, PathResult, PersonView, RecordView, StateView

if TYPE_CHECKING:
    from api.services import Services

router = APIRouter(prefix="/kb", tags=["knowledge"])

def person_query(example: str) -> object:
    return Query(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN,
                 description="id, name or alias", examples=[example])


PersonA = Annotated[str, person_query("林冲")]
PersonB = Annotated[str, person_query("鲁智深")]
PersonPath = Annotated[str, Path(max_length=MAX_NAME, pattern=NAME_PATTERN,
                                 description="id, name or alias",
                                 examples=["lin_chong", "林冲", "魯智深"])]
LOOKUP = responses(404, 422, *GRAPH_ERRORS)
MAX_STAGE = 1_000
MAX_OFFSET = 100_000
"""Bounds on journey paging: far above any person's stages and events, far below an integer
that costs anything to carry."""


def find_person(provider: RelationProvider, key: str) -> Person:
    """By id, name or alias (the provider's resolver); a miss suggests the closest names (or ids)."""
    return provider.person(provider.person_id(key))


@router.get("/people", responses=responses(*GRAPH_ERRORS))
async def people(provider: ProviderDep, services: ServicesDep) -> list[PersonView]:
    """Everyone, by first chapter then id."""
    return await services.graph(lambda: [PersonView.of(p) for p in provider.people()])


@router.get("/people/{person}", responses=LOOKUP)
async def person(person: PersonPath, provider: ProviderDep,
                 services: ServicesDep) -> PersonDetail:
    """A person with their related people, events in book order and states."""

    def work() -> PersonDetail:
        found = find_person(provider, person)
        return PersonDetail(person=PersonView.of(found), neighbors=provider.neighbors(found.id),
                            events=[EventView.of(e) for e in provider.events_of(found.id)],
                            states=[StateView.of(s) for s in provider.states_of(found.id)])

    return await services.graph(work)


@router.get("/pair", response_model=Pair, responses=LOOKUP)
async def pair(a: PersonA, b: PersonB, provider: ProviderDep, services: ServicesDep) -> Response:
    """Relations both ways and shared events, with their sources."""
    return await services.graph(lambda: Response(provider.pair_json(*pair_ids(provider, a, b)),
                                                 media_type="application/json"))


@router.get("/records/{record_id}", responses=LOOKUP)
async def record(record_id: Annotated[str, Path(max_length=MAX_ID, pattern=NAME_PATTERN,
                                                description="e.g. ev_ch009_001",
                                                examples=["lin_chong"])],
                 provider: ProviderDep, services: ServicesDep) -> RecordView:
    """Any record (person, event, relation, state, chapter) with its linked records."""
    return await services.graph(lambda: provider.record(record_id))


JourneyView = JourneyDigest | StageEvents | Journey


@router.get("/journey/{person}", response_model=JourneyView, responses=LOOKUP)
async def journey(person: PersonPath, provider: ProviderDep, services: ServicesDep,
                  stage: Annotated[int | None, Query(ge=1, le=MAX_STAGE, description=(
                      "a stage (1-based) whose events to list, a page at a time"))] = None,
                  offset: Annotated[int, Query(ge=0, le=MAX_OFFSET,
                                               description="events of the stage to skip")] = 0,
                  limit: Annotated[int, Query(ge=1, le=MAX_PAGE_LIMIT,
                                              description="events of the stage per page")
                                   ] = PAGE_LIMIT,
                  full: Annotated[bool, Query(description="the whole skeleton as the rule "
                                                          "built it")] = False) -> Response:
    """The person's story in stages (decided at load): by default each stage with its key events
    and states, the other events counted; `stage` pages through one stage's events (`offset`,
    `limit`); `full` gives the whole skeleton with each stage's source quotes."""

    if stage is None and not full:
        kept = _kept_digest(services, provider, person)
        if kept is not None:
            return kept

    def work() -> Response:
        person_id = provider.person_id(person)
        if stage is not None:
            return json_response(provider.stage_events(person_id, stage, offset, limit))
        if full:
            return json_response(provider.journey(person_id))
        return Response(provider.journey_digest_json(person_id), media_type="application/json")

    return await services.graph(work)


def _kept_digest(services: Services, provider: RelationProvider, person: str) -> Response | None:
    """The default journey view when the provider holds it in memory, sent from the event loop:
    the hop to the graph pool's thread was most of the route's time, and all of its tail. While
    the store is down the route answers 503 as the pool would (the supervisor says so)."""
    if services.supervisor is not None:
        services.supervisor.check()
    kept = provider.kept_journey_digest_json(person)
    return None if kept is None else Response(kept, media_type="application/json")


@router.get("/path", responses=LOOKUP)
async def path(a: PersonA, b: PersonB, provider: ProviderDep, services: ServicesDep,
               max_hops: Annotated[int, Query(ge=1, le=MAX_HOPS)] = MAX_HOPS) -> PathResult:
    """The shortest chain of relations between two people (two different ones: 422 for one
    person twice, as for a pair)."""
    def shortest() -> PathResult:
        a_id, b_id = provider.person_id(a), provider.person_id(b)
        two_people(a_id, b_id, "path")
        return provider.path(a_id, b_id, max_hops)

    return await services.graph(shortest)
