"""The seam between the service and the graph store: one Protocol of domain verbs, read by id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from kb.knowledge.journey_store import PAGE_LIMIT, JourneyDigest, StageEvents
from kb.knowledge.limits import MAX_HOPS
from kb.knowledge.models import Event, Person, State
from kb.knowledge.views import (
    Journey,
    LoadReport,
    Neighbor,
    Pair,
    PathResult,
    RecordView,
    Stats,
    Timeline,
)

if TYPE_CHECKING:
    from kb.knowledge.bundle import KnowledgeBundle

__all__ = ["MAX_HOPS", "RelationProvider"]


@runtime_checkable
class RelationProvider(Protocol):
    """Reads knowledge by id, no ranking. Unknown ids or names raise `NotFound` (with the closest
    names as suggestions); an unreachable store raises `ProviderUnavailable`.

    Every implementation answers identically for the same bundle (tests/test_provider_contract).
    """

    def resolve(self, name: str) -> Person:
        """The person a name or alias denotes, in either script (compared after `normalize`)."""
        ...

    def person_id(self, key: str) -> str:
        """The id of the person an id, a name or an alias (either script) denotes, from the name
        resolver built once per load (`kb.knowledge.names`): no store read, so a person named
        costs what a person given by id costs. An unknown key raises NotFound with the closest
        names (or ids)."""
        ...

    def people(self) -> list[Person]:
        """Everyone, by first chapter then id."""
        ...

    def person(self, person_id: str) -> Person: ...

    def pair(self, a_id: str, b_id: str) -> Pair:
        """Relations both ways (first chapter, id) and shared events (book order), with sources."""
        ...

    def pair_json(self, a_id: str, b_id: str) -> str:
        """The same view as JSON, for sending as it is (the API's `GET /kb/pair`): a store that
        keeps the view serialized sends it without parsing and serializing it again."""
        ...

    def record(self, record_id: str) -> RecordView:
        """Any record by id, with its linked records and its sources."""
        ...

    def events_of(self, person_id: str) -> list[Event]:
        """The person's events in book order."""
        ...

    def states_of(self, person_id: str) -> list[State]:
        """The person's states by chapter, then id."""
        ...

    def timeline(self, person_id: str) -> Timeline:
        """The person with their events (book order) and states (chapter, id) in one read; the
        journey skeleton is built from it by `kb.knowledge.journey.journey_of`."""
        ...

    def journey(self, person_id: str) -> Journey:
        """The person's journey skeleton as `journey_of` built it at load: one read."""
        ...

    def journey_digest(self, person_id: str) -> JourneyDigest:
        """The journey's default view (stages with their key events, the rest counted), stored at
        load (`kb.knowledge.journey_store`): one read."""
        ...

    def journey_digest_json(self, person_id: str) -> str:
        """The same view as the JSON stored at load, for sending as it is (the API's
        `GET /kb/journey/{person}`: no parse, no second serialization)."""
        ...

    def kept_journey_digest_json(self, key: str) -> str | None:
        """`journey_digest_json` of a person named by id, name or alias when the provider holds
        both the name and the view in memory (no I/O: safe to call on the event loop), else None
        (also for an unknown name: the caller then asks the store, which names the closest)."""
        ...

    def stage_events(self, person_id: str, stage: int, offset: int = 0,
                     limit: int = PAGE_LIMIT) -> StageEvents:
        """A page of the events of one stage (1-based) of the person's journey, in book order."""
        ...

    def path(self, a_id: str, b_id: str, max_hops: int = MAX_HOPS) -> PathResult:
        """The shortest chain of relations (either direction), at most `max_hops` (1–4) long."""
        ...

    def neighbors(self, person_id: str) -> list[Neighbor]:
        """People related to this one, most relations first."""
        ...

    def load(self, bundle: KnowledgeBundle) -> LoadReport:
        """Replace the whole graph atomically: a failed load leaves the previous graph answering;
        loading the same bundle twice gives the same graph."""
        ...

    def stats(self) -> Stats: ...

    def close(self) -> None: ...

