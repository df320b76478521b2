"""The knowledge bundle: loading, validation errors that name file:line and id, quote location."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from kb_fixtures import KB_MINI

from core.errors import BundleError
from core.text import normalize
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import Chapter
from kb.knowledge.bundle import BUNDLE_FILES, KnowledgeBundle, bundle_from_records, load_bundle, write_bundle
from kb.knowledge.models import Person, SourceRef


@pytest.fixture
def bundle_dir(tmp_path: Path) -> Path:
    target = tmp_path / "bundle"
    shutil.copytree(KB_MINI, target)
    return target


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")


def _edit(directory: Path, name: str, line: int, **changes: object) -> None:
    rows = _lines(directory / name)
    rows[line - 1].update(changes)
    _write(directory / name, rows)


def _error(directory: Path, blocks: list[Block]) -> str:
    with pytest.raises(BundleError) as caught:
        load_bundle(directory, blocks)
    return str(caught.value)


def test_mini_bundle_resolves_every_source(kb_mini_bundle: KnowledgeBundle,
                                           kb_chapters: list[Chapter],
                                           kb_blocks: list[Block]) -> None:
    texts = {c.number: c.text for c in kb_chapters}
    blocks = {b.id: b for b in kb_blocks}
    for record in kb_mini_bundle.records():
        for ref in record.sources:
            assert ref.chunk_id and ref.start is not None and ref.end is not None
            block = blocks[ref.chunk_id]
            assert block.chapter == ref.chapter and block.start <= ref.start < ref.end <= block.end
            assert normalize(texts[block.chapter][ref.start:ref.end]) == normalize(ref.quote)
            assert normalize(ref.quote) in normalize(block.text)


def test_accessors(kb_mini_bundle: KnowledgeBundle) -> None:
    assert kb_mini_bundle.counts() == {"people": 10, "events": 9, "relations": 10, "states": 5,
                                       "chapters": 1}
    assert kb_mini_bundle.person("lin_chong") is not None
    assert kb_mini_bundle.event("lin_chong") is None
    assert kb_mini_bundle.kind_of("rel_sworn") == "relation"
    assert kb_mini_bundle.chapter("ch009") is not None
    assert kb_mini_bundle.get("nothing") is None


@pytest.mark.parametrize("size", [300, 1000])
def test_survives_a_change_of_chunking(size: int, kb_chapters: list[Chapter],
                                       kb_mini_bundle: KnowledgeBundle) -> None:
    """chapter + quote on disk: another chunking gives other chunk ids, same quotes and spans."""
    blocks = chunk_corpus(kb_chapters, size)
    other = load_bundle(KB_MINI, blocks)
    by_id = {b.id: b for b in blocks}
    for mine, theirs in zip(kb_mini_bundle.records(), other.records(), strict=True):
        for a, b in zip(mine.sources, theirs.sources, strict=True):
            assert (a.chapter, a.start, a.end) == (b.chapter, b.start, b.end)
            assert b.chunk_id is not None
            assert normalize(b.quote) in normalize(by_id[b.chunk_id].text)


def test_missing_file_is_empty(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    (bundle_dir / "states.jsonl").unlink()
    assert load_bundle(bundle_dir, kb_blocks).states == []


def test_invalid_json_names_file_and_line(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    with (bundle_dir / "events.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"id": "ev_broken", \n')
    message = _error(bundle_dir, kb_blocks)
    assert f"{bundle_dir / 'events.jsonl'}:10: ?: invalid JSON" in message


def test_model_error_names_line_and_id(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "relations.jsonl", 3, type="nemesis")
    message = _error(bundle_dir, kb_blocks)
    assert "relations.jsonl:3: rel_gao_lin: type: " in message and "nemesis" in message


def test_duplicate_id(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "states.jsonl", 2, id="lin_chong")
    message = _error(bundle_dir, kb_blocks)
    assert "states.jsonl:2: lin_chong: duplicate id (first at" in message
    assert "people.jsonl:1)" in message


def test_dangling_references(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "relations.jsonl", 1, target="nobody", events=["ev_sworn", "ev_none"])
    _edit(bundle_dir, "events.jsonl", 2, participants=[{"person": "ghost"}])
    _edit(bundle_dir, "states.jsonl", 5, person="ghost")
    message = _error(bundle_dir, kb_blocks)
    assert "relations.jsonl:1: rel_sworn: target 'nobody' is not a person" in message
    assert "relations.jsonl:1: rel_sworn: event 'ev_none' is not an event" in message
    assert "events.jsonl:2: ev_baihutang: participant 'ghost'" in message
    assert "states.jsonl:5: st_lin_5: person 'ghost'" in message
    assert "(4 problems)" in message


def test_duplicate_event_order(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "events.jsonl", 3, order=701)
    assert "events.jsonl:3: ev_yezhulin_plot: event order 701 already used by ev_sworn" in (
        _error(bundle_dir, kb_blocks))


def test_quote_not_found(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "events.jsonl", 1, sources=[{"chapter": 8, "quote": "林沖大喜，就當結義智深為兄"}])
    assert "events.jsonl:1: ev_sworn: sources[0]: quote '林沖大喜，就當結義智深為兄' not found in " \
           "chapter 8" in _error(bundle_dir, kb_blocks)


def test_quote_found_twice(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "people.jsonl", 7, sources=[{"chapter": 9, "quote": "柴進道"}])
    assert "people.jsonl:7: chai_jin: sources[0]: quote '柴進道' occurs more than once in " \
           "chapter 9; lengthen it" in _error(bundle_dir, kb_blocks)


def test_quote_across_two_blocks(bundle_dir: Path, kb_blocks: list[Block]) -> None:
    first, second = (b for b in kb_blocks if b.chapter == 9 and b.index in (1, 2))
    quote = first.text.rstrip()[-6:] + second.text[:6]
    _edit(bundle_dir, "people.jsonl", 1, sources=[{"chapter": 9, "quote": quote}])
    message = _error(bundle_dir, kb_blocks)
    assert "people.jsonl:1: lin_chong: sources[0]:" in message
    assert f"spans blocks {first.id} and {second.id}; shorten it" in message


def test_blocks_cut_at_another_length_cite_a_split_quote_to_its_first_block(
        bundle_dir: Path, kb_blocks: list[Block]) -> None:
    """`KBX_CHUNK_SIZE` other than the curation's must not refuse the whole bundle: the quote is
    cited to the block it begins in, and the answer's quote check reads on into the next."""
    from kb.answering.quotes import check_quote

    first, second = (b for b in kb_blocks if b.chapter == 9 and b.index in (1, 2))
    quote = first.text.rstrip()[-6:] + second.text[:6]
    _edit(bundle_dir, "people.jsonl", 1, sources=[{"chapter": 9, "quote": quote}])
    bundle = load_bundle(bundle_dir, kb_blocks, across_blocks=True)
    ref = next(p for p in bundle.people if p.id == "lin_chong").sources[0]
    assert ref.chunk_id == first.id and ref.end is not None and ref.end > first.end
    by_id = {b.id: b for b in kb_blocks}
    assert check_quote(quote, first.id, by_id.get).located
    assert not check_quote(quote, second.id, by_id.get).located  # it does not begin there
    assert not check_quote(second.text[:6] + first.text[:6], first.id, by_id.get).located


