"""A person discovered from the text alone (origin `extracted`) has longer arcs listing more
events than a curated person: a text-built book has many small scenes and the 回目's episodes
must not be crowded out of an arc's listing."""

from __future__ import annotations

from kb.knowledge.journey import KEY_EVENTS, TEXT_KEY_EVENTS, build_journey
from kb.knowledge.models import Event, Participant, Person, SourceRef


def _events(count: int) -> list[Event]:
    return [Event(id=f"e{i}", title=f"众人议事{i}", chapter=3, order=i,
                  participants=[Participant(person="p", role="议事者")],
                  sources=[SourceRef(chapter=3, quote=f"引文第{i}句")])
            for i in range(1, count + 1)]


def test_a_text_built_person_lists_more_events_per_stage() -> None:
    events = _events(TEXT_KEY_EVENTS + 2)
    curated = build_journey(Person(id="p", name="甲某"), events, [])
    extracted = build_journey(Person(id="p", name="甲某", origin="extracted"), events, [])
    assert len(curated.stages[0].events) == KEY_EVENTS
    assert len(extracted.stages[0].events) == TEXT_KEY_EVENTS
    assert extracted.stages[0].other_events == 2


def test_a_text_built_person_lists_the_chapter_titles_episodes_before_scenes() -> None:
    scenes = [Event(id=f"s{i}", title=f"甲某、乙{i}同场", chapter=3, order=i,
                    participants=[Participant(person="p", role="在场")],
                    sources=[SourceRef(chapter=3, quote=f"场景第{i}句")])
              for i in range(1, TEXT_KEY_EVENTS + 1)]
    episode = Event(id="h", title="丙设宴论天下", chapter=3, order=TEXT_KEY_EVENTS + 1,
                    headline=True, participants=[Participant(person="q", role="主"),
                                                 Participant(person="p", role="客"),
                                                 Participant(person="r", role="客"),
                                                 Participant(person="s", role="客")],
                    sources=[SourceRef(chapter=3, quote="回目一句")])
    journey = build_journey(Person(id="p", name="甲某", origin="extracted"), [*scenes, episode], [])
    assert "h" in [e.id for e in journey.stages[0].events]
