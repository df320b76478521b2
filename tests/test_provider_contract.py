"""The RelationProvider contract, written once and run against every implementation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import BundleError, NotFound, QueryRejected
from kb.knowledge.bundle import KnowledgeBundle, bundle_from_records
from kb.knowledge.journey import MAX_STAGES, journey_of
from kb.knowledge.journey_store import JourneyDigest
from kb.knowledge.models import Event, Participant, Person, Relation, SourceRef
from kb.knowledge.names import pair_ids
from kb.knowledge.protocol import RelationProvider
from kb.knowledge.views import Pair
from providers.falkordb_provider import FalkorDBProvider
from providers.memory import MemoryProvider

QUOTE = SourceRef(chapter=7, quote="林沖大喜，就當結義智深為兄")
CYPHER_NAME = "') DETACH DELETE n //"


def _person(pid: str, name: str, aliases: tuple[str, ...] = ()) -> Person:
    return Person(id=pid, name=name, aliases=list(aliases), sources=[QUOTE])


def _relation(rid: str, source: str, target: str) -> Relation:
    return Relation(id=rid, source=source, target=target, type="friend", sources=[QUOTE])


class RelationProviderContract:
    """Subclasses give `empty_provider`; `provider` is it with the mini bundle loaded."""

    @pytest.fixture
    def empty_provider(self) -> Iterator[RelationProvider]:
        raise NotImplementedError

    @pytest.fixture
    def provider(self, empty_provider: RelationProvider,
                 kb_mini_bundle: KnowledgeBundle) -> RelationProvider:
        empty_provider.load(kb_mini_bundle)
        return empty_provider

    # -- names

    @pytest.mark.parametrize("name", ["林冲", "林沖", "豹子头", "豹子頭", "林教頭", " 林冲。"])
    def test_resolve_any_script_or_alias(self, provider: RelationProvider, name: str) -> None:
        assert provider.resolve(name).id == "lin_chong"

    def test_resolve_traditional_alias(self, provider: RelationProvider) -> None:
        assert provider.resolve("魯達").id == "lu_zhishen"
        assert provider.resolve("花和尚").id == "lu_zhishen"

    def test_unknown_name_suggests_closest(self, provider: RelationProvider) -> None:
        with pytest.raises(NotFound) as caught:
            provider.resolve("林聪")
        assert "林冲" in caught.value.suggestions
        assert str(caught.value).startswith("unknown person '林聪'; closest: ")

    @pytest.mark.parametrize("key", ["lin_chong", "林冲", "林沖", "豹子头", "林教頭"])
    def test_person_id_from_id_name_or_alias(self, provider: RelationProvider, key: str) -> None:
        assert provider.person_id(key) == "lin_chong"

    def test_person_id_of_unknowns(self, provider: RelationProvider) -> None:
        with pytest.raises(NotFound) as by_name:
            provider.person_id("林聪")
        assert "林冲" in by_name.value.suggestions
        with pytest.raises(NotFound) as by_id:
            provider.person_id("lin_chon")
        assert by_id.value.suggestions[0] == "lin_chong"

    def test_cypher_looking_name_is_just_unknown(self, provider: RelationProvider) -> None:
        before = provider.stats()
        with pytest.raises(NotFound):
            provider.resolve(CYPHER_NAME)
        with pytest.raises(NotFound):
            provider.person(CYPHER_NAME)
        assert provider.stats() == before

    def test_people_by_first_chapter(self, provider: RelationProvider) -> None:
        people = provider.people()
        assert [p.id for p in people][:3] == ["gao_qiu", "lu_zhishen", "lin_chong"]
        assert len(people) == 10

    def test_unknown_person_id(self, provider: RelationProvider) -> None:
        with pytest.raises(NotFound) as caught:
            provider.person("lin_chon")
        assert caught.value.suggestions[0] == "lin_chong"

    # -- pair

    def test_pair_relations_both_ways_and_shared_events(self, provider: RelationProvider
                                                        ) -> None:
        pair = provider.pair("lin_chong", "lu_zhishen")
        assert (pair.a.id, pair.b.id) == ("lin_chong", "lu_zhishen")
        assert [r.id for r in pair.relations] == ["rel_sworn", "rel_rescue"]
        assert [e.id for e in pair.shared_events] == ["ev_sworn", "ev_yezhulin_rescue"]
        sworn = pair.relations[0].sources[0]
        assert sworn.chapter == 7 and sworn.chunk_id and sworn.chunk_id.startswith("ch007_")
        rescue = pair.shared_events[1].sources[0]
        assert rescue.chapter == 9 and rescue.chunk_id == "ch009_chunk_001"

    def test_pair_is_symmetric(self, provider: RelationProvider) -> None:
        ab, ba = provider.pair("lin_chong", "lu_zhishen"), provider.pair("lu_zhishen", "lin_chong")
        assert ab.relations == ba.relations and ab.shared_events == ba.shared_events

    def test_pair_without_links(self, provider: RelationProvider) -> None:
        pair = provider.pair("gao_qiu", "zhu_gui")
        assert pair.relations == [] and pair.shared_events == []

    @pytest.mark.parametrize(("a", "b"), [("lin_chong", "lu_zhishen"), ("lu_zhishen", "lin_chong"),
                                          ("gao_qiu", "zhu_gui"), ("zhu_gui", "gao_qiu")])
    def test_pair_json_is_the_pair(self, provider: RelationProvider, a: str, b: str) -> None:
        sent = Pair.model_validate_json(provider.pair_json(a, b))
        assert sent == provider.pair(a, b) and (sent.a.id, sent.b.id) == (a, b)

    def test_pair_errors(self, provider: RelationProvider) -> None:
        with pytest.raises(QueryRejected):
            provider.pair("lin_chong", "lin_chong")
        with pytest.raises(QueryRejected):
            provider.pair_json("lin_chong", "lin_chong")
        with pytest.raises(NotFound):
            provider.pair("lin_chong", "nobody")
        with pytest.raises(NotFound):
            provider.pair_json("nobody", "lin_chong")

    # -- records

    def test_record_event_links(self, provider: RelationProvider) -> None:
        view = provider.record("ev_yezhulin_rescue")
        assert view.kind == "event" and view.record.id == "ev_yezhulin_rescue"
        links = {(x.kind, x.id, x.role) for x in view.linked}
        assert ("person", "lu_zhishen", "救人者") in links
        assert ("relation", "rel_rescue", None) in links
        assert ("chapter", "ch009", None) in links
        assert view.sources[0].chunk_id == "ch009_chunk_001"

    def test_record_relation_links(self, provider: RelationProvider) -> None:
        view = provider.record("rel_rescue")
        assert [(x.kind, x.id, x.role) for x in view.linked] == [
            ("person", "lu_zhishen", "source"), ("person", "lin_chong", "target"),
            ("event", "ev_yezhulin_rescue", None)]
        assert view.linked[2].title == "鲁智深大闹野猪林"

    def test_record_person_state_chapter(self, provider: RelationProvider) -> None:
        person = provider.record("lin_chong")
        assert {x.id for x in person.linked if x.kind == "state"} == {
            "st_lin_1", "st_lin_2", "st_lin_3", "st_lin_4", "st_lin_5"}
        state = provider.record("st_lin_4")
        assert [(x.kind, x.id) for x in state.linked] == [("person", "lin_chong")]
        chapter = provider.record("ch009")
        assert [x.id for x in chapter.linked] == ["ev_chaijin", "ev_hong", "ev_yezhulin_rescue"]

    def test_unknown_record(self, provider: RelationProvider) -> None:
        with pytest.raises(NotFound) as caught:
            provider.record("ev_swron")
        assert "ev_sworn" in caught.value.suggestions

    # -- person timelines

    def test_events_and_states_in_book_order(self, provider: RelationProvider) -> None:
        events = provider.events_of("lin_chong")
        assert [e.order for e in events] == sorted(e.order for e in events)
        assert len(events) == 9
        assert [s.id for s in provider.states_of("lin_chong")] == [
            "st_lin_1", "st_lin_2", "st_lin_3", "st_lin_4", "st_lin_5"]

    def test_journey(self, provider: RelationProvider) -> None:
        journey = journey_of(provider, "lin_chong")
        titles = [s.title for s in journey.stages]
        listed = [e.title for s in journey.stages for e in s.events]
        assert 2 <= len(titles) <= MAX_STAGES and "鲁智深大闹野猪林" in listed
        assert all(s.title in [e.title for e in s.events] for s in journey.stages)
        firsts = [s.chapters[0] for s in journey.stages]
        assert firsts == sorted(firsts)
        assert all(stage.sources for stage in journey.stages)

    def test_stored_journey_is_the_rule(self, provider: RelationProvider) -> None:
        assert provider.journey("lin_chong") == journey_of(provider, "lin_chong")
        with pytest.raises(NotFound):
            provider.journey("nobody")

    def test_kept_journey_digest_is_the_stored_one(self, provider: RelationProvider) -> None:
        stored = provider.journey_digest_json(provider.person_id("林冲"))  # read once: kept
        assert provider.kept_journey_digest_json("林冲") == stored
        assert provider.kept_journey_digest_json("lin_chong") == stored
        assert provider.kept_journey_digest_json("豹子头") == stored
        assert provider.kept_journey_digest_json("nobody at all") is None

    def test_journey_digest_and_pages(self, provider: RelationProvider) -> None:
        journey = provider.journey("lin_chong")
        digest = provider.journey_digest("lin_chong")
        assert JourneyDigest.model_validate_json(provider.journey_digest_json("lin_chong")) == digest
        assert [s.title for s in digest.stages] == [s.title for s in journey.stages]
        assert digest.events == len(provider.events_of("lin_chong"))
        paged = [e.id for number in range(1, len(digest.stages) + 1)
                 for e in provider.stage_events("lin_chong", number, 0, 200).events]
        assert paged == [e.id for e in provider.events_of("lin_chong")]
        page = provider.stage_events("lin_chong", 1, 1, 1)
        assert page.offset == 1 and page.limit == 1 and len(page.events) <= 1
        with pytest.raises(NotFound):
            provider.stage_events("lin_chong", len(digest.stages) + 1)
        with pytest.raises(QueryRejected):
            provider.stage_events("lin_chong", 1, 0, 0)

    # -- path and neighbors

    def test_path_through_others(self, provider: RelationProvider) -> None:
        result = provider.path("lu_zhishen", "zhu_gui")
        assert result.found
        assert [p.id for p in result.people] == ["lu_zhishen", "lin_chong", "wang_lun", "zhu_gui"]
        assert [[r.id for r in hop.relations] for hop in result.hops] == [
            ["rel_sworn", "rel_rescue"], ["rel_wang_lin"], ["rel_wang_zhu"]]

    def test_path_limits(self, provider: RelationProvider) -> None:
        assert not provider.path("lu_zhishen", "zhu_gui", max_hops=2).found
        assert not provider.path("dong_chao", "lin_chong").found
        same = provider.path("lin_chong", "lin_chong")
        assert same.found and [p.id for p in same.people] == ["lin_chong"] and same.hops == []
        for hops in (0, 5):
            with pytest.raises(QueryRejected):
                provider.path("lin_chong", "wang_lun", max_hops=hops)

    def test_path_tie_takes_smallest_ids(self, empty_provider: RelationProvider,
                                         kb_blocks: list) -> None:
        people = [_person(x, f"人{x}") for x in "abcd"]
        relations = [_relation("r1", "a", "c"), _relation("r2", "c", "d"),
                     _relation("r3", "a", "b"), _relation("r4", "d", "b")]
        empty_provider.load(bundle_from_records(people=people, relations=relations,
                                                blocks=kb_blocks))
        assert [p.id for p in empty_provider.path("a", "d").people] == ["a", "b", "d"]
        assert [p.id for p in empty_provider.path("d", "a").people] == ["d", "b", "a"]

    def test_a_shared_name_in_a_pair_is_the_one_beside_the_other(
            self, empty_provider: RelationProvider, kb_blocks: list) -> None:
        """Two people called 丙婆: named with 甲 it is the one 甲 knows, with 乙 the other; named
        with someone who knows neither, or alone, the ambiguity stands and lists both."""
        people = [_person("a", "甲某"), _person("b", "乙某"), _person("c", "丁某"),
                  _person("p1", "丙婆"), _person("p2", "丙婆")]
        relations = [_relation("r1", "a", "p1"), _relation("r2", "b", "p2")]
        empty_provider.load(bundle_from_records(people=people, relations=relations,
                                                blocks=kb_blocks))
        assert pair_ids(empty_provider, "甲某", "丙婆") == ("a", "p1")
        assert pair_ids(empty_provider, "丙婆", "乙某") == ("p2", "b")
        with pytest.raises(NotFound) as caught:
            pair_ids(empty_provider, "丁某", "丙婆")
        assert caught.value.candidates == ["p1", "p2"]
        with pytest.raises(NotFound):
            pair_ids(empty_provider, "甲某", "戊某")

    def test_a_scene_their_relation_cites_is_theirs_but_not_where_they_met(
            self, empty_provider: RelationProvider, kb_blocks: list) -> None:
        """甲 beats 丙 on 乙's behalf (乙 is not there) and the relation between 甲 and 乙 cites
        it: the scene is one of the pair's shared events, but they first met where both were."""
        people = [_person("a", "甲某"), _person("b", "乙某"), _person("c", "丙某")]
        met = SourceRef(chapter=9, quote="認得是魯智深")
        events = [
            Event(id="e_for_b", title="甲某打丙某", chapter=7, order=7000, sources=[QUOTE],
                  participants=[Participant(person="a"), Participant(person="c")]),
            Event(id="e_both", title="甲某乙某相见", chapter=9, order=9000, sources=[met],
                  participants=[Participant(person="a"), Participant(person="b")]),
        ]
        tie = Relation(id="r_ab", source="a", target="b", type="friend", sources=[QUOTE],
                       events=["e_for_b", "e_both"])
        empty_provider.load(bundle_from_records(people=people, events=events, relations=[tie],
                                                blocks=kb_blocks))
        pair = empty_provider.pair("b", "a")
        assert [e.id for e in pair.shared_events] == ["e_for_b", "e_both"]
        assert pair.cited_only == ["e_for_b"] and pair.scenes_of_both() == {"e_both"}
        assert pair.first_met is not None and pair.first_met.chapter == 9
        assert [e.id for e in empty_provider.pair("a", "c").shared_events] == ["e_for_b"]

    def test_neighbors(self, provider: RelationProvider) -> None:
        neighbors = provider.neighbors("lin_chong")
        assert neighbors[0].person.id == "lu_zhishen" and len(neighbors[0].relations) == 2
        assert {n.person.id for n in neighbors} == {
            "lu_zhishen", "gao_qiu", "lu_qian", "chai_jin", "hong_jiaotou", "wang_lun"}
        assert provider.neighbors("zhu_gui")[0].person.id == "wang_lun"

    # -- load and stats

    def test_stats(self, provider: RelationProvider) -> None:
        stats = provider.stats()
        assert (stats.people, stats.events, stats.relations, stats.states, stats.chapters) == (
            10, 9, 10, 5, 1)
        assert stats.relation_types["benefactor"] == 2
        assert stats.sources == 35

    def test_empty_store(self, empty_provider: RelationProvider) -> None:
        assert empty_provider.people() == []
        assert empty_provider.stats().people == 0
        with pytest.raises(NotFound):
            empty_provider.resolve("林冲")

    def test_replayed_load_creates_no_duplicates(self, provider: RelationProvider,
                                                 kb_mini_bundle: KnowledgeBundle) -> None:
        before = (provider.stats(), provider.pair("lin_chong", "lu_zhishen"))
        report = provider.load(kb_mini_bundle)
        assert report.people == 10
        assert (provider.stats(), provider.pair("lin_chong", "lu_zhishen")) == before

    def test_invalid_bundle_leaves_previous_graph(self, provider: RelationProvider,
                                                  kb_mini_bundle: KnowledgeBundle) -> None:
        before = provider.stats()
        broken = KnowledgeBundle(people=kb_mini_bundle.people,
                                 relations=[_relation("r_bad", "lin_chong", "nobody")])
        with pytest.raises(BundleError, match="r_bad"):
            provider.load(broken)
        assert provider.stats() == before
        assert provider.resolve("豹子头").id == "lin_chong"

    def test_load_replaces_everything(self, provider: RelationProvider,
                                      kb_blocks: list) -> None:
        provider.load(bundle_from_records(people=[_person("a", "甲")], blocks=kb_blocks))
        assert [p.id for p in provider.people()] == ["a"]
        with pytest.raises(NotFound):
            provider.resolve("林冲")

    def test_cypher_looking_names_are_data(self, empty_provider: RelationProvider,
                                           kb_blocks: list) -> None:
        odd = _person("odd", CYPHER_NAME, ('x" RETURN 1 //', "MATCH (n) DETACH DELETE n"))
        people = [odd, _person("b", "乙")]
        event = Event(id="e1", title="'; DROP", chapter=7, order=1, place="}{",
                      participants=[Participant(person="odd"), Participant(person="b")],
                      sources=[QUOTE])
        empty_provider.load(bundle_from_records(
            people=people, events=[event], relations=[_relation("r\"1", "odd", "b")],
            blocks=kb_blocks))
        assert empty_provider.resolve(CYPHER_NAME).id == "odd"
        assert empty_provider.resolve('x" RETURN 1 //').id == "odd"
        pair = empty_provider.pair("odd", "b")
        assert [r.id for r in pair.relations] == ['r"1'] and pair.shared_events[0].place == "}{"
        assert empty_provider.stats().people == 2