def test_quote_with_chunk_id_is_checked_in_that_chunk(bundle_dir: Path,
                                                      kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "people.jsonl", 2, sources=[
        {"chunk_id": "ch007_chunk_004", "quote": "洒家是關西魯達的便是"},
        {"chunk_id": "ch007_chunk_001", "quote": "洒家是關西魯達的便是"},
        {"chunk_id": "ch099_chunk_001", "quote": "洒家是關西魯達的便是"},
        {"chapter": 8, "chunk_id": "ch007_chunk_004", "quote": "洒家是關西魯達的便是"}])
    message = _error(bundle_dir, kb_blocks)
    assert "sources[0]" not in message
    assert "people.jsonl:2: lu_zhishen: sources[1]: quote '洒家是關西魯達的便是' not found in " \
           "ch007_chunk_001" in message
    assert "sources[2]: unknown chunk id 'ch099_chunk_001'" in message
    assert "sources[3]: chunk ch007_chunk_004 is in chapter 7, not 8" in message


def test_chapter_outside_corpus_and_bad_summary_id(bundle_dir: Path,
                                                   kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "chapters.jsonl", 1, id="chapter9",
          sources=[{"chapter": 40, "quote": "柴進直請到廳前"}])
    message = _error(bundle_dir, kb_blocks)
    assert "chapters.jsonl:1: chapter9: a chapter summary id must be ch009" in message
    assert "chapters.jsonl:1: chapter9: sources[0]: chapter 40 is not in the corpus" in message


