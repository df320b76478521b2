"""Records from the genre's general cues: the 回目's headline events, a group oath, fates as states
and extractive chapter summaries — on the bundled novel's real chapters, and on made-up
sentences where a rule needs names the novel does not have."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from extract_support import book_blocks, book_titles, fresh_inputs

from core.text import normalize, to_simplified
from extract.corpus_tables import CorpusTables
from extract.cues import default_cues
from extract.fates import FATE_NOTE
from extract.huimu import halves
from extract.names import LexiconEntry, Roster
from extract.offline import OfflineExtractor
from extract.parts import ChapterPart
from extract.pipeline import Inputs
from extract.text import ChapterTexts
from ingest.chunking import Block
from ingest.locate import QuoteLocator
from kb.knowledge.genre import genre, is_death

CHAPTERS = [19, 23, 26, 40, 60, 119, 120]
SENTENCES: dict[str, Any] = json.loads(
    (Path(__file__).parent / "fixtures" / "records_sentences.json").read_text(encoding="utf-8"))
"""Made-up sentences (invented names), kept as data: the answerer's golden file harvests the
test modules' strings that read as questions."""


@pytest.fixture(scope="module")
def inputs() -> Inputs:
    return fresh_inputs()


@pytest.fixture(scope="module")
def parts(inputs: Inputs) -> dict[int, ChapterPart]:
    extractor = OfflineExtractor(inputs.roster, inputs.texts)
    return {p.chapter: p for p in extractor.extract_chapters(inputs.by_chapter(CHAPTERS))}


def _verbatim_and_unique(quote: str, chunk_id: str | None, chapter: int) -> None:
    locator = QuoteLocator(book_blocks())
    block = locator.block(chunk_id or "")
    assert block is not None and quote in block.text
    assert locator.locate(quote, chapter=chapter).chunk_id == chunk_id


@pytest.mark.parametrize("title, expected", [
    ("第二十三回　橫海郡柴進留賓　景陽岡武松打虎", ["横海郡柴进留宾", "景阳冈武松打虎"]),
    ("第一回 宴桃园豪杰三结义　斩黄巾英雄首立功", ["宴桃园豪杰三结义", "斩黄巾英雄首立功"]),
    ("第一百二十回　宋公明神聚蓼兒窪　徽宗帝夢游梁山泊", ["宋公明神聚蓼儿洼", "徽宗帝梦游梁山泊"]),
    ("第九回 甲乙丙丁戊己庚辛", ["甲乙丙丁", "戊己庚辛"]),  # no separator: cut in the middle
    ("引首", []),
])
def test_the_couplet_is_cut_into_its_halves(title: str, expected: list[str]) -> None:
    assert halves(title, genre().huimu) == expected


def test_each_chapter_heads_with_its_couplets_halves(parts: dict[int, ChapterPart]) -> None:
    for chapter, part in parts.items():
        headlines = [e for e in part.events if e.id.startswith("xhm_")]
        assert [e.title for e in headlines] == halves(book_titles()[chapter], genre().huimu) or \
            len(headlines) == len(halves(book_titles()[chapter], genre().huimu))
        for event in headlines:
            assert event.headline and event.participants and event.chapter == chapter
            _verbatim_and_unique(event.sources[0].quote, event.sources[0].chunk_id, chapter)
    tiger = next(e for e in parts[23].events if e.title == "景阳冈武松打虎")
    assert tiger.person_ids == ["wu_song"] and tiger.turning_point  # the half names him
    orders = [e.order for e in parts[23].events]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_a_half_naming_no_one_takes_the_people_of_its_block(parts: dict[int, ChapterPart]) -> None:
    """梁山泊好汉劫法场 names no person: its people are those who act most in the block that
    tells it — 宋江, whom the band saves, among them."""
    rescue = next(e for e in parts[40].events if e.title == "梁山泊好汉劫法场")
    assert "song_jiang" in rescue.person_ids and not rescue.turning_point


def _tiny(names: list[tuple[str, str]]) -> Roster:
    return Roster.build([LexiconEntry(id=i, name=n) for i, n in names], CorpusTables())


def _extract(text: str, roster: Roster, title: str = "") -> ChapterPart:
    block = Block(id="ch001_chunk_001", chapter=1, index=1, start=0, end=len(text), text=text)
    texts = ChapterTexts([block], {1: title} if title else None)
    return OfflineExtractor(roster, texts, default_cues()).extract_chapter(1, [block])


