"""The knowledge retriever: every record rendered as text, ranked by the two lexical channels
fused with RRF (plus a participation channel when the question names two or more people), and
packed under the knowledge budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.text import to_simplified
from kb.answering import record_cache
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.models import ChapterSummary, Event, Person, Record, Relation, State
from retrieval.bm25 import BM25Index
from retrieval.fusion import K, rrf
from retrieval.packing import Decision, Policy, estimate_tokens, pack
from retrieval.retriever import query_codes
from retrieval.vectorized import CHANNEL_POSTINGS


def render(record: Record, names: Mapping[str, str]) -> str:
    """One line of text a reader (and the lexical channels) can match."""
    def name(pid: str) -> str:
        return names.get(pid, pid)

    if isinstance(record, Person):
        aliases = f"（{'、'.join(record.aliases)}）" if record.aliases else ""
        return f"人物 {record.name}{aliases}：{record.profile}"
    if isinstance(record, Event):
        who = "、".join(f"{name(p.person)}（{p.role}）" for p in record.participants)
        return f"事件 第{record.chapter}回 {record.title}｜{record.place or ''}｜{who}：{record.summary}"
    if isinstance(record, Relation):
        arrow = "→" if record.directed else "—"
        return (f"关系 {name(record.source)}{arrow}{name(record.target)} {record.label}："
                f"{record.description}")
    if isinstance(record, State):
        return f"状态 {name(record.person)} 第{record.chapter}回起 {record.value}：{record.description}"
    assert isinstance(record, ChapterSummary)
    return f"回目 第{record.chapter}回 {record.title}：{record.summary}"


def participants(record: Record) -> set[str]:
    if isinstance(record, Person):
        return {record.id}
    if isinstance(record, Event):
        return set(record.person_ids)
    if isinstance(record, Relation):
        return {record.source, record.target}
    if isinstance(record, State):
        return {record.person}
    return set()


@dataclass(frozen=True)
class KnowledgeHit:
    record: Record
    text: str
    score: float
    tokens: int


class KnowledgeIndex:
    """Records of a bundle as a small lexical index; built once per loaded bundle."""

    def __init__(self, bundle: KnowledgeBundle) -> None:
        names = {p.id: p.name for p in bundle.people}
        self.records: list[Record] = list(bundle.records())
        self.texts = [render(r, names) for r in self.records]
        self.indexes = self._channels(bundle.derived_cache)
        self.members = [participants(r) for r in self.records]
        self.involving: dict[str, list[int]] = {}
        """Each person's records (positions): the participation channel reads these, not every
        record's members."""
        for i, members in enumerate(self.members):
            for person_id in members:
                self.involving.setdefault(person_id, []).append(i)
        self.costs = [estimate_tokens(t) for t in self.texts]

    def _channels(self, cache: Path | None) -> dict[str, BM25Index]:
        """Both lexical channels over the rendered records: read from `cache` when an earlier
        process built them from the same texts (`record_cache`), else built (and kept there)."""
        key = record_cache.key_for(self.texts) if cache is not None else ""
        if cache is not None:
            found = record_cache.read(cache, key, CHANNEL_POSTINGS)
            if found is not None:
                return found
        simplified = [to_simplified(t) for t in self.texts]
        indexes = {name: BM25Index.from_postings(*postings(simplified), len(simplified))
                   for name, postings in CHANNEL_POSTINGS.items()}
        if cache is not None:
            record_cache.write(cache, key, indexes)
        return indexes

    def rank(self, query: str, person_ids: Sequence[str], depth: int = 60) -> list[tuple[int, float]]:
        codes = query_codes(query)
        rankings: dict[str, list[int]] = {}
        for name, index in self.indexes.items():
            docs, _ = index.top_for_ids(index.term_ids(codes[name]), depth)
            rankings[name] = docs.tolist()
        if len(set(person_ids)) >= 2:
            rankings["participation"] = self._participation(person_ids, depth)
        return rrf(rankings, k=K)

    def _participation(self, person_ids: Sequence[str], depth: int) -> list[int]:
        """Records involving the most of the named people; relations first, then book order."""
        counted: dict[int, int] = {}
        for person_id in set(person_ids):
            for i in self.involving.get(person_id, ()):
                counted[i] = counted.get(i, 0) + 1
        hits = [i for i, n in counted.items() if n >= 2]
        kind_order = {Relation: 0, Event: 1, State: 2, Person: 3, ChapterSummary: 4}
        hits.sort(key=lambda i: (-counted[i], kind_order[type(self.records[i])],
                                 getattr(self.records[i], "order", 0), i))
        return hits[:depth]

    def search(self, query: str, person_ids: Sequence[str], budget: int) -> list[KnowledgeHit]:
        """Ranked records packed under `budget` tokens (skipping what does not fit)."""
        ranked = self.rank(query, person_ids)
        costs = [self.costs[pos] for pos, _ in ranked]
        decisions = pack(costs, budget, None, Policy.SKIP)
        return [KnowledgeHit(self.records[pos], self.texts[pos], score, cost)
                for (pos, score), cost, decision in zip(ranked, costs, decisions, strict=True)
                if decision is Decision.SELECTED]