def test_quote_without_chapter_searches_the_book(bundle_dir: Path,
                                                 kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "people.jsonl", 1, sources=[{"quote": "林沖大喜，就當結義智深為兄"}])
    person = load_bundle(bundle_dir, kb_blocks).person("lin_chong")
    assert person is not None and person.sources[0].chapter == 7
    _edit(bundle_dir, "people.jsonl", 1, sources=[{"quote": "林沖道"}])
    assert "found in chapters 7, 8, 9, 10, 11; give the chapter" in _error(bundle_dir, kb_blocks)


def test_simplified_quote_matches_traditional_text(bundle_dir: Path,
                                                   kb_blocks: list[Block]) -> None:
    _edit(bundle_dir, "people.jsonl", 1, sources=[{"chapter": 7, "quote": "林冲大喜,就当结义智深为兄"}])
    ref = load_bundle(bundle_dir, kb_blocks).people[0].sources[0]
    assert ref.chunk_id is not None and ref.chunk_id.startswith("ch007_")


def test_missing_directory(tmp_path: Path, kb_blocks: list[Block]) -> None:
    with pytest.raises(BundleError, match="no such bundle directory"):
        load_bundle(tmp_path / "nothing", kb_blocks)


def test_write_then_load_round_trip(tmp_path: Path, kb_mini_bundle: KnowledgeBundle,
                                    kb_blocks: list[Block]) -> None:
    write_bundle(kb_mini_bundle, tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted([*BUNDLE_FILES, "manifest.json"])
    first = json.loads((tmp_path / "out" / "people.jsonl").read_text("utf-8").splitlines()[0])
    assert first["sources"] == [{"chapter": 7, "quote": "這官人是八十萬禁軍鎗棒教頭林武師，名喚林沖"}]
    again = load_bundle(tmp_path / "out", kb_blocks)
    assert list(again.records()) == list(kb_mini_bundle.records())
    write_bundle(kb_mini_bundle, tmp_path / "kept", keep_chunk_ids=True)
    assert list(load_bundle(tmp_path / "kept", kb_blocks).records()) == list(
        kb_mini_bundle.records())


def test_bundle_from_records_names_record(kb_blocks: list[Block]) -> None:
    people = [Person(id="a", name="甲", sources=[SourceRef(chapter=7, quote="不在书里的话")]),
              Person(id="a", name="乙", sources=[SourceRef(chapter=7, quote="林沖大喜")])]
    with pytest.raises(BundleError) as caught:
        bundle_from_records(people=people, blocks=kb_blocks)
    message = str(caught.value)
    assert "people#1: a: sources[0]: quote '不在书里的话' not found in chapter 7" in message
    assert "people#2: a: duplicate id (first at people#1)" in message
    assert people[1].sources[0].chunk_id is None  # inputs are not modified


def test_curated_bundle_loads(kb_curated_bundle: KnowledgeBundle) -> None:
    counts = kb_curated_bundle.counts()
    assert all(counts[k] > 0 for k in ("people", "events", "relations", "states"))
    assert all(ref.chunk_id for r in kb_curated_bundle.records() for ref in r.sources)
