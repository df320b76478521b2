"""Journeys decided at load (kb.knowledge.journey_store) on the whole book's curated bundle: what
is stored is what the rule builds, every event sits in exactly one stage, the default view of the
busiest life stays small, and pages walk a stage."""

from __future__ import annotations

import pytest

from core.errors import NotFound, QueryRejected
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.journey import build_journey
from kb.knowledge.journey_store import (
    KEY_EVENTS,
    BundleTimelines,
    StoredJourney,
    build_journeys,
    page_of,
)

DIGEST_BYTES = 60_000
"""The default view of any journey (the API's `GET /kb/journey/{person}`) stays under this."""


@pytest.fixture(scope="module")
def stored(kb_curated_bundle: KnowledgeBundle) -> dict[str, StoredJourney]:
    return build_journeys(kb_curated_bundle)


def test_the_rule_is_what_is_stored(kb_curated_bundle: KnowledgeBundle,
                                    stored: dict[str, StoredJourney]) -> None:
    assert set(stored) == {p.id for p in kb_curated_bundle.people}
    for person in kb_curated_bundle.people[::7]:
        events = sorted((e for e in kb_curated_bundle.events if person.id in e.person_ids),
                        key=lambda e: e.order)
        states = [s for s in kb_curated_bundle.states if s.person == person.id]
        assert stored[person.id].journey == build_journey(person, events, states)


def test_every_event_in_one_stage_in_book_order(kb_curated_bundle: KnowledgeBundle,
                                                stored: dict[str, StoredJourney]) -> None:
    timelines = BundleTimelines(kb_curated_bundle)
    for person_id, journey in stored.items():
        events = timelines.timeline(person_id).events
        flat = [i for stage in journey.stage_events for i in stage]
        assert flat == [e.id for e in events], person_id
        for stage, ids, digest in zip(journey.journey.stages, journey.stage_events,
                                      journey.digest.stages, strict=True):
            listed = [e.id for e in stage.events]
            assert set(listed) <= set(ids)
            assert len(ids) == len(stage.events) + stage.other_events  # the rule's own count
            assert [e.id for e in digest.events] == listed or len(listed) > KEY_EVENTS
            assert len(digest.events) + digest.other_events == len(ids)


def test_the_busiest_default_view_stays_small(stored: dict[str, StoredJourney]) -> None:
    sizes = {pid: len(s.digest.model_dump_json().encode()) for pid, s in stored.items()}
    busiest = max(stored, key=lambda pid: stored[pid].digest.events)
    assert stored[busiest].digest.events > 300
    assert max(sizes.values()) <= DIGEST_BYTES, max(sizes.items(), key=lambda kv: kv[1])


def test_pages_walk_a_stage(kb_curated_bundle: KnowledgeBundle,
                            stored: dict[str, StoredJourney]) -> None:
    busiest = max(stored, key=lambda pid: stored[pid].digest.events)
    journey = stored[busiest]
    stage = max(range(len(journey.stage_events)), key=lambda i: len(journey.stage_events[i])) + 1
    ids = journey.stage_events[stage - 1]

    def read(wanted: list[str]) -> dict[str, object]:
        return {i: kb_curated_bundle.event(i) for i in wanted}

    seen: list[str] = []
    offset = 0
    while offset < len(ids):
        page = page_of(busiest, journey.digest, journey.stage_events, stage, offset, 20,
                       read)  # type: ignore[arg-type]
        assert page.total == len(ids) and page.title == journey.digest.stages[stage - 1].title
        seen += [e.id for e in page.events]
        offset += 20
    assert seen == ids
    with pytest.raises(NotFound):
        page_of(busiest, journey.digest, journey.stage_events, len(ids) + 99, 0, 20, read)  # type: ignore[arg-type]
    with pytest.raises(QueryRejected):
        page_of(busiest, journey.digest, journey.stage_events, 1, 0, 0, read)  # type: ignore[arg-type]
