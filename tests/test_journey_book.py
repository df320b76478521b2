"""Journeys of the heroes on the whole book's curated knowledge: arcs in book order, at most 12,
titled by what happens, the end of the story last."""

from __future__ import annotations

import pytest

from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.journey import KEY_EVENTS, MAX_STAGES, build_journey
from kb.knowledge.views import Journey

HEROES = ["song_jiang", "wu_song", "li_kui", "lu_junyi", "lu_zhishen", "lin_chong", "shi_jin",
          "yan_qing", "yang_zhi", "hua_rong"]


def _journey(bundle: KnowledgeBundle, person: str) -> Journey:
    found = next(p for p in bundle.people if p.id == person)
    return build_journey(found, [e for e in bundle.events if person in e.person_ids],
                         [s for s in bundle.states if s.person == person])


@pytest.mark.parametrize("person", HEROES)
def test_hero_journeys_are_few_arcs_in_book_order(kb_curated_bundle: KnowledgeBundle,
                                                  person: str) -> None:
    stages = _journey(kb_curated_bundle, person).stages
    assert 4 <= len(stages) <= MAX_STAGES
    firsts = [s.chapters[0] for s in stages]
    assert firsts == sorted(firsts)
    assert all("同场" not in s.title and s.title.count("、") < 2 for s in stages)
    assert all(s.events and s.sources for s in stages)


@pytest.mark.parametrize("person", HEROES)
def test_the_end_of_the_story_is_the_last_stage(kb_curated_bundle: KnowledgeBundle,
                                                person: str) -> None:
    last = _journey(kb_curated_bundle, person).stages[-1]
    fates = [s for s in kb_curated_bundle.states if s.person == person
             and s.kind in ("status", "title")]
    final = max(s.chapter for s in fates)
    assert last.chapters[-1] >= final >= 110


def test_no_stage_before_a_hero_enters(kb_curated_bundle: KnowledgeBundle) -> None:
    assert _journey(kb_curated_bundle, "lu_junyi").stages[0].chapters[0] >= 60
    assert _journey(kb_curated_bundle, "wu_song").stages[0].chapters[0] >= 22


def test_the_densest_life_keeps_key_events_and_counts_the_rest(
        kb_curated_bundle: KnowledgeBundle) -> None:
    journey = _journey(kb_curated_bundle, "song_jiang")
    listed = sum(len(s.events) for s in journey.stages)
    counted = sum(s.other_events for s in journey.stages)
    total = sum(1 for e in kb_curated_bundle.events if "song_jiang" in e.person_ids)
    assert listed + counted == total and listed <= KEY_EVENTS * MAX_STAGES
