"""The key shared events of a pair are theirs: on the curated book, a pair of hub characters who
share a hundred scenes gets events about the two of them, not battles they both stood in."""

from __future__ import annotations

import pytest

from core.text import to_simplified
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import Event, Participant, Person, Relation, SourceRef
from kb.knowledge.pairs import build_pair
from providers.memory import MemoryProvider


def test_hub_pair_key_events_name_one_of_the_two(kb_curated_bundle: KnowledgeBundle) -> None:
    provider = MemoryProvider()
    provider.load(kb_curated_bundle)
    pair = provider.pair("song_jiang", "wu_yong")
    assert len(pair.shared_events) > 50  # a hub pair: far more scenes than key events
    names = [to_simplified(n) for p in (pair.a, pair.b)
             for n in [p.name, *kb_curated_bundle.person(p.id).aliases] if len(n) >= 2]
    linked = {eid for r in pair.relations for eid in r.events}
    key = [e for e in pair.shared_events if e.id in pair.key_events]
    middle = key[1:-1]  # the first and the last are kept whatever they are
    assert middle and all(any(n in to_simplified(e.title) for n in names) or e.id in linked
                          for e in middle), [e.title for e in middle]


def _person(pid: str, name: str, profile: str = "") -> Person:
    return Person(id=pid, name=name, profile=profile)


def _event(n: int, chapter: int, title: str, people: list[str], *, size: int = 0) -> Event:
    extra = [f"x{i}" for i in range(size)]
    return Event(id=f"e{n}", title=title, chapter=chapter, order=n,
                 participants=[Participant(person=p) for p in [*people, *extra]],
                 sources=[SourceRef(quote=f"引文{n}", chapter=chapter)])


def _relation(kind: str, chapter: int) -> Relation:
    return Relation(id=f"r-{kind}", source="a", target="b", type=kind, directed=True,
                    sources=[SourceRef(quote=f"关系{kind}", chapter=chapter)])


def test_a_plan_to_recruit_is_not_where_two_people_met() -> None:
    a, b = _person("a", "甲某"), _person("b", "乙某")
    meeting = [_event(1, 6, "甲某乙某相见", ["a", "b"])]
    assert build_pair(a, b, [_relation("recruited", 5)], meeting).first_met.chapter == 6
    assert build_pair(a, b, [_relation("recruited", 5)], []).first_met.chapter == 5
    assert build_pair(a, b, [_relation("enemy", 5)], meeting).first_met.chapter == 5


@pytest.mark.parametrize("kind", ["friend", "master_disciple", "siblings", "spouse"])
def test_a_tie_mentioned_before_the_two_share_a_scene_is_not_their_meeting(kind: str) -> None:
    a, b = _person("a", "甲某"), _person("b", "乙某")
    meeting = [_event(1, 8, "甲某乙某相见", ["a", "b"])]
    assert build_pair(a, b, [_relation(kind, 5)], meeting).first_met.chapter == 8
    assert build_pair(a, b, [_relation(kind, 5)], []).first_met.chapter == 5
    assert build_pair(a, b, [_relation("sworn_brothers", 5)], meeting).first_met.chapter == 5


def test_an_event_a_profile_names_is_kept_among_the_key_events() -> None:
    a = _person("a", "甲某", profile="乡里教书先生；智取丙物的主谋。")
    b = _person("b", "乙某")
    events = [_event(1, 1, "甲某乙某初会", ["a", "b"]),
              *[_event(n, 2, f"甲某议事第{n}场", ["a", "b"], size=5) for n in range(2, 12)],
              _event(12, 2, "乙某下药，智取丙物", ["a", "b"], size=5),
              _event(13, 40, "甲某乙某别离", ["a", "b"])]
    key = build_pair(a, b, [], events).key_events
    assert "e12" in key
    plain = build_pair(_person("a", "甲某"), b, [], events).key_events
    assert "e12" not in plain  # without the profile it is one more scene among ten alike


def test_the_curated_book_meets_where_the_text_does(kb_curated_bundle: KnowledgeBundle) -> None:
    provider = MemoryProvider()
    provider.load(kb_curated_bundle)
    met = provider.pair("wu_yong", "lu_junyi").first_met
    assert met is not None and met.chapter == 61  # the fortune-teller's visit, not the plan of 60


def test_a_text_built_pair_lists_kin_before_a_post() -> None:
    from kb.answering.compose_pair import ordered_relations

    a, b = _person("a", "甲某"), _person("b", "乙某")
    pair = build_pair(a, b, [_relation("superior", 3), _relation("parent_child", 5),
                             _relation("acquaintance", 1)], [])
    assert [r.type for r in ordered_relations(pair, set(), kin_first=True)] == \
        ["parent_child", "superior", "acquaintance"]
    assert [r.type for r in ordered_relations(pair, set())] == \
        ["superior", "parent_child", "acquaintance"]  # a curated book keeps its order
