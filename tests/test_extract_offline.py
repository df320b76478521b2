"""The offline extractor on the real corpus: quotes verified in their blocks, cues, events, states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from extract_support import book_blocks, fresh_inputs

from ingest.extract.cues import RELATION_CUES
from ingest.extract.names import LexiconEntry, Roster
from ingest.extract.offline import OfflineExtractor, event_order
from ingest.extract.pairing import cue_pairs
from ingest.extract.parts import ChapterPart, load_parts
from ingest.extract.pipeline import Inputs, Paths, run
from ingest.extract.report import quality_report
from ingest.normalize import normalize, to_simplified
from kb.bundle import load_bundle
from kb.models import Relation
from kb.settings import Settings
from kb.sources import QuoteLocator

CHAPTERS = [7, 8, 9, 10, 11, 23, 24, 26]


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


def test_one_scene_event_per_block_with_two_people(parts: dict[int, ChapterPart]) -> None:
    events = parts[23].events
    assert events
    for event in events:
        index = int(event.id.rsplit("_", 1)[1])
        assert event.order == event_order(23, index) == 23 * 1000 + 100 + index
        assert len(event.participants) >= 2
        assert event.title and event.sources[0].chunk_id == f"ch023_chunk_{index:03d}"
    first = events[0]
    assert {"song_jiang", "wu_song"} <= set(first.person_ids)
    assert first.title.startswith(("宋江、武松", "武松、宋江"))
    orders = [e.order for p in parts.values() for e in p.events]
    assert len(orders) == len(set(orders))
    assert all(o % 1000 > 100 for o in orders)  # never collides with curated 1…99


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
