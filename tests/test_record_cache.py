"""The record index's channels kept on disk: a later start reads them instead of building them,
ranks exactly as a fresh build does, and builds again when a record's text changes or the file
cannot be read."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from core.settings import DEFAULT_CORPUS, Settings
from ingest.chunking import Block
from kb.answering import record_cache
from kb.answering.record_search import KnowledgeIndex
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.loading import load_active_bundle
from retrieval.bm25 import BM25Index

KB_MINI = Path(__file__).parent / "fixtures" / "kb_mini"
QUERIES = [("林冲和鲁智深怎么认识的", ["lin_chong", "lu_zhishen"]), ("野猪林", []),
           ("高衙内 岳庙", ["lin_chong"])]


@pytest.fixture
def bundle(tmp_path: Path, kb_blocks: list[Block]) -> KnowledgeBundle:
    copy = tmp_path / "bundle"
    shutil.copytree(KB_MINI, copy)
    settings = Settings(data_dir=tmp_path / "data", corpus=DEFAULT_CORPUS, bundle=copy)
    return load_active_bundle(settings, kb_blocks)


def _cached(bundle: KnowledgeBundle) -> list[Path]:
    assert bundle.derived_cache is not None
    return sorted(p for p in bundle.derived_cache.glob("records-*") if p.is_dir())


def _rankings(index: KnowledgeIndex) -> list[list[tuple[int, float]]]:
    return [index.rank(query, people) for query, people in QUERIES]


def _no_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> BM25Index:
        raise AssertionError("built, not read")

    monkeypatch.setattr(BM25Index, "from_postings", refuse)


def test_the_loaded_bundle_names_its_cache(bundle: KnowledgeBundle) -> None:
    assert bundle.derived_cache is not None and bundle.derived_cache.name == "cache"


def test_second_index_is_read_and_ranks_as_a_fresh_build(bundle: KnowledgeBundle,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = KnowledgeIndex(dataclasses.replace(bundle, derived_cache=None))
    assert _cached(bundle) == []
    first = KnowledgeIndex(bundle)  # builds and writes
    assert len(_cached(bundle)) == 1
    assert _cached(bundle)[0].stat().st_mode & 0o777 == 0o755
    assert {f.stat().st_mode & 0o777 for f in _cached(bundle)[0].iterdir()} == {0o644}
    _no_builds(monkeypatch)
    again = KnowledgeIndex(bundle)
    assert _rankings(again) == _rankings(first) == _rankings(fresh)
    assert any(_rankings(fresh))  # the queries find records: the comparison says something
    for channel, index in again.indexes.items():
        for name, array in fresh.indexes[channel].to_arrays().items():
            assert np.array_equal(index.to_arrays()[name], array), (channel, name)


def test_a_changed_record_builds_again(bundle: KnowledgeBundle) -> None:
    KnowledgeIndex(bundle)
    person = bundle.people[0]
    changed = dataclasses.replace(bundle, people=[person.model_copy(
        update={"profile": person.profile + "后上梁山"}), *bundle.people[1:]])
    index = KnowledgeIndex(changed)
    assert len(_cached(bundle)) == 2
    fresh = KnowledgeIndex(dataclasses.replace(changed, derived_cache=None))
    assert _rankings(index) == _rankings(fresh)


@pytest.mark.parametrize("damage", ["garbage", "missing"])
def test_an_unreadable_cache_is_built_again(bundle: KnowledgeBundle, damage: str) -> None:
    first = KnowledgeIndex(bundle)
    path = _cached(bundle)[0]
    victim = sorted(path.iterdir())[0]
    if damage == "garbage":
        victim.write_bytes(b"not an array")
    else:
        victim.unlink()
    again = KnowledgeIndex(bundle)
    assert _rankings(again) == _rankings(first)
    key = path.name.removeprefix(record_cache.PREFIX)
    assert record_cache.read(path.parent, key, again.indexes) is not None  # written again, whole


def test_key_follows_text_and_order() -> None:
    assert record_cache.key_for(["a", "b"]) == record_cache.key_for(["a", "b"])
    assert record_cache.key_for(["a", "b"]) != record_cache.key_for(["b", "a"])
    assert record_cache.key_for(["ab"]) != record_cache.key_for(["a", "b"])