def test_a_group_oath_pairs_every_two_of_them() -> None:
    """Three names, then the oath: no cue stands between any two of them, yet all three are
    sworn brothers of each other, each relation quoting the passage that names both."""
    roster = _tiny([("zhao", "赵大郎"), ("qian", "钱二郎"), ("sun", "孙三郎"), ("li", "李四郎")])
    part = _extract(SENTENCES["oath"], roster)
    sworn = {tuple(sorted((r.source, r.target))) for r in part.relations
             if r.type == "sworn_brothers"}
    assert sworn == {("qian", "zhao"), ("qian", "sun"), ("sun", "zhao")}
    for relation in part.relations:
        quote = relation.sources[0].quote
        assert {relation.source, relation.target} <= {m.person for m in
                                                       roster.matcher(1).find(quote)}


@pytest.mark.parametrize("case", SENTENCES["relations"], ids=lambda c: c["why"])
def test_typed_relations_from_general_patterns(case: dict[str, Any]) -> None:
    roster = _tiny([("zhao", "赵大郎"), ("qian", "钱二郎")])
    part = _extract(case["text"], roster)
    found = {(r.type, r.source, r.target) for r in part.relations}
    assert (case["type"], case["source"], case["target"]) in found, found
    for relation in part.relations:
        named = {m.person for m in roster.matcher(1).find(relation.sources[0].quote)}
        assert {relation.source, relation.target} <= named  # each quote names both


def test_fates_are_states_of_who_dies(parts: dict[int, ChapterPart]) -> None:
    fates = {(s.person, s.chapter): s for p in parts.values() for s in p.states
             if s.description == FATE_NOTE}
    assert ("ximen_qing", 26) in fates  # 武松 … 割下西门庆的头来: the kill gives the fate
    assert ("wang_lun", 19) in fates
    assert {("wu_yong", 120), ("hua_rong", 120)} <= set(fates)  # 吴用、花荣自缢身死: both
    assert fates[("hua_rong", 120)].value == "自缢身亡"
    for state in fates.values():
        assert is_death(state) and state.kind == "status"
        for ref in state.sources:
            _verbatim_and_unique(ref.quote, ref.chunk_id, state.chapter)


@pytest.mark.parametrize("case", SENTENCES["fates"], ids=lambda c: c["why"] or c["text"][:6])
def test_fate_rules(case: dict[str, Any]) -> None:
    part = _extract(case["text"], _tiny([("zhao", "赵大郎"), ("qian", "钱二郎")]))
    assert {s.person for s in part.states if s.description == FATE_NOTE} == set(case["dead"])


def test_a_books_band_words_never_reach_another_book() -> None:
    """受了招安 is one book's status word: a book without its tables gets no such state, and
    a death stays a death."""
    roster = _tiny([("zhao", "赵大郎"), ("qian", "钱二郎")])
    part = _extract(SENTENCES["band"], roster)
    values = {s.value for s in part.states}
    assert values == {"病故"}
    assert any(r.type == "recruited" and (r.source, r.target) == ("zhao", "qian")
               for r in part.relations)


def test_every_chapter_has_a_summary_cited_verbatim(inputs: Inputs) -> None:
    extractor = OfflineExtractor(inputs.roster, inputs.texts)
    chapters = [0, 7, 23, 71, 120]
    for part in extractor.extract_chapters(inputs.by_chapter(chapters)):
        summary = part.summary
        assert summary is not None and summary.origin == "extracted"
        couplet = "，".join(halves(book_titles()[part.chapter], genre().huimu))
        assert summary.summary.startswith(couplet) and summary.title == book_titles()[part.chapter]
        assert 2 <= len(summary.sources) <= genre().summary.sentences
        for ref in summary.sources:
            assert ref.quote in summary.summary  # the summary says what the source says
            _verbatim_and_unique(ref.quote, ref.chunk_id, part.chapter)
        rest = summary.summary[len(couplet):]
        assert normalize(rest) == normalize("".join(r.quote for r in summary.sources))


def test_the_summary_reads_the_couplets_words(inputs: Inputs) -> None:
    """景阳冈武松打虎: a sentence of chapter 23's summary tells the tiger fight."""
    part = OfflineExtractor(inputs.roster, inputs.texts).extract_chapter(
        23, inputs.by_chapter([23])[23])
    assert part.summary is not None
    assert any("虎" in to_simplified(ref.quote) for ref in part.summary.sources)


def test_a_kinship_word_before_a_full_name_makes_family_of_the_one_of_its_surname() -> None:
    """长子赵丙 after 赵甲 spoke: family, though a speech stands between; 钱乙 of another surname,
    named nearer, is not."""
    roster = _tiny([("zhao_jia", "赵甲"), ("zhao_bing", "赵丙"), ("qian", "钱乙")])
    text = "赵甲大怒曰：“吾必报此仇！”钱乙劝之不听。长子赵丙曰：“儿愿随行。”"
    part = _extract(text, roster)
    family = {tuple(sorted((r.source, r.target))) for r in part.relations if r.type == "family"}
    assert family == {("zhao_bing", "zhao_jia")}
