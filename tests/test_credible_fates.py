"""Which of a person's extracted fates is believed (extract.fates.credible_fates): the first after
which they act in few later chapters, and in no later chapter's many scenes (a false report of a
death, 诈称身死, is refuted by the chapter in which the person goes on acting)."""

from __future__ import annotations

from extract.fates import FATE_NOTE, credible_fates
from kb.knowledge.models import Event, Participant, SourceRef, State

REF = [SourceRef(chapter=1, quote="某某某某某某某某")]


def _fate(chapter: int) -> State:
    return State(id=f"f{chapter}", person="jia", kind="status", value="身亡", chapter=chapter,
                 description=FATE_NOTE, sources=REF)


def _events(chapters: list[int]) -> list[Event]:
    return [Event(id=f"e{i}", title="场景", chapter=c, order=i, sources=REF,
                  participants=[Participant(person="jia")]) for i, c in enumerate(chapters)]


def test_a_death_with_a_remembered_scene_after_it_stands() -> None:
    kept = credible_fates([_fate(10)], _events([3, 5, 10, 12]))
    assert [s.chapter for s in kept] == [10]


def test_a_reported_death_the_person_outlives_in_many_scenes_gives_way_to_the_real_one() -> None:
    kept = credible_fates([_fate(10), _fate(20)], _events([3, 10, 14, *[20] * 6]))
    assert [s.chapter for s in kept] == [20]
