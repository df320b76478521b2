"""The offline composer: an extractive answer from the knowledge records and the best sentences of
the packed blocks, every statement with a verbatim quote and its block id. Needs no LLM."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ingest.chunking import Block
from ingest.normalize import to_simplified
from kb.answer_models import StageNote
from kb.evidence import Gathered
from kb.knowledge import participants
from kb.models import Event, Relation, State
from kb.planner import PeopleIndex
from kb.quotes import sentences
from kb.sufficiency import missing_part
from kb.views import SourceView
from retrieval.analyzers import FUNCTION_CHARS, clean_query, ngram_terms
from retrieval.bm25 import lucene_idf

KNOWLEDGE_LINES = 2
MIN_COVERAGE = 0.34
UNSEEN_WEIGHT = 0.5
"""An open question is answered only when some sentence of the evidence holds at least this share
of the question's own content bigrams (names excluded); calibrated on the dev sets (README)."""


@dataclass
class Draft:
    status: str
    answer: str
    reason: str | None = None
    quotes: list[tuple[str, str]] = field(default_factory=list)  # (text, chunk_id)
    stages: list[StageNote] = field(default_factory=list)


def _first_quote(sources: Sequence[SourceView]) -> tuple[str, str] | None:
    for ref in sources:
        if ref.chunk_id:
            return ref.quote, ref.chunk_id
    return None


def _cite(quote: tuple[str, str] | None) -> str:
    return f"「{quote[0]}」〔{quote[1]}〕" if quote else ""


def compose_pair(g: Gathered) -> Draft:
    assert g.pair is not None
    a, b = g.pair.a.name, g.pair.b.name
    names = {g.pair.a.id: a, g.pair.b.id: b}
    lines, quotes = [], []
    for rel in g.pair.relations:
        q = _first_quote(rel.sources)
        arrow = "→" if rel.directed else "与"
        lines.append(f"· {names.get(rel.source, rel.source)}{arrow}{names.get(rel.target, rel.target)}"
                     f"：{rel.label}。{rel.description}{_cite(q)}")
        quotes += [q] if q else []
    if g.pair.shared_events:
        lines.append("共同经历（按书中顺序）：")
    for ev in g.pair.shared_events:
        q = _first_quote(ev.sources)
        lines.append(f"· 第{ev.chapter}回 {ev.title}：{ev.summary}{_cite(q)}")
        quotes += [q] if q else []
    if not lines:
        return Draft("insufficient", "", f"知识库中没有{a}与{b}之间的关系或共同事件。")
    return Draft("answered", f"{a}与{b}：\n" + "\n".join(lines), quotes=quotes)


def compose_journey(g: Gathered) -> Draft:
    assert g.journey is not None
    person = g.journey.person.name
    stages, quotes, lines = [], [], []
    for i, stage in enumerate(g.journey.stages, start=1):
        chapters = "、".join(str(c) for c in stage.chapters)
        note = "；".join(e.title for e in stage.events) or "；".join(s.value for s in stage.states)
        stage_quotes = [q for q in (_first_quote([s]) for s in stage.sources[:2]) if q]
        quotes += stage_quotes
        stages.append(StageNote(title=stage.title, chapters=stage.chapters, note=note))
        lines.append(f"{i}. {stage.title}（第{chapters}回）：{note}"
                     + "".join(_cite(q) for q in stage_quotes[:1]))
    if not stages:
        return Draft("insufficient", "", f"知识库中没有{person}的经历。")
    return Draft("answered", f"{person}的经历，分{len(stages)}个阶段：\n" + "\n".join(lines),
                 quotes=quotes, stages=stages)


def content_terms(question: str, names: Sequence[str]) -> set[str]:
    """The question's own bigrams, without names and question words: what an answer must touch."""
    text = clean_query(question)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(to_simplified(name), " ")
    return {t for t in ngram_terms(text) if len(t) == 2 and not set(t) <= FUNCTION_CHARS}


