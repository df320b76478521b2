"""The name resolver: ids, names, aliases and both scripts to one person, and the closest names
for a miss, exactly as a scan of every name would give them."""

from __future__ import annotations

import difflib

import pytest

from core.errors import NotFound
from core.text import normalize
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.names import (
    MAX_SUGGESTIONS,
    SIMILARITY_CUTOFF,
    NameResolver,
    name_entries,
)


@pytest.fixture(scope="module")
def resolver(kb_curated_bundle: KnowledgeBundle) -> NameResolver:
    return NameResolver.of_people(kb_curated_bundle.people)


@pytest.mark.parametrize("key", ["lin_chong", "林冲", "林沖", "豹子头", "豹子頭"])
def test_one_person_by_id_name_alias_either_script(resolver: NameResolver, key: str) -> None:
    assert resolver.person_id(key) == "lin_chong"


def test_every_name_of_everyone_resolves(kb_curated_bundle: KnowledgeBundle,
                                         resolver: NameResolver) -> None:
    for person in kb_curated_bundle.people:
        assert resolver.person_id(person.id) == person.id
        for entry in name_entries(person):
            try:
                found = resolver.by_name(entry.written)
            except NotFound as exc:  # a name two people hold is refused, naming both
                assert "ambiguous" in str(exc) and person.id in str(exc)
                continue
            assert found == person.id or not entry.primary


def _scan(name: str, resolver: NameResolver) -> list[str]:
    """The suggestions by a scan of every name (what the resolver must equal)."""
    key = normalize(name)
    shown = {e.key: e for e in sorted(resolver.entries,
                                      key=lambda e: (not e.primary, e.person_id, e.key))[::-1]}
    containing = sorted((k for k in shown if k in key or key in k),
                        key=lambda k: (abs(len(k) - len(key)), k))
    close = difflib.get_close_matches(key, sorted(shown), n=MAX_SUGGESTIONS,
                                      cutoff=SIMILARITY_CUTOFF)
    chosen: dict[str, object] = {}
    for k in [*containing, *close]:
        bearers = sorted((e for e in resolver.entries if e.key == k), key=lambda e: not e.primary)
        for e in [shown[k], *bearers]:
            chosen.setdefault(e.person_id, e)
    entries = list(chosen.values())[:MAX_SUGGESTIONS]
    labels = [e.person_name if e.primary else f"{e.written}（{e.person_name}）"  # type: ignore[attr-defined]
              for e in entries]
    return [f"{label} ({e.person_id})" if labels.count(label) > 1 else label  # type: ignore[attr-defined]
            for label, e in zip(labels, entries, strict=True)]


@pytest.mark.parametrize("name", ["林聪", "鲁智", "宋公", "及时", "黑旋", "武二", "李大", "X光",
                                  "张三丰", "王婆婆"])
def test_suggestions_equal_a_scan_of_every_name(resolver: NameResolver, name: str) -> None:
    assert resolver.suggestions(name) == _scan(name, resolver)


def test_unknown_names_and_ids(resolver: NameResolver) -> None:
    with pytest.raises(NotFound) as name:
        resolver.person_id("林聪")
    assert "林冲" in name.value.suggestions and "林冲" in str(name.value)
    with pytest.raises(NotFound) as by_id:
        resolver.person_id("lin_chon")
    assert "lin_chong" in by_id.value.suggestions
    with pytest.raises(NotFound, match="must not be empty"):
        resolver.person_id("，。")
    assert resolver.suggestions("") == []


def _person_of(label: str, resolver: NameResolver) -> str:
    """The person a suggestion stands for: 王婆 (wang_po), 张三（张文远）, 张三."""
    if label.endswith(")"):
        return label.rsplit(" (", 1)[1][:-1]
    name = label.rsplit("（", 1)[1][:-1] if label.endswith("）") else label
    found = resolver.known(name)
    assert found is not None, label
    return found


def test_each_person_is_suggested_once(resolver: NameResolver) -> None:
    """张三丰 was answered 张三, 小张三（张文远）, 过街老鼠张三（张三）: 张三 three times, two of them one
    person, and 张文远 (whose alias 张三 is) only by another alias."""
    assert resolver.suggestions("张三丰")[:2] == ["张三", "张三（张文远）"]
    for name in ("张三丰", "张三郎", "李四四", "林冲冲", "宋江江", "王婆婆"):
        suggested = resolver.suggestions(name)
        people = [_person_of(label, resolver) for label in suggested]
        assert len(people) == len(set(people)), (name, suggested)
    two = resolver.suggestions("王婆婆")[:2]  # two people called 王婆, told apart by their ids
    assert sorted(two) == ["王婆 (wang_po)", "王婆 (wang_po_2)"]
