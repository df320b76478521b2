"""Journeys of the main heroes on the whole book's extracted knowledge: few, meaningful stages."""

from __future__ import annotations

import pytest
from extract_support import fresh_inputs

from extract.offline import OfflineExtractor
from extract.pipeline import assemble
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.journey import MAX_STAGES, build_journey
from kb.knowledge.views import Journey


@pytest.fixture(scope="module")
def extracted() -> KnowledgeBundle:
    inputs = fresh_inputs()
    parts = OfflineExtractor(inputs.roster, inputs.texts).extract_chapters(inputs.by_chapter())
    return assemble(parts, inputs)


def _journey(bundle: KnowledgeBundle, person: str) -> Journey:
    found = next(p for p in bundle.people if p.id == person)
    return build_journey(found, [e for e in bundle.events if person in e.person_ids],
                         [s for s in bundle.states if s.person == person])


@pytest.mark.parametrize("person", ["song_jiang", "wu_song", "li_kui", "lu_junyi", "lu_zhishen"])
def test_hero_journeys_have_few_stages(extracted: KnowledgeBundle, person: str) -> None:
    stages = _journey(extracted, person).stages
    assert 3 <= len(stages) <= MAX_STAGES
    firsts = [s.chapters[0] for s in stages]
    assert firsts == sorted(firsts)


def test_no_stage_before_a_hero_enters(extracted: KnowledgeBundle) -> None:
    assert _journey(extracted, "lu_junyi").stages[0].chapters[0] >= 60  # not 梁中书 in ch13
    assert _journey(extracted, "wu_song").stages[0].chapters[0] >= 23


def test_states_are_not_recollections(extracted: KnowledgeBundle) -> None:
    late = [s for s in extracted.states if s.person == "lin_chong" and s.value == "沧州"
            and s.chapter > 12]
    assert not late  # a later chapter recalling 沧州 moves nobody there
