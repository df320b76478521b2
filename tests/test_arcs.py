"""A question naming a stretch of the story (kb.answering.arcs, CorpusProfile.arc_of), on
made-up records."""

from __future__ import annotations

from kb.answering.arcs import in_arc, timeline_within, without_arc
from kb.knowledge.models import Event, Participant, Person, Relation, SourceRef, State
from kb.knowledge.profile import Arc, CorpusProfile
from kb.knowledge.views import Timeline

WAR = Arc(words=("征丙", "打丙"), first=10, last=12)


def _event(chapter: int) -> Event:
    return Event(id=f"ev_{chapter}", chapter=chapter, order=chapter * 10, title="甲出战",
                 summary="甲出战。", participants=[Participant(person="jia", role="交手者")],
                 sources=[SourceRef(quote="甲出战", chapter=chapter)])


def test_the_longest_word_a_question_holds_names_the_arc() -> None:
    other = Arc(words=("丙",), first=1, last=2)
    profile = CorpusProfile(arcs=(other, WAR))
    assert profile.arc_of("征丙时甲做了什么") == WAR
    assert profile.arc_of("甲做了什么") is None
    assert profile.arc_of("甲为什么要征丙") is None  # what is asked, not when


def test_records_of_the_arcs_chapters_only() -> None:
    person = Person(id="jia", name="甲", sources=[SourceRef(quote="甲者", chapter=1)])
    late = Relation(id="rel", source="jia", target="yi", type="enemy",
                    sources=[SourceRef(quote="甲乙", chapter=3), SourceRef(quote="甲乙", chapter=11)])
    early = Relation(id="rel2", source="jia", target="yi", type="friend",
                     sources=[SourceRef(quote="甲乙", chapter=3)])
    assert in_arc(person, WAR) and in_arc(late, WAR) and not in_arc(early, WAR)
    state = State(id="st", person="jia", kind="status", value="死亡", chapter=12,
                  sources=[SourceRef(quote="甲死", chapter=12)])
    timeline = timeline_within(Timeline(person, [_event(9), _event(10), _event(13)], [state]), WAR)
    assert [e.chapter for e in timeline.events] == [10] and timeline.states == [state]


def test_the_question_is_planned_without_the_arcs_words() -> None:
    assert without_arc("征丙时甲做了什么", WAR).split() == ["甲做了什么"]
    assert without_arc("甲打丙的时候杀了谁", WAR).split() == ["甲", "杀了谁"]
    assert without_arc("打丙期间征丙时", WAR).split() == []


def test_after_a_death_is_the_chapters_from_it_on() -> None:
    from kb.answering.arcs import after_death

    person = Person(id="jia", name="甲", sources=[SourceRef(quote="甲者", chapter=1)])
    death = State(id="st", person="jia", kind="status", value="死亡（中箭）", chapter=60,
                  sources=[SourceRef(quote="甲死了", chapter=60)])
    timeline = Timeline(person, [], [death])
    arc = after_death("甲死后谁当了寨主", [("jia", "甲")], lambda _: timeline, 120)
    assert arc is not None and (arc.first, arc.last, arc.person) == (60, 120, "jia")
    assert arc.words == ("甲死后",) and without_arc("甲死后谁当了寨主", arc).split() == ["谁当了寨主"]
    assert after_death("甲后来怎么样了", [("jia", "甲")], lambda _: timeline, 120) is None
    alive = Timeline(person, [], [])
    assert after_death("甲死后谁当了寨主", [("jia", "甲")], lambda _: alive, 120) is None
