"""Entity resolution and merging: aliases and scripts, duplicate relations, curated wins."""

from __future__ import annotations

import pytest
from extract_support import fresh_inputs

from extract.names import LexiconEntry, Roster
from extract.resolve import (
    absorb_relations,
    drop_shadowed_events,
    drop_shadowed_states,
    merge_people,
    merge_relations,
    noisy_or,
    relation_id,
)
from kb.knowledge.models import Event, Participant, Person, Relation, SourceRef, State


def ref(quote: str, chapter: int = 7, chunk: str | None = None) -> SourceRef:
    return SourceRef(chapter=chapter, quote=quote, chunk_id=chunk)


def rel(source: str, target: str, type_: str = "fought", directed: bool = False, chapter: int = 7,
        quote: str = "两个斗了五十合", confidence: float = 0.5, origin: str = "extracted") -> Relation:
    return Relation(id=relation_id(source, target, type_, directed), source=source, target=target,
                    type=type_, directed=directed, chapters=[chapter], sources=[ref(quote, chapter)],
                    confidence=confidence, origin=origin)  # type: ignore[arg-type]


CURATED = [
    Person(id="lin_chong", name="林冲", aliases=["豹子头", "林教头"], profile="curated profile",
           sources=[ref("林沖")]),
    Person(id="zhang_san", name="张三", aliases=["过街老鼠"]),
    Person(id="gao_yanei", name="高衙内", aliases=["衙内"]),
]
LEXICON = [
    LexiconEntry(id="lin_chong", name="林冲", aliases=["林武师", "豹子头林冲"], profile="lexicon profile",
                 first_chapter=7),
    LexiconEntry(id="zhang_wenyuan", name="张文远", aliases=["张三", "小张三"]),
    LexiconEntry(id="gao_yanei", name="高衙内", aliases=[]),
    LexiconEntry(id="song_jiang", name="宋江", aliases=["及時雨", "宋公明"]),
    LexiconEntry(id="a_one", name="甲乙", aliases=["好汉"]),
    LexiconEntry(id="a_two", name="丙丁", aliases=["好汉"]),
]


@pytest.fixture
def roster() -> Roster:
    return Roster.build(CURATED, LEXICON, curated_chapters=range(7, 12))


def test_curated_person_wins_and_gains_lexicon_names() -> None:
    people, scoped = merge_people(CURATED, [e.person() for e in LEXICON])
    lin = next(p for p in people if p.id == "lin_chong")
    assert lin.profile == "curated profile" and lin.origin == "curated"
    assert lin.aliases == ["豹子头", "林教头", "林武师", "豹子头林冲"]
    assert lin.first_chapter == 7 and lin.sources == CURATED[0].sources
    assert [p.id for p in people].count("lin_chong") == 1
    assert scoped == {"zhang_san"}  # 张三 is an alias of 张文远, not his name: no merge


def test_aliases_and_both_scripts_resolve_to_one_person(roster: Roster) -> None:
    for name in ("林冲", "林沖", "豹子頭", "林武師", "豹子头林冲"):
        assert roster.resolve(name) == "lin_chong"
    assert roster.resolve("及时雨") == roster.resolve("宋公明") == "song_jiang"


def test_an_alias_two_people_share_is_never_matched(roster: Roster) -> None:
    assert roster.resolve("好汉") is None
    assert roster.matcher(50).find("那好汉") == []


def test_curated_only_names_match_in_the_curated_chapters(roster: Roster) -> None:
    assert roster.resolve("张三", chapter=7) == "zhang_san"
    assert roster.resolve("张三", chapter=21) == "zhang_wenyuan"
    assert [m.person for m in roster.matcher(7).find("衙内道")] == ["gao_yanei"]
    assert roster.matcher(85).find("州衙内") == []  # a generic curated alias stays in its chapters
    assert [m.person for m in roster.matcher(85).find("高衙内")] == ["gao_yanei"]


def test_longest_name_wins(roster: Roster) -> None:
    found = roster.matcher(9).find("豹子头林冲大喜")
    assert [(m.person, m.form) for m in found] == [("lin_chong", "豹子头林冲")]