class TestMemoryProvider(RelationProviderContract):
    @pytest.fixture
    def empty_provider(self) -> Iterator[RelationProvider]:
        provider = MemoryProvider()
        yield provider
        provider.close()


@pytest.mark.falkordb
class TestFalkorDBProvider(RelationProviderContract):
    @pytest.fixture
    def empty_provider(self, kb_falkordb: FalkorDBProvider) -> Iterator[RelationProvider]:
        yield kb_falkordb


PAIR_SAMPLE = 30
"""People whose every pair and path is compared (all of them on a small bundle; on the whole
book a seeded sample with the hubs, since 630² pairs would take minutes and add nothing)."""


def _sample(bundle: KnowledgeBundle) -> list[str]:
    ids = sorted(p.id for p in bundle.people)
    if len(ids) <= PAIR_SAMPLE:
        return ids
    by_degree = Counter(pid for r in bundle.relations for pid in (r.source, r.target))
    hubs = [pid for pid, _ in by_degree.most_common(PAIR_SAMPLE // 3)]
    rest = random.Random(7).sample([i for i in ids if i not in hubs], PAIR_SAMPLE - len(hubs))
    return hubs + rest


def _resolved(provider: RelationProvider, name: str) -> object:
    """The person a name denotes, or the NotFound (an alias two people share) with its message."""
    try:
        return provider.resolve(name)
    except NotFound as exc:
        return ("not found", str(exc), exc.suggestions)


def _all_answers(provider: RelationProvider, bundle: KnowledgeBundle) -> list[object]:
    ids = [p.id for p in bundle.people]
    answers: list[object] = [provider.people(), provider.stats().model_copy(
        update={"backend": "", "graph": ""})]
    for a in ids:
        answers += [journey_of(provider, a), provider.journey(a), provider.journey_digest(a),
                    provider.neighbors(a), provider.events_of(a), provider.states_of(a)]
    sample = _sample(bundle)
    for a in sample:
        answers += [provider.pair(a, b) for b in sample if b != a]
        answers += [provider.path(a, b) for b in sample]
    answers += [provider.record(r.id) for r in bundle.records()]
    answers += [_resolved(provider, name) for p in bundle.people for name in p.all_names]
    answers += [_person_id(provider, key) for p in bundle.people for key in (p.id, *p.all_names)]
    return answers


def _person_id(provider: RelationProvider, key: str) -> object:
    try:
        return provider.person_id(key)
    except NotFound as exc:
        return ("not found", str(exc), exc.suggestions)


@pytest.mark.falkordb
@pytest.mark.parametrize("which", ["mini", pytest.param("curated", marks=pytest.mark.slow)])
def test_identical_answers(which: str, request: pytest.FixtureRequest,
                           kb_falkordb: FalkorDBProvider) -> None:
    """Every operation over every person, pair, record and name: FalkorDB == networkx."""
    bundle: KnowledgeBundle = request.getfixturevalue(f"kb_{which}_bundle")
    memory = MemoryProvider()
    memory.load(bundle)
    kb_falkordb.load(bundle)
    for mine, theirs in zip(_all_answers(memory, bundle), _all_answers(kb_falkordb, bundle),
                            strict=True):
        assert mine == theirs


_edges = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)).filter(lambda e: e[0] != e[1]),
                  max_size=14)


@pytest.mark.falkordb
@given(edges=_edges)
@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_graphs_same_shortest_paths(edges: list[tuple[int, int]],
                                           kb_falkordb: FalkorDBProvider,
                                           kb_blocks: list) -> None:
    """On random relation graphs both providers give the smallest of networkx's shortest paths."""
    ids = [f"p{i}" for i in range(8)]
    relations = [_relation(f"r{n}", f"p{a}", f"p{b}") for n, (a, b) in enumerate(edges)]
    bundle = bundle_from_records(people=[_person(i, f"人{i}") for i in ids],
                                 relations=relations, blocks=kb_blocks)
    memory = MemoryProvider()
    memory.load(bundle)
    kb_falkordb.load(bundle)
    graph = nx.Graph([(r.source, r.target) for r in relations])
    graph.add_nodes_from(ids)
    for a in ids:
        for b in ids:
            expected = min(nx.all_shortest_paths(graph, a, b), default=[]) if nx.has_path(
                graph, a, b) else []
            expected = expected if len(expected) <= 5 else []
            found = memory.path(a, b)
            assert [p.id for p in found.people] == expected
            assert kb_falkordb.path(a, b) == found
