"""The journey rule (kb.knowledge.journey): arcs opened by turning points about the person, chapter
jumps and moves; titled by their most important event; the end is the last stage; at most 12."""

from __future__ import annotations

from kb.knowledge.journey import KEY_EVENTS, MAX_STAGES, build_journey, event_score
from kb.knowledge.models import Event, Participant, Person, SourceRef, State

PERSON = Person(id="p", name="甲某", aliases=["黑旋风"])


def _event(order: int, chapter: int, title: str = "", turning: bool = False,
           others: int = 0, place: str | None = None) -> Event:
    people = [Participant(person="p", role="杀人者")]
    people += [Participant(person=f"x{i}", role="被杀者") for i in range(others)]
    return Event(id=f"e{order}", title=title or f"众人议事{order}", chapter=chapter, order=order,
                 place=place, turning_point=turning, participants=people,
                 sources=[SourceRef(chapter=chapter, quote=f"引文第{order}句")])


def _state(sid: str, kind: str, value: str, chapter: int) -> State:
    return State(id=sid, person="p", kind=kind, value=value, chapter=chapter,  # type: ignore[arg-type]
                 sources=[SourceRef(chapter=chapter, quote=f"状态{sid}")])


def test_importance_counts_the_name_in_the_title_and_turning_points() -> None:
    names = ["甲某", "黑旋风"]
    assert event_score(_event(1, 1, "黑旋风斧劈罗真人"), "p", names) == 3 + 1 + 1
    assert event_score(_event(2, 1, "众人议事", turning=True, others=5), "p", names) == 2 + 1
    assert event_score(_event(3, 1, "乙丙交锋", others=5), "q", names) == 0


def test_one_chapter_without_turns_is_one_stage_titled_by_its_key_event() -> None:
    events = [_event(1, 7), _event(2, 7, "甲某怒打酒保"), _event(3, 7)]
    journey = build_journey(PERSON, events, [])
    assert [s.title for s in journey.stages] == ["甲某怒打酒保"]
    assert [e.id for e in journey.stages[0].events] == ["e1", "e2", "e3"]
    assert journey.stages[0].other_events == 0


def test_turning_points_about_the_person_and_jumps_open_arcs() -> None:
    events = [_event(1, 3, "甲某投奔乙"), _event(2, 3), _event(3, 4, "甲某刺配远方", turning=True),
              _event(4, 4), _event(5, 20, "甲某夜走山寨"), _event(6, 21)]
    journey = build_journey(PERSON, events, [])
    assert [s.title for s in journey.stages] == ["甲某投奔乙", "甲某刺配远方", "甲某夜走山寨"]
    assert [s.chapters for s in journey.stages] == [[3], [4], [20, 21]]


def test_the_end_is_the_last_stage_with_its_state() -> None:
    events = [_event(1, 3, "甲某投奔乙"), _event(2, 40, "甲某大闹法场", turning=True),
              _event(3, 90, "甲某中毒身亡", turning=True)]
    states = [_state("s1", "place", "山寨", 40), _state("s2", "status", "死亡（中毒）", 90)]
    journey = build_journey(PERSON, events, states)
    last = journey.stages[-1]
    assert last.title == "甲某中毒身亡" and [s.id for s in last.states] == ["s2"]
    assert [s.id for s in journey.stages[1].states] == ["s1"]


def test_an_end_told_after_the_last_event_is_a_stage_of_its_own() -> None:
    journey = build_journey(PERSON, [_event(1, 3, "甲某投奔乙")],
                            [_state("s9", "title", "节度使", 119)])
    assert [s.title for s in journey.stages] == ["甲某投奔乙", "节度使"]


def test_arcs_without_the_person_join_the_arc_before() -> None:
    events = [_event(1, 3, "甲某投奔乙"), _event(2, 30, "乙丙交锋", others=4),
              _event(3, 60, "甲某归降", turning=True)]
    journey = build_journey(PERSON, events, [])
    assert [s.title for s in journey.stages] == ["甲某投奔乙", "甲某归降"]
    assert journey.stages[0].chapters == [3, 30]


def test_a_long_life_has_at_most_twelve_stages_with_key_events_counted() -> None:
    events = [_event(n, n, f"甲某第{n}回大战" if n % 3 == 0 else "", turning=n % 3 == 0, others=4)
              for n in range(1, 121)]
    journey = build_journey(PERSON, events, [])
    assert len(journey.stages) == MAX_STAGES
    firsts = [s.chapters[0] for s in journey.stages]
    assert firsts == sorted(firsts) and firsts[0] == 1
    assert max(firsts[i + 1] - firsts[i] for i in range(len(firsts) - 1)) <= 20  # spread
    assert all(len(s.events) <= KEY_EVENTS for s in journey.stages)
    assert sum(len(s.events) + s.other_events for s in journey.stages) == 120
    assert all("甲某" in s.title for s in journey.stages)


def test_no_events_and_no_states_is_no_stage() -> None:
    assert build_journey(PERSON, [], []).stages == []
