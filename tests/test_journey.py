"""The journey rule (kb.knowledge.journey): stages open on turning points and place/status states."""

from __future__ import annotations

from kb.knowledge.journey import build_journey
from kb.knowledge.models import Event, Participant, Person, SourceRef, State

REF = SourceRef(chapter=7, quote="林沖大喜", chunk_id="ch007_chunk_004")
PERSON = Person(id="p", name="甲")


def _event(order: int, chapter: int, place: str | None = None, turning: bool = False) -> Event:
    return Event(id=f"e{order}", title=f"事{order}", chapter=chapter, order=order, place=place,
                 turning_point=turning, participants=[Participant(person="p")],
                 sources=[SourceRef(chapter=chapter, quote=f"引文{order}")])


def _state(sid: str, kind: str, value: str, chapter: int) -> State:
    return State(id=sid, person="p", kind=kind, value=value, chapter=chapter,  # type: ignore[arg-type]
                 sources=[REF])


def test_place_of_single_events_does_not_open_stages() -> None:
    journey = build_journey(PERSON, [_event(1, 7, "酒店"), _event(2, 7, "庙")], [])
    assert [s.title for s in journey.stages] == ["酒店"]
    assert [e.id for e in journey.stages[0].events] == ["e1", "e2"]


def test_turning_point_and_states_open_stages() -> None:
    events = [_event(1, 7, "菜园"), _event(2, 7, "白虎堂", turning=True), _event(3, 8, "开封府"),
              _event(4, 9), _event(5, 9)]
    states = [_state("s2", "status", "配军", 8), _state("s1", "place", "东京", 7),
              _state("s3", "place", "路上", 8), _state("s4", "title", "教头", 7)]
    journey = build_journey(PERSON, events, states)
    assert [(s.title, s.place) for s in journey.stages] == [
        ("东京", "东京"), ("事2", "白虎堂"), ("路上", "路上")]
    assert [[e.id for e in s.events] for s in journey.stages] == [["e1"], ["e2"], ["e3", "e4",
                                                                                  "e5"]]
    assert [[x.id for x in s.states] for s in journey.stages] == [["s1", "s4"], [],
                                                                 ["s2", "s3"]]
    assert [s.chapters for s in journey.stages] == [[7], [7], [8, 9]]


def test_states_after_every_event() -> None:
    journey = build_journey(PERSON, [_event(1, 7, "东京")], [
        _state("s1", "place", "梁山泊", 11), _state("s2", "possession", "刀", 12)])
    assert [s.title for s in journey.stages] == ["东京", "梁山泊"]
    assert [x.id for x in journey.stages[-1].states] == ["s1", "s2"]


def test_sources_each_once_in_order() -> None:
    journey = build_journey(PERSON, [_event(1, 7), _event(2, 7)], [
        _state("s1", "title", "教头", 7), _state("s2", "title", "教头2", 7)])
    quotes = [s.quote for s in journey.stages[0].sources]
    assert quotes == ["引文1", "引文2", "林沖大喜"]


def test_no_events() -> None:
    assert build_journey(PERSON, [], []).stages == []
    journey = build_journey(PERSON, [], [_state("s1", "title", "教头", 7)])
    assert [s.title for s in journey.stages] == ["教头"]


def _extracted(sid: str, kind: str, value: str, chapter: int, confidence: float) -> State:
    return _state(sid, kind, value, chapter).model_copy(
        update={"origin": "extracted", "confidence": confidence})


def _plain(order: int, chapter: int) -> Event:
    return _event(order, chapter).model_copy(update={"origin": "extracted"})


def test_a_jump_in_chapters_opens_a_stage_and_single_events_merge() -> None:
    events = [_plain(1, 20), _plain(2, 20), _plain(3, 21), _plain(4, 40), _plain(5, 41),
              _plain(6, 60)]
    journey = build_journey(PERSON, events, [])
    assert [[e.id for e in s.events] for s in journey.stages] == [["e1", "e2", "e3"],
                                                                  ["e4", "e5", "e6"]]


def test_weak_extracted_states_do_not_open_stages() -> None:
    events = [_plain(1, 20), _plain(2, 21), _plain(3, 22), _plain(4, 22), _plain(5, 23), _plain(6, 23)]
    states = [_extracted("s1", "place", "清河县", 21, 0.45), _extracted("s2", "place", "阳谷县", 22, 0.6),
              _extracted("s3", "status", "落草入伙", 23, 0.6)]
    journey = build_journey(PERSON, events, states)
    assert [s.title for s in journey.stages] == ["事1", "阳谷县", "落草入伙"]
    assert [e.id for e in journey.stages[0].events] == ["e1", "e2"]  # 0.45: no stage


def test_single_event_stages_merge_into_the_one_before() -> None:
    events = [_plain(1, 20), _plain(2, 20), _plain(3, 22), _plain(4, 23)]
    states = [_extracted("s1", "place", "阳谷县", 22, 0.6), _extracted("s2", "status", "落草", 23, 0.6)]
    journey = build_journey(PERSON, events, states)
    assert [s.title for s in journey.stages] == ["事1"]
    assert [e.id for e in journey.stages[0].events] == ["e1", "e2", "e3", "e4"]


def test_an_extracted_value_opens_one_stage_only() -> None:
    events = [_plain(n, 20 + (n + 1) // 2) for n in range(1, 13)]  # two events a chapter, 21…26
    states = [_extracted("s1", "status", "落草", 22, 0.6), _extracted("s2", "place", "东京", 24, 0.6),
              _extracted("s3", "status", "落草", 26, 0.6)]
    journey = build_journey(PERSON, events, states)
    assert [s.title for s in journey.stages] == ["事1", "落草", "东京"]


def test_at_most_twenty_stages() -> None:
    events = [_plain(n, n * 6) for n in range(1, 61)]  # every event a jump of 6 chapters
    journey = build_journey(PERSON, events, [])
    assert len(journey.stages) <= 20
    assert sum(len(s.events) for s in journey.stages) == 60
