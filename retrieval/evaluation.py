"""Retrieval metrics exactly as shared/eval/FORMAT.md defines them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ingest.chunking import Block
from retrieval.questions import LabeledQuestion, QuoteSpan

HIT_KS = (1, 3, 5)
MRR_K = 10


@dataclass(frozen=True)
class Evidence:
    """What a strategy returns for one question: its full ranking and the packed blocks."""

    ranking: list[str]
    packed: list[str]


Strategy = Callable[[LabeledQuestion], Evidence]


def covers(block: Block, span: QuoteSpan) -> bool:
    """A block covers a quote when its span holds at least half of the quote's span."""
    if block.chapter != span.chapter:
        return False
    overlap = min(block.end, span.end) - max(block.start, span.start)
    return overlap * 2 >= span.end - span.start


def label(block: Block, q: LabeledQuestion) -> str:
    if any(covers(block, s) for s in q.core):
        return "core"
    if any(covers(block, s) for s in q.rel):
        return "rel"
    return "irrelevant"


def first_core_rank(ranking: Sequence[str], blocks: Mapping[str, Block],
                    q: LabeledQuestion) -> int | None:
    for rank, chunk_id in enumerate(ranking, start=1):
        if label(blocks[chunk_id], q) == "core":
            return rank
    return None


def question_metrics(ev: Evidence, blocks: Mapping[str, Block], q: LabeledQuestion
                     ) -> dict[str, object]:
    rank = first_core_rank(ev.ranking, blocks, q)
    labels = [label(blocks[c], q) for c in ev.packed]
    all_core = all(any(covers(blocks[c], s) for c in ev.packed) for s in q.core)
    return {
        "id": q.question.id, "kind": q.question.kind, "answerable": q.question.answerable,
        "first_core_rank": rank, "packed": ev.packed, "labels": labels,
        "top": ev.ranking[:5], "context_any_core": "core" in labels,
        "context_all_core": bool(q.core) and all_core,
    }


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _hit_within(k: int, rank_of: Callable[[dict[str, object]], int | None]
                ) -> Callable[[dict[str, object]], bool]:
    return lambda row: (rank_of(row) or 10**9) <= k


def summarize(rows: Sequence[dict[str, object]]) -> dict[str, float]:
    answerable = [r for r in rows if r["answerable"]]
    n = max(1, len(answerable))

    def share(pred: Callable[[dict[str, object]], bool]) -> float:
        return sum(1 for r in answerable if pred(r)) / n

    def rank_of(r: dict[str, object]) -> int | None:
        value = r["first_core_rank"]
        return value if isinstance(value, int) else None

    packed_labels = [lab for r in answerable for lab in _strings(r["labels"])]
    out = {f"hit@{k}": share(_hit_within(k, rank_of)) for k in HIT_KS}
    out["mrr@10"] = sum(1 / r for x in answerable if (r := rank_of(x)) and r <= MRR_K) / n
    out["context_any_core"] = share(lambda r: bool(r["context_any_core"]))
    out["context_all_core"] = share(lambda r: bool(r["context_all_core"]))
    out["avg_blocks"] = sum(len(_strings(r["packed"])) for r in answerable) / n
    out["irrelevant_share"] = (packed_labels.count("irrelevant") / len(packed_labels)
                               if packed_labels else 0.0)
    return out


def evaluate(questions: Iterable[LabeledQuestion], strategy: Strategy,
             blocks: Mapping[str, Block],
             progress: Callable[[], None] | None = None) -> tuple[dict[str, float], list[dict[str, object]]]:
    """Run a strategy on every question; (summary metrics, per-question rows)."""
    rows = []
    for q in questions:
        rows.append(question_metrics(strategy(q), blocks, q))
        if progress:
            progress()
    return summarize(rows), rows
