"""Entity resolution and merging: the lexicon roster, extracted ids to curated ones, duplicate
relations, the event rule, curated wins."""

from __future__ import annotations

import pytest
from extract_support import curated_bundle, fresh_inputs

from core.settings import DEFAULT_BUNDLE
from extract.names import LexiconEntry, Roster, read_lexicon
from extract.pipeline import LEXICON_FILE
from extract.report import event_matches, event_matches_in_block
from extract.resolve import (
    absorb_relations,
    drop_shadowed_states,
    id_map,
    merge_relations,
    noisy_or,
    relation_id,
    resolve_ids,
)
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import Event, Participant, Person, Relation, SourceRef, State

pytestmark = pytest.mark.slow  # the whole book's blocks


def ref(quote: str, chapter: int = 7, chunk: str | None = None, start: int | None = None,
        end: int | None = None) -> SourceRef:
    return SourceRef(chapter=chapter, quote=quote, chunk_id=chunk, start=start, end=end)


def rel(source: str, target: str, type_: str = "fought", directed: bool = False, chapter: int = 7,
        quote: str = "两个斗了五十合", confidence: float = 0.5, origin: str = "extracted") -> Relation:
    return Relation(id=relation_id(source, target, type_, directed), source=source, target=target,
                    type=type_, directed=directed, chapters=[chapter], sources=[ref(quote, chapter)],
                    confidence=confidence, origin=origin)  # type: ignore[arg-type]


LEXICON = [
    LexiconEntry(id="lin_chong", name="林冲", aliases=["林武师", "豹子头林冲", "豹子头"], first_chapter=7),
    LexiconEntry(id="zhang_wenyuan", name="张文远", aliases=["张三", "小张三"]),
    LexiconEntry(id="song_jiang", name="宋江", aliases=["及時雨", "宋公明"]),
    LexiconEntry(id="a_one", name="甲乙", aliases=["好汉"]),
    LexiconEntry(id="a_two", name="丙丁", aliases=["好汉"]),
]


@pytest.fixture
def roster() -> Roster:
    return Roster.build(LEXICON)


def test_aliases_and_both_scripts_resolve_to_one_person(roster: Roster) -> None:
    for name in ("林冲", "林沖", "林武師", "豹子头林冲"):
        assert roster.resolve(name) == "lin_chong"
    assert roster.resolve("豹子頭", chapter=7) == "lin_chong"
    assert roster.resolve("豹子头", chapter=6) is None  # an alias, before his first chapter
    assert roster.resolve("及时雨") == roster.resolve("宋公明") == "song_jiang"


def test_an_alias_two_people_share_is_resolved_by_its_passage(roster: Roster) -> None:
    """Never dropped: the person named before it in the passage is meant (by name lookup alone,
    without a passage, it stays unresolved)."""
    assert roster.resolve("好汉") is None
    assert [(m.person, m.form) for m in roster.matcher(50).find("甲乙道：那好汉来了")] == [
        ("a_one", "甲乙"), ("a_one", "好汉")]
    assert [(m.person, m.form) for m in roster.matcher(50).find("丙丁道：那好汉来了")] == [
        ("a_two", "丙丁"), ("a_two", "好汉")]
    assert roster.shared_forms()["好汉"] == ("a_one", "a_two")


def test_longest_name_wins(roster: Roster) -> None:
    found = roster.matcher(9).find("豹子头林冲大喜")
    assert [(m.person, m.form) for m in found] == [("lin_chong", "豹子头林冲")]


def test_the_real_roster_is_the_lexicon_and_never_the_curated_people() -> None:
    """The extractor is measured against the curated bundle, so it must not know its people: a
    person only the curated shards name is no one to the roster, and no curated-only id is ever
    produced."""
    roster = fresh_inputs().roster
    lexicon = {e.id for e in read_lexicon(DEFAULT_BUNDLE / LEXICON_FILE)}
    assert set(roster.people) == lexicon
    curated_only = [p for p in curated_bundle().people if p.id not in lexicon]
    assert len(curated_only) > 300  # the shards name far more people than the lexicon
    owners = {f.person for f in roster.forms}
    assert owners <= lexicon
    for person in curated_only:
        for chapter in (person.first_chapter or 1, 60):
            assert roster.resolve(person.name, chapter) != person.id


def test_scene_forms_of_the_real_roster() -> None:
    roster = fresh_inputs().roster
    assert roster.resolve("那妇人", chapter=24) == "pan_jinlian"
    assert roster.resolve("那妇人", chapter=45) == "pan_qiaoyun"
    assert roster.resolve("那妇人", chapter=80) is None
    assert roster.resolve("林沖") == "lin_chong"
    assert roster.resolve("武二郎") == roster.resolve("武都頭") == "wu_song"