def test_scene_forms_of_the_real_roster() -> None:
    roster = fresh_inputs().roster
    assert roster.resolve("那妇人", chapter=24) == "pan_jinlian"
    assert roster.resolve("那妇人", chapter=45) == "pan_qiaoyun"
    assert roster.resolve("那妇人", chapter=80) is None
    assert roster.resolve("林沖") == "lin_chong"
    assert roster.resolve("武二郎") == roster.resolve("武都頭") == "wu_song"


def test_duplicate_relations_merge_with_all_sources() -> None:
    merged = merge_relations([
        rel("wu_song", "ximen", chapter=26, quote="武松斗西门庆", confidence=0.5),
        rel("ximen", "wu_song", chapter=26, quote="武松斗西门庆", confidence=0.5),  # same quote
        rel("wu_song", "ximen", chapter=25, quote="西门庆和武松斗", confidence=0.6),
    ])
    assert len(merged) == 1
    only = merged[0]
    assert [s.quote for s in only.sources] == ["西门庆和武松斗", "武松斗西门庆"]
    assert only.chapters == [25, 26]
    assert only.confidence == pytest.approx(1 - 0.5 * 0.5 * 0.4, abs=1e-3)
    assert only.id == "xrel_wu_song_ximen_fought_u"


def test_directed_relations_keep_their_direction() -> None:
    merged = merge_relations([rel("a", "b", "killed", True), rel("b", "a", "killed", True)])
    assert {(r.source, r.target) for r in merged} == {("a", "b"), ("b", "a")}


def test_noisy_or() -> None:
    assert noisy_or([0.5, 0.5]) == 0.75
    assert noisy_or([0.99, 0.99]) == 0.95
    assert noisy_or([]) == 0.0


def test_curated_relation_wins_and_absorbs_sources() -> None:
    curated = rel("lin_chong", "lu_zhishen", "sworn_brothers", quote="结义智深为兄", confidence=1.0,
                  origin="curated").model_copy(update={"id": "rel_curated", "description": "curated"})
    extracted = [rel("lu_zhishen", "lin_chong", "sworn_brothers", quote="林冲与智深结义", chapter=8),
                 rel("lin_chong", "lu_zhishen", "acquaintance", quote="林冲见智深")]
    merged = absorb_relations([curated], extracted)
    assert [r.id for r in merged] == ["rel_curated", extracted[1].id]
    winner = merged[0]
    assert winner.description == "curated" and winner.confidence == 1.0 and winner.origin == "curated"
    assert [s.quote for s in winner.sources] == ["结义智深为兄", "林冲与智深结义"]
    assert winner.chapters == [7, 8]


def test_opposite_directed_relations_are_not_duplicates() -> None:
    curated = rel("a", "b", "killed", True, origin="curated")
    merged = absorb_relations([curated], [rel("b", "a", "killed", True)])
    assert len(merged) == 2


def _event(id_: str, people: list[str], chunk: str, order: int) -> Event:
    return Event(id=id_, title=id_, chapter=7, order=order, sources=[ref("x" * 4, chunk=chunk)],
                 participants=[Participant(person=p) for p in people])


def test_curated_events_shadow_extracted_ones_of_the_same_block() -> None:
    curated = [_event("ev_1", ["a", "b"], "ch007_chunk_001", 7001)]
    extracted = [_event("xev_1", ["b", "c"], "ch007_chunk_001", 7101),
                 _event("xev_2", ["a", "c"], "ch007_chunk_002", 7102)]
    kept, replaced = drop_shadowed_events(curated, extracted)
    assert [e.id for e in kept] == ["xev_2"]
    assert replaced == {"xev_1": "ev_1"}


def test_curated_states_shadow_extracted_ones() -> None:
    def state(id_: str, value: str, chapter: int) -> State:
        return State(id=id_, person="lin_chong", kind="place", value=value, chapter=chapter,
                     sources=[ref("林冲来到")])

    curated = [state("st_1", "沧州牢城营", 9)]
    extracted = [state("x1", "牢城营", 9), state("x2", "沧州牢城营", 10), state("x3", "梁山泊", 11)]
    assert [s.id for s in drop_shadowed_states(curated, extracted)] == ["x3"]
