"""The offline extractor on the real corpus: quotes verified in their blocks, cues, events, states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from extract_support import book_blocks, fresh_inputs

from core.settings import Settings
from core.text import normalize, to_simplified
from extract.cues import RELATION_CUES
from extract.names import LexiconEntry, Roster
from extract.offline import OfflineExtractor, event_order
from extract.pairing import cue_pairs
from extract.parts import ChapterPart, load_parts
from extract.pipeline import Inputs, Paths, run
from extract.report import quality_report
from ingest.locate import QuoteLocator
from kb.knowledge.bundle import load_bundle
from kb.knowledge.models import Relation

CHAPTERS = [3, 4, 7, 8, 9, 10, 11, 20, 21, 22, 23, 24, 26, 30, 94]


@pytest.fixture(scope="module")
def inputs() -> Inputs:
    return fresh_inputs()


@pytest.fixture(scope="module")
def parts(inputs: Inputs) -> dict[int, ChapterPart]:
    extractor = OfflineExtractor(inputs.roster, inputs.texts)
    return {p.chapter: p for p in extractor.extract_chapters(inputs.by_chapter(CHAPTERS))}


def _records(part: ChapterPart) -> list[Relation | object]:
    return [*part.events, *part.relations, *part.states]


def _relations(parts: dict[int, ChapterPart], type_: str) -> set[tuple[str, str]]:
    return {(r.source, r.target) for p in parts.values() for r in p.relations if r.type == type_}


def test_every_quote_is_in_its_block_and_unique_in_its_chapter(inputs: Inputs,
                                                                parts: dict[int, ChapterPart]) -> None:
    locator = QuoteLocator(book_blocks())
    checked = 0
    for part in parts.values():
        refs = [ref for record in _records(part) for ref in record.sources]  # type: ignore[attr-defined]
        refs += list(part.person_refs.values())
        for ref in refs:
            block = locator.block(ref.chunk_id)
            assert block is not None and block.chapter == part.chapter
            assert normalize(ref.quote) in normalize(block.text)
            assert ref.quote in block.text  # verbatim, original script
            assert len(ref.quote) <= 60
            located = locator.locate(ref.quote, chapter=ref.chapter)  # unique in the chapter
            assert located.chunk_id == ref.chunk_id
            checked += 1
    assert checked > 200


def test_relation_quotes_name_both_people(inputs: Inputs, parts: dict[int, ChapterPart]) -> None:
    for part in parts.values():
        matcher = inputs.roster.matcher(part.chapter)
        for relation in part.relations:
            quote = to_simplified(relation.sources[0].quote)
            named = {m.person for m in matcher.find(quote)}
            named |= {o for m in matcher.find(quote) for o, _ in inputs.roster.embedded(m.form, part.chapter)}
            assert {relation.source, relation.target} <= named, relation


def test_cue_relations_of_chapters_7_to_11(parts: dict[int, ChapterPart]) -> None:
    assert ("lin_chong", "lu_zhishen") in _relations(parts, "sworn_brothers")
    killed = _relations(parts, "killed")
    assert {("lin_chong", "lu_qian"), ("lin_chong", "fu_an"), ("lin_chong", "cha_bo")} <= killed
    assert ("lin_chong", "lin_niangzi") in _relations(parts, "spouse")  # from the name 林冲娘子 / 林冲的娘子
    assert ("zhang_jiaotou", "lin_chong") in _relations(parts, "father_in_law")  # 林冲的丈人张教头


def test_far_chapters_wu_song(inputs: Inputs, parts: dict[int, ChapterPart]) -> None:
    assert ("song_jiang", "song_qing") in _relations(parts, "family")  # 宋江和兄弟宋清
    assert ("chai_jin", "wu_song") in _relations(parts, "benefactor")  # 柴进…送与武松
    titles = {(s.person, s.kind, s.value) for s in parts[23].states}
    assert ("wu_song", "title", "步兵都头") in titles  # 参武松做了步兵都头
    places = {s.value for s in parts[23].states if s.person == "wu_song" and s.kind == "place"}
    assert "阳谷县" in places
    assert ("pan_jinlian", "wu_dalang") in _relations(parts, "spouse")  # 武大娶得那妇人 (scene form)


def test_scene_events_are_numbered_by_block_and_name_who_acts(parts: dict[int, ChapterPart]) -> None:
    events = parts[23].events
    assert events
    for event in events:
        index = int(event.id.rsplit("_", 1)[1])
        assert event.order == event_order(23, index) == 23 * 1000 + 100 + index
        assert event.participants
        assert event.title and event.sources[0].chunk_id == f"ch023_chunk_{index:03d}"
    first = events[0]
    assert {"song_jiang", "wu_song"} <= set(first.person_ids)
    assert first.title.startswith(("宋江、武松", "武松、宋江"))
    assert first.place != "清河县"  # they meet at 柴进's estate; 清河县 is only named in speech
    orders = [e.order for p in parts.values() for e in p.events]
    assert len(orders) == len(set(orders))
    assert all(o % 1000 > 100 for o in orders)  # never collides with curated 1…99


def test_tiger_fight_is_an_event_of_wu_song_alone(parts: dict[int, ChapterPart]) -> None:
    tiger = [e for e in parts[23].events if e.sources[0].chunk_id in
             {f"ch023_chunk_{n:03d}" for n in range(4, 13)}]
    assert any(e.person_ids == ["wu_song"] and "虎" in e.title for e in tiger)


def test_people_only_recalled_in_speech_are_not_participants(parts: dict[int, ChapterPart]) -> None:
    assert not [e.id for e in parts[24].events if "song_jiang" in e.person_ids]  # 宋江 is not there
    assert all(len(e.participants) < 6 for e in parts[24].events[:12])


def test_nobody_takes_part_before_entering_the_book(inputs: Inputs,
                                                    parts: dict[int, ChapterPart]) -> None:
    for part in parts.values():
        for event in part.events:
            for person in event.person_ids:
                first = inputs.roster.people[person].first_chapter
                assert first is None or first <= part.chapter, (event.id, person)


def test_nicknames_and_verse_give_no_actions(parts: dict[int, ChapterPart]) -> None:
    titles = [e.title for p in (parts[3], parts[4]) for e in p.events]
    assert not [t for t in titles if "打虎" in t]  # 打虎将 is 李忠's nickname
    assert not [t for t in titles if "鲁智深" in t and "放火" in t]  # 放火杀人花和尚 is verse


def test_ambiguous_short_aliases_are_guarded(inputs: Inputs) -> None:
    assert not [m for m in inputs.roster.matcher(2).find("这浮浪子弟") if m.person == "yan_qing"]
    assert not [m for m in inputs.roster.matcher(3).find("张三来了") if m.person == "zhang_wenyuan"]
    assert [m.person for m in inputs.roster.matcher(21).find("张三来了")] == ["zhang_wenyuan"]
    assert not [m for m in inputs.roster.matcher(37).find("原来却是李大哥") if m.person == "li_kui"]


def test_typed_relations_of_the_whole_book(parts: dict[int, ChapterPart]) -> None:
    sworn = {tuple(sorted(pair)) for pair in _relations(parts, "sworn_brothers")}
    assert ("song_jiang", "wu_song") in sworn  # 受武二四拜，拜为义兄。」宋江大喜
    killed = _relations(parts, "killed")
    assert ("wu_song", "pan_jinlian") in killed  # 被武松揪倒 … 割下那妇人头来
    assert ("song_jiang", "yan_poxi") in killed  # 宋江一时怒起，杀了阎婆惜
    spouse = {tuple(sorted(pair)) for pair in _relations(parts, "spouse")}
    assert ("song_jiang", "yan_poxi") in spouse  # 婆惜，典与宋押司做外宅


def test_acquaintance_needs_a_meeting_cue(parts: dict[int, ChapterPart]) -> None:
    meeting = ("相见", "相会", "认得", "拜见", "参见", "拜识", "结识", "来见", "去见", "会见", "投见",
               "厮见", "相识", "问", "对", "向", "叫", "唤", "劝", "谢", "说与", "告诉", "扶起", "辞别",
               "别了", "拜辞", "寻", "访", "见了", "遇见", "撞见", "迎着", "赶上")
    for part in parts.values():
        for relation in part.relations:
            if relation.type == "acquaintance":
                quote = to_simplified(relation.sources[0].quote)
                assert any(word in quote for word in meeting), relation


def test_states_are_real_words_of_their_subject(parts: dict[int, ChapterPart]) -> None:
    states = {(s.person, s.kind, s.value) for p in parts.values() for s in p.states}
    assert ("lin_niangzi", "status", "自缢身亡") in states  # 闻说娘子被高太尉威逼亲事，自缢身死
    values = {s.value for p in parts.values() for s in p.states if s.kind == "title"}
    assert not [v for v in values if v.startswith(("下", "案", "一"))]  # 当下正先锋 / 当案一个叶孔目


def test_confidences_are_probabilities(parts: dict[int, ChapterPart]) -> None:
    for part in parts.values():
        for record in _records(part):
            assert 0 < record.confidence <= 1  # type: ignore[attr-defined]
            assert record.origin == "extracted"  # type: ignore[attr-defined]


def test_extraction_is_deterministic(inputs: Inputs, parts: dict[int, ChapterPart]) -> None:
    again = OfflineExtractor(inputs.roster, inputs.texts).extract_chapters(inputs.by_chapter([23, 24]))
    assert [p.model_dump() for p in again] == [parts[23].model_dump(), parts[24].model_dump()]


def _tiny_roster() -> Roster:
    lexicon = [LexiconEntry(id=i, name=n) for i, n in
               (("wu_song", "武松"), ("ximen", "西门庆"), ("song_jiang", "宋江"), ("li_kui", "李逵"),
                ("wu_yong", "吴用"))]
    return Roster.build([], lexicon, [])


def _pairs(text: str, type_: str) -> set[tuple[str, str]]:
    roster = _tiny_roster()
    mentions = roster.matcher(1).find(text)
    found = set()
    for cue in (c for c in RELATION_CUES if c.type == type_):
        for match in cue.pattern.finditer(text):
            pairs = cue_pairs(text, mentions, cue, match.start(), match.end())
            found |= {(p.source, p.target) for p in pairs}
    return found


@pytest.mark.parametrize("text, type_, expected", [
    ("武松杀了西门庆", "killed", {("wu_song", "ximen")}),
    ("西门庆被武松杀了", "killed", {("wu_song", "ximen")}),
    ("武松把西门庆杀了", "killed", {("wu_song", "ximen")}),
    ("武松要杀西门庆", "killed", set()),  # intent, not the act
    ("武松不曾杀西门庆", "killed", set()),  # negated
    ("宋江杀了李逵老小", "killed", set()),  # his household, not him
    ("宋江与吴用商议", "ally", {("song_jiang", "wu_yong")}),
    ("宋江、吴用、李逵都来商议", "ally", set()),  # a list of co-agents is no pair
    ("宋江大喜，便差李逵去", "superior", {("song_jiang", "li_kui")}),
    ("要追宋江，火急差李逵去", "superior", set()),  # 宋江 is not the one who sends
])
def test_cue_pairs(text: str, type_: str, expected: set[tuple[str, str]]) -> None:
    assert _pairs(text, type_) == expected


def test_quality_report_on_curated_chapters(inputs: Inputs) -> None:
    report = quality_report(inputs)
    assert report.chapters == [7, 8, 9, 10, 11]
    assert report.pairs.precision >= 0.5 and report.pairs.recall >= 0.2
    assert report.pairs.matched == len(report.matched_pairs)
    assert report.typed.matched <= report.pairs.matched


@pytest.mark.slow
def test_whole_book_bundle_and_single_chapter_rerun(tmp_path: Path) -> None:
    inputs = fresh_inputs()
    settings = Settings(data_dir=tmp_path)
    extractor = OfflineExtractor(inputs.roster, inputs.texts)
    summary = run(settings, inputs, extractor)
    merged = summary.merged
    assert merged["people"] >= 150 and merged["relations"] >= 500 and merged["events"] >= 1000
    paths = Paths.of(settings)
    bundle = load_bundle(paths.bundle, inputs.blocks)  # every quote located again, from disk
    assert bundle.counts() == merged
    assert all(r.sources for r in bundle.records())
    before = {p.name: p.read_bytes() for p in paths.parts.glob("ch*.json")}
    (paths.parts / "ch023.json").write_text("{}")  # damaged: only the re-extracted chapter is rewritten
    again = run(settings, inputs, extractor, chapters={23})
    assert again.chapters == [23]
    after = {p.name: p.read_bytes() for p in paths.parts.glob("ch*.json")}
    assert after == before
    assert again.merged == merged  # a replay creates no duplicates
    assert [p.chapter for p in load_parts(paths.parts, {23})] == [23]
    assert json.loads((paths.bundle / "people.jsonl").read_text().splitlines()[0])["id"]
