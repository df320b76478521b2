"""`/kb/…`: people, pairs, records, journeys and paths, read from the graph store by id or name.

A person may be named by id (`lin_chong`), name or alias, in either script (林冲, 林沖, 豹子头).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.deps import ProviderDep
from api.models import ErrorBody, PersonDetail
from api.responses import json_response
from kb.knowledge.journey_store import MAX_PAGE_LIMIT, PAGE_LIMIT, JourneyDigest, StageEvents
from kb.knowledge.models import Person
from kb.knowledge.protocol import MAX_HOPS, RelationProvider
from kb.knowledge.views import EventView, Journey, Pair, PathResult, PersonView, RecordView, StateView

router = APIRouter(prefix="/kb", tags=["knowledge"],
                   responses={404: {"model": ErrorBody}, 503: {"model": ErrorBody}})

PersonQuery = Annotated[str, Query(min_length=1, max_length=100, description="id, name or alias")]


def find_person(provider: RelationProvider, key: str) -> Person:
    """By id, name or alias (the provider's resolver); a miss suggests the closest names (or ids)."""
    return provider.person(provider.person_id(key))


@router.get("/people")
def people(provider: ProviderDep) -> list[PersonView]:
    """Everyone, by first chapter then id."""
    return [PersonView.of(p) for p in provider.people()]


@router.get("/people/{person}")
def person(person: str, provider: ProviderDep) -> PersonDetail:
    """A person with their related people, events in book order and states."""
    found = find_person(provider, person)
    return PersonDetail(person=PersonView.of(found), neighbors=provider.neighbors(found.id),
                        events=[EventView.of(e) for e in provider.events_of(found.id)],
                        states=[StateView.of(s) for s in provider.states_of(found.id)])


@router.get("/pair", response_model=Pair)
def pair(a: PersonQuery, b: PersonQuery, provider: ProviderDep) -> Response:
    """Relations both ways and shared events, with their sources."""
    return json_response(provider.pair(provider.person_id(a), provider.person_id(b)))


@router.get("/records/{record_id}")
def record(record_id: str, provider: ProviderDep) -> RecordView:
    """Any record (person, event, relation, state, chapter) with its linked records."""
    return provider.record(record_id)


JourneyView = JourneyDigest | StageEvents | Journey


@router.get("/journey/{person}", response_model=JourneyView)
def journey(person: str, provider: ProviderDep,
            stage: Annotated[int | None, Query(ge=1, description=(
                "a stage (1-based) whose events to list, a page at a time"))] = None,
            offset: Annotated[int, Query(ge=0, description="events of the stage to skip")] = 0,
            limit: Annotated[int, Query(ge=1, le=MAX_PAGE_LIMIT,
                                        description="events of the stage per page")] = PAGE_LIMIT,
            full: Annotated[bool, Query(description="the whole skeleton as the rule built it")
                            ] = False) -> Response:
    """The person's story in stages (decided at load): by default each stage with its key events
    and states, the other events counted; `stage` pages through one stage's events (`offset`,
    `limit`); `full` gives the whole skeleton with each stage's source quotes."""
    person_id = provider.person_id(person)
    if stage is not None:
        return json_response(provider.stage_events(person_id, stage, offset, limit))
    if full:
        return json_response(provider.journey(person_id))
    return Response(provider.journey_digest_json(person_id), media_type="application/json")


@router.get("/path")
def path(a: PersonQuery, b: PersonQuery, provider: ProviderDep,
         max_hops: Annotated[int, Query(ge=1, le=MAX_HOPS)] = MAX_HOPS) -> PathResult:
    """The shortest chain of relations between two people."""
    return provider.path(provider.person_id(a), provider.person_id(b), max_hops)
