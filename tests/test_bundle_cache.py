"""The validated bundle kept on disk: read back equal, revalidated when a file or the blocks
change, ignored when unreadable."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from core.errors import BundleError
from core.settings import DEFAULT_CORPUS, Settings
from ingest.chunking import Block
from kb.knowledge.bundle import load_bundle
from kb.knowledge.bundle_cache import key_for_blocks
from kb.knowledge.loading import bundle_cache, load_active_bundle

KB_MINI = Path(__file__).parent / "fixtures" / "kb_mini"


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Settings, Path]:
    bundle = tmp_path / "bundle"
    shutil.copytree(KB_MINI, bundle)
    return Settings(data_dir=tmp_path / "data", corpus=DEFAULT_CORPUS, bundle=bundle), bundle


def _cached(settings: Settings) -> list[Path]:
    return sorted((settings.corpus_dir() / "cache").glob("bundle-*.json"))


def test_second_load_reads_the_cache(setup: tuple[Settings, Path], kb_blocks: list[Block]) -> None:
    settings, bundle = setup
    first = load_active_bundle(settings, kb_blocks)
    assert len(_cached(settings)) == 1
    assert _cached(settings)[0].stat().st_mode & 0o777 == 0o644
    again = load_active_bundle(settings, kb_blocks)
    assert list(again.records()) == list(first.records()) == list(
        load_bundle(bundle, kb_blocks).records())
    assert again.profile == first.profile


def test_a_changed_file_is_validated_again(setup: tuple[Settings, Path],
                                           kb_blocks: list[Block]) -> None:
    settings, bundle = setup
    load_active_bundle(settings, kb_blocks)
    people = bundle / "people.jsonl"
    people.write_text(people.read_text(encoding="utf-8") + '{"id": "oops", "name": \n',
                      encoding="utf-8")
    with pytest.raises(BundleError, match="invalid JSON"):
        load_active_bundle(settings, kb_blocks)


def test_other_blocks_other_key(setup: tuple[Settings, Path], kb_blocks: list[Block]) -> None:
    _, bundle = setup
    moved = [b.model_copy(update={"text": b.text + "。"}) if i == 0 else b
             for i, b in enumerate(kb_blocks)]
    assert key_for_blocks(bundle, moved) != key_for_blocks(bundle, kb_blocks)
    stat = (bundle / "people.jsonl").stat()
    os.utime(bundle / "people.jsonl", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert key_for_blocks(bundle, kb_blocks) != key_for_blocks(bundle, moved)


def test_an_unreadable_cache_is_ignored(setup: tuple[Settings, Path],
                                        kb_blocks: list[Block]) -> None:
    settings, _ = setup
    first = load_active_bundle(settings, kb_blocks)
    _cached(settings)[0].write_text("{ not json", encoding="utf-8")
    assert list(load_active_bundle(settings, kb_blocks).records()) == list(first.records())
    assert bundle_cache(settings).get(key_for_blocks(settings.bundle, kb_blocks)) is not None


@pytest.mark.slow  # the whole book at another block length
def test_the_curated_bundle_loads_at_another_block_length(tmp_path: Path) -> None:
    """`KBX_CHUNK_SIZE=300` cut some curated quotes in two; the bundle used to be refused whole
    (`kbx ask` failed). A split quote is cited to the block it begins in."""
    from ingest.chunking import chunk_corpus
    from ingest.corpus import read_corpus

    cfg = Settings(data_dir=tmp_path, chunk_size=300)
    blocks = chunk_corpus(read_corpus(DEFAULT_CORPUS), 300)
    bundle = load_active_bundle(cfg, blocks)
    by_id = {b.id: b for b in blocks}
    split = [r for record in bundle.records() for r in record.sources
             if r.chunk_id and r.end is not None and r.end > by_id[r.chunk_id].end]
    assert split, "no curated quote straddles two 300-character blocks any more: pick a length"