def best_sentences(g: Gathered, block_of: Callable[[str], Block | None],
                   weights: Mapping[str, float], limit: int = 3) -> list[tuple[float, str, str]]:
    """(weighted coverage, sentence, chunk id) of the packed blocks' sentences, best first.

    Coverage is the share of the question's content-term weight that a sentence holds."""
    total = sum(weights.values())
    scored = []
    for rank, chunk_id in enumerate(g.packed):
        block = block_of(chunk_id)
        for sentence in sentences(block.text) if block else []:
            grams = set(ngram_terms(to_simplified(sentence)))
            held = sum(w for t, w in weights.items() if t in grams)
            scored.append((held / total if total else 0.0, -rank, sentence, chunk_id))
    scored.sort(reverse=True)
    return [(c, s, cid) for c, _, s, cid in scored[:limit]]


def term_weights(terms: set[str], df: Callable[[str], int], n_docs: int) -> dict[str, float]:
    """IDF weights of content terms; a term the novel never uses (a modern word, or the seam of
    two words such as 婆离 in 老婆离婚) weighs `UNSEEN_WEIGHT` of the rarest term's weight."""
    rarest = lucene_idf(1, n_docs)
    return {t: lucene_idf(d, n_docs) if (d := df(t)) else rarest * UNSEEN_WEIGHT for t in terms}


def compose_open(g: Gathered, block_of: Callable[[str], Block | None],
                 people: PeopleIndex, question: str, df: Callable[[str], int], n_docs: int
                 ) -> Draft:
    names = [n for pid in g.plan.person_ids for n in people.people[pid].all_names]
    terms = content_terms(g.plan.cleaned, [*names, *g.plan.names])
    best = best_sentences(g, block_of, term_weights(terms, df, n_docs))
    if not best or (terms and best[0][0] < MIN_COVERAGE):
        missing = "、".join(sorted(terms)[:6])
        return Draft("insufficient", "", f"证据中找不到问题的要点（{missing}）。")
    records = [h.record for h in g.knowledge[:KNOWLEDGE_LINES]]
    lacking = missing_part(question, [s for _, s, _ in best],
                           {p for r in records for p in participants(r)}, g.plan.person_ids, people)
    if lacking:
        return Draft("insufficient", "", lacking + "。")
    lines, quotes = [], []
    for hit in g.knowledge[:KNOWLEDGE_LINES]:
        record = hit.record
        if isinstance(record, Event | Relation | State):
            q = _first_quote([SourceView.of(r) for r in record.sources])
            lines.append(f"· {hit.text.split('：', 1)[-1][:80]}{_cite(q)}")
            quotes += [q] if q else []
    for coverage, sentence, chunk_id in best:
        if coverage > 0 or not terms:
            lines.append(f"· 原文：{_cite((sentence, chunk_id))}")
            quotes.append((sentence, chunk_id))
    return Draft("answered", "\n".join(lines), quotes=quotes)


def compose(g: Gathered, block_of: Callable[[str], Block | None], people: PeopleIndex,
            question: str, df: Callable[[str], int], n_docs: int) -> Draft:
    """The offline answer for the plan's kind."""
    names = [n for pid in g.plan.person_ids for n in people.people[pid].all_names]
    if g.plan.kind == "pair" and g.pair is not None:
        return _with_passages(compose_pair(g), g, block_of, names, df, n_docs)
    if g.plan.kind == "journey" and g.journey is not None:
        return compose_journey(g)
    return compose_open(g, block_of, people, question, df, n_docs)


def _with_passages(draft: Draft, g: Gathered, block_of: Callable[[str], Block | None],
                   names: Sequence[str], df: Callable[[str], int], n_docs: int) -> Draft:
    """A pair question that also asks something specific gets the sentences that answer it."""
    terms = content_terms(g.plan.cleaned, [*names, *g.plan.names])
    weights = term_weights(terms, df, n_docs)
    best = [b for b in best_sentences(g, block_of, weights, limit=2) if b[0] >= MIN_COVERAGE]
    if draft.status != "answered" or not terms or not best:
        return draft
    lines = [f"· {_cite((sentence, chunk_id))}" for _, sentence, chunk_id in best]
    draft.answer += "\n相关原文：\n" + "\n".join(lines)
    draft.quotes += [(sentence, chunk_id) for _, sentence, chunk_id in best]
    return draft
