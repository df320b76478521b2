"""The evidence order: the lexical ranking with the blocks the plan's records point to moved up
(`POINTER_BOOST`), the lexical blocks unlikely to be evidence left out (`LEXICAL_CUT`), and the
rest packed under the budget. The graph never competes in the ranking with a score of its own: it
only decides which blocks a record vouches for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kb.answering.chapters import ChapterMatch
from kb.knowledge.models import Record
from kb.knowledge.views import Journey, Pair, SourceView
from retrieval.packing import Decision, pack
from retrieval.retriever import Ranking, Retriever, SearchOptions

POINTER_BOOST = 20.0
"""A block that a selected record points to ranks as if 20 times higher in the lexical order
(rank 40 → 2); on the dev sets any value from 15 to 50 gives the same figures (README)."""
BELOW_CUT = "below_cut"
"""The packing decision of a lexical block left out as unlikely evidence (`LEXICAL_CUT`)."""


def cite_only_read_blocks(pair: Pair | None, journey: Journey | None,
                           read: Mapping[str, int]) -> tuple[Pair | None, Journey | None]:
    """A source whose block lies outside the corpus read (`kbx ingest --chapters 7-11`) cannot
    be quoted from: its block id is dropped, so answers cite only blocks they can check. The
    views may be shared (kept per pipeline): a view with such a source is copied first."""
    def outside(sources: list[SourceView]) -> bool:
        return any(ref.chunk_id is not None and ref.chunk_id not in read for ref in sources)

    if pair is not None and any(outside(v) for v in _pair_sources(pair)):
        pair = pair.model_copy(deep=True)
        _drop_unread(_pair_sources(pair), read)
    if journey is not None and any(outside(v) for v in _journey_sources(journey)):
        journey = journey.model_copy(deep=True)
        _drop_unread(_journey_sources(journey), read)
    return pair, journey


def _pair_sources(pair: Pair) -> list[list[SourceView]]:
    return [r.sources for r in pair.relations] + [e.sources for e in pair.shared_events]


def _journey_sources(journey: Journey) -> list[list[SourceView]]:
    views: list[list[SourceView]] = []
    for stage in journey.stages:
        views += [stage.sources] + [e.sources for e in stage.events]
        views += [s.sources for s in stage.states]
    return views


def _drop_unread(views: list[list[SourceView]], read: Mapping[str, int]) -> None:
    for sources in views:
        for ref in sources:
            if ref.chunk_id is not None and ref.chunk_id not in read:
                ref.chunk_id = None


def sources_of(records: Sequence[Record]) -> list[tuple[str, str]]:
    out = []
    for record in records:
        for ref in getattr(record, "sources", []):
            if ref.chunk_id:
                out.append((ref.chunk_id, record.id))
    return out


def likely_blocks(retriever: Retriever, lexical: Ranking, ranking: Sequence[str],
            origins: Mapping[str, str], cut: float) -> list[str]:
    """The ranking without the lexical blocks below the cut (`LEXICAL_CUT`): a block a
    record points to always stays; another stays while its best channel score is at least
    the cut's share of that channel's top score."""
    if cut <= 0:
        return list(ranking)
    share: dict[str, float] = {}
    for hits in lexical.channels.values():
        if not hits or hits[0][1] <= 0:
            continue
        top = hits[0][1]
        for doc, score in hits:
            chunk_id = retriever.blocks[doc].id
            share[chunk_id] = max(share.get(chunk_id, 0.0), score / top)
    return [c for c in ranking if origins.get(c, "lexical") != "lexical"
            or share.get(c, 0.0) >= cut]

def chapter_pointers(chapter: ChapterMatch | None, retriever: Retriever
                      ) -> list[tuple[str, str]]:
    """The blocks of the chapter a 第几回 question names (its title vouches for them)."""
    if chapter is None:
        return []
    return [(b.id, f"chapter:{chapter.chapter}") for b in retriever.blocks
            if b.chapter == chapter.chapter]


def boosted_order(retriever: Retriever, ranking: Ranking, pointers: Sequence[tuple[str, str]]
           ) -> tuple[list[str], dict[str, str]]:
    """The lexical order, with each block a record points to ranked as if `POINTER_BOOST`
    times higher (0-based rank / boost, so the lexical best keeps first place); pointed blocks
    the lexical channels never found follow the lexical list."""
    lexical = [retriever.blocks[d].id for d, _ in ranking.fused]
    lexical_rank = {c: i for i, c in enumerate(lexical)}  # 0-based: the lexical best stays first
    origins: dict[str, str] = {}
    for chunk_id, record_id in pointers:
        if chunk_id in retriever.position and chunk_id not in origins:
            origins[chunk_id] = f"graph:{record_id}"

    def key(chunk_id: str) -> tuple[float, int]:
        rank = lexical_rank.get(chunk_id, len(lexical))
        return (rank / POINTER_BOOST if chunk_id in origins else rank,
                retriever.position[chunk_id])

    rest = [c for c in lexical if c not in origins]
    order = sorted([*origins, *rest], key=key)
    origins.update({c: "lexical" for c in rest})
    return order, origins


def packed_blocks(retriever: Retriever, lexical: Ranking, ranking: Sequence[str],
                  origins: Mapping[str, str], options: SearchOptions, cut: float
                  ) -> tuple[list[str], dict[str, str]]:
    """The blocks packed under the budget from the likely ones, and each ranked block's packing
    decision (`BELOW_CUT` for a lexical block left out as unlikely evidence)."""
    likely = likely_blocks(retriever, lexical, ranking, origins, cut)
    costs = [retriever.costs[retriever.position[c]] for c in likely]
    decisions = pack(costs, options.budget, options.max_blocks, options.policy)
    packed = [c for c, d in zip(likely, decisions, strict=True) if d is Decision.SELECTED]
    verdicts = {c: BELOW_CUT for c in ranking}
    verdicts.update({c: d.value for c, d in zip(likely, decisions, strict=True)})
    return packed, verdicts
