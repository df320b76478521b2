"""The key shared events of a pair are theirs: on the curated book, a pair of hub characters who
share a hundred scenes gets events about the two of them, not battles they both stood in."""

from __future__ import annotations

from core.text import to_simplified
from kb.knowledge.bundle import KnowledgeBundle
from providers.memory import MemoryProvider


def test_hub_pair_key_events_name_one_of_the_two(kb_curated_bundle: KnowledgeBundle) -> None:
    provider = MemoryProvider()
    provider.load(kb_curated_bundle)
    pair = provider.pair("song_jiang", "wu_yong")
    assert len(pair.shared_events) > 50  # a hub pair: far more scenes than key events
    names = [to_simplified(n) for p in (pair.a, pair.b)
             for n in [p.name, *kb_curated_bundle.person(p.id).aliases] if len(n) >= 2]
    linked = {eid for r in pair.relations for eid in r.events}
    key = [e for e in pair.shared_events if e.id in pair.key_events]
    middle = key[1:-1]  # the first and the last are kept whatever they are
    assert middle and all(any(n in to_simplified(e.title) for n in names) or e.id in linked
                          for e in middle), [e.title for e in middle]