CURATED = [
    Person(id="lin_chong", name="林冲", aliases=["豹子头"]),
    Person(id="song_jiang", name="宋江", aliases=["宋公明"]),
    Person(id="zhang_san", name="张三", aliases=["过街老鼠"]),
    Person(id="wang_ying", name="王英", aliases=["矮脚虎"]),
    Person(id="hero_a", name="甲", aliases=["好汉"]),
    Person(id="hero_b", name="乙", aliases=["好汉"]),
]


def test_extracted_people_resolve_to_curated_ids() -> None:
    found = [Person(id="lin_chong", name="林冲", origin="extracted"),  # same id: kept
             Person(id="gj_song", name="宋公明", origin="extracted"),  # a curated alias: mapped
             Person(id="wang_aihu", name="王英", origin="extracted"),  # the curated name: mapped
             Person(id="zhang_wenyuan", name="张文远", aliases=["张三"], origin="extracted"),
             Person(id="haohan", name="好汉", origin="extracted")]  # two curated people: neither
    assert id_map(CURATED, found) == {"gj_song": "song_jiang", "wang_aihu": "wang_ying"}


def _event(id_: str, people: list[str], chunk: str, order: int, chapter: int = 7,
           span: tuple[int, int] = (0, 4)) -> Event:
    return Event(id=id_, title=id_, chapter=chapter, order=order,
                 sources=[ref("x" * 4, chapter, chunk, *span)],
                 participants=[Participant(person=p) for p in people])


def test_resolving_rewrites_every_record_to_the_curated_ids() -> None:
    extracted = KnowledgeBundle(
        people=[Person(id="gj_song", name="宋公明", origin="extracted"),
                Person(id="li_kui", name="李逵", origin="extracted")],
        events=[_event("xev_1", ["gj_song", "li_kui", "song_jiang"], "ch038_chunk_001", 38101, 38)],
        relations=[rel("gj_song", "li_kui", chapter=38, quote="宋江李逵"),
                   rel("song_jiang", "li_kui", chapter=39, quote="宋公明李逵")],
        states=[State(id="xst_1", person="gj_song", kind="place", value="江州", chapter=38,
                      sources=[ref("宋江在江州", 38)])])
    resolved = resolve_ids(extracted, {"gj_song": "song_jiang"})
    assert [p.id for p in resolved.people] == ["li_kui"]  # the curated 宋江 stands for him
    assert resolved.events[0].person_ids == ["song_jiang", "li_kui"]  # once, in order
    (relation,) = resolved.relations  # the two relations are now one fact
    assert {relation.source, relation.target} == {"li_kui", "song_jiang"}
    assert relation.chapters == [38, 39] and len(relation.sources) == 2
    assert resolved.states[0].person == "song_jiang"


def test_the_event_rule() -> None:
    curated = _event("ev_1", ["a", "b", "c"], "ch007_chunk_002", 7001, span=(100, 120))
    assert event_matches(_event("x1", ["b", "a", "z"], "ch007_chunk_009", 7109), curated)  # two shared
    assert not event_matches(_event("x2", ["a", "z"], "ch007_chunk_002", 7102), curated)  # one of two
    assert event_matches(_event("x3", ["c"], "ch007_chunk_005", 7105), curated)  # all of one
    overlapping = _event("x4", ["z"], "ch007_chunk_002", 7102, span=(110, 130))
    assert event_matches(overlapping, curated)  # the quotes share characters
    assert not event_matches(_event("x5", ["z"], "ch007_chunk_002", 7102, span=(120, 130)), curated)
    assert not event_matches(_event("x6", ["a", "b"], "ch008_chunk_002", 8102, chapter=8), curated)
    # the stricter rule also wants the same block
    assert not event_matches_in_block(_event("x1", ["b", "a", "z"], "ch007_chunk_009", 7109), curated)
    assert event_matches_in_block(_event("x7", ["a", "b"], "ch007_chunk_002", 7102, span=(0, 4)), curated)
    assert event_matches_in_block(overlapping, curated)


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


def test_curated_states_shadow_extracted_ones() -> None:
    def state(id_: str, value: str, chapter: int) -> State:
        return State(id=id_, person="lin_chong", kind="place", value=value, chapter=chapter,
                     sources=[ref("林冲来到")])

    curated = [state("st_1", "沧州牢城营", 9)]
    extracted = [state("x1", "牢城营", 9), state("x2", "沧州牢城营", 10), state("x3", "梁山泊", 11)]
    assert [s.id for s in drop_shadowed_states(curated, extracted)] == ["x3"]
