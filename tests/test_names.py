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
    labels: list[str] = []
    for k in [*containing, *close]:
        e = shown[k]
        label = e.person_name if e.primary else f"{e.written}（{e.person_name}）"
        if label not in labels:
            labels.append(label)
    return labels[:MAX_SUGGESTIONS]


@pytest.mark.parametrize("name", ["林聪", "鲁智", "宋公", "及时", "黑旋", "武二", "李大", "X光"])
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
