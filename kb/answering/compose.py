"""The offline composer: an extractive answer from the knowledge records and the best sentences of
the packed blocks, every statement with a verbatim quote and its block id. Needs no LLM."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.text import is_cjk, normalize
from ingest.chunking import Block
from kb.answering.answer_models import StageNote
from kb.answering.coverage import best_sentences, question_weights
from kb.answering.evidence import Gathered
from kb.answering.planner import PeopleIndex, dangling_reference
from kb.answering.quotes import sentences
from kb.answering.record_search import participants
from kb.answering.sufficiency import (
    RelationTypes,
    asserts_action,
    missing_part,
    premise_problem,
    unknown_name,
)
from kb.knowledge.models import Event, Person, Relation, State
from kb.knowledge.views import SourceView

KNOWLEDGE_LINES = 2
MAX_QUOTE_CHARS = 80
"""Longer sentences (rosters, verses) are not offered as quotes in temporal answers."""
MIN_COVERAGE = 0.25
"""An open question is answered only when a sentence of the evidence holds at least this share of
the question's content weight (`kb.answering.coverage`); calibrated on the dev sets (README)."""


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


MAX_PAIR_RELATIONS = 6
GENERIC_TYPES = frozenset({"acquaintance", "colleague", "ally"})
"""Relation types that say little; listed after the specific ones."""
MAX_PAIR_EVENTS = 10
"""Shared events listed in a pair answer (the rest are counted; `kbx pair` lists them all)."""


def compose_pair(g: Gathered) -> Draft:
    """Relations, then shared events in book order, each with a quote. The records are the plan's
    (curated ones when the pair has any: extracted records then only add noise to the answer)."""
    assert g.pair is not None
    a, b = g.pair.a.name, g.pair.b.name
    names = {g.pair.a.id: a, g.pair.b.id: b}
    chosen = {r.id for r in g.plan_records}
    relations = sorted((r for r in g.pair.relations if r.id in chosen),
                       key=lambda r: r.type in GENERIC_TYPES)  # stable: specific types first
    events = [e for e in g.pair.shared_events if e.id in chosen]
    left = len(g.pair.relations) + len(g.pair.shared_events) - len(relations) - len(events)
    left += max(0, len(events) - MAX_PAIR_EVENTS) + max(0, len(relations) - MAX_PAIR_RELATIONS)
    events, relations = events[:MAX_PAIR_EVENTS], relations[:MAX_PAIR_RELATIONS]
    lines, quotes = [], []
    for rel in relations:
        q = _first_quote(rel.sources)
        arrow = "→" if rel.directed else "与"
        lines.append(f"· {names.get(rel.source, rel.source)}{arrow}{names.get(rel.target, rel.target)}"
                     f"：{rel.label}。{rel.description}{_cite(q)}")
        quotes += [q] if q else []
    if events:
        lines.append("共同经历（按书中顺序）：")
    for ev in events:
        q = _first_quote(ev.sources)
        lines.append(f"· 第{ev.chapter}回 {ev.title}：{ev.summary}{_cite(q)}")
        quotes += [q] if q else []
    if lines and left:
        lines.append(f"（另有 {left} 条记录，`kbx pair {a} {b}` 可查看全部）")
    if not lines:
        return Draft("insufficient", "", f"知识库中没有{a}与{b}之间的关系或共同事件。")
    return Draft("answered", f"{a}与{b}：\n" + "\n".join(lines), quotes=quotes)


MAX_STAGE_EVENTS = 6
"""Event titles named in one stage's note; the rest are counted."""


def chapter_span(chapters: Sequence[int]) -> str:
    """第7回, 第7–11回."""
    if not chapters:
        return ""
    lo, hi = min(chapters), max(chapters)
    return f"第{lo}回" if lo == hi else f"第{lo}–{hi}回"


def _stage_note(titles: Sequence[str], states: Sequence[str]) -> str:
    named = "；".join(titles[:MAX_STAGE_EVENTS]) or "；".join(states)
    more = len(titles) - MAX_STAGE_EVENTS
    return named + (f"；等 {len(titles)} 件事" if more > 0 else "")


def compose_journey(g: Gathered, after: int | None = None) -> Draft:
    """The skeleton's stages, each with a note and quotes; a follow-up (`after` a chapter) keeps
    the stages that go on past it."""
    assert g.journey is not None
    person = g.journey.person.name
    all_stages = g.journey.stages
    later = [s for s in all_stages if after is not None and s.chapters and max(s.chapters) > after]
    shown = later or all_stages
    stages, quotes, lines = [], [], []
    for i, stage in enumerate(shown, start=1):
        note = _stage_note([e.title for e in stage.events], [s.value for s in stage.states])
        stage_quotes = [q for q in (_first_quote([s]) for s in stage.sources[:2]) if q]
        quotes += stage_quotes
        stages.append(StageNote(title=stage.title, chapters=stage.chapters, note=note))
        lines.append(f"{i}. {stage.title}（{chapter_span(stage.chapters)}）：{note}"
                     + "".join(_cite(q) for q in stage_quotes[:1]))
    if not stages:
        return Draft("insufficient", "", f"知识库中没有{person}的经历。")
    head = (f"{person}在第{after}回以后的经历，分{len(stages)}个阶段：" if later else
            f"{person}的经历，分{len(stages)}个阶段：")
    return Draft("answered", head + "\n" + "\n".join(lines), quotes=quotes, stages=stages)


def compose_open(g: Gathered, block_of: Callable[[str], Block | None],
                 people: PeopleIndex, question: str, df: Callable[[str], int], n_docs: int
                 ) -> Draft:
    names = [n for pid in g.plan.person_ids for n in people.people[pid].all_names]
    weights = question_weights(g.plan.cleaned, [*names, *g.plan.names], df, n_docs)
    best = best_sentences(_about(g.packed, block_of, names), block_of, weights,
                          g.profile.wordings)
    if not best or (weights and best[0][0] < MIN_COVERAGE):
        missing = "、".join(sorted(weights, key=weights.__getitem__, reverse=True)[:6])
        what = f"问题的要点（{missing}）" if missing else "与问题相关的原文"
        return Draft("insufficient", "", f"证据中找不到{what}。")
    records = [h.record for h in g.knowledge[:KNOWLEDGE_LINES]]
    lacking = missing_part(question, [s for _, s, _ in best],
                           {p for r in records for p in participants(r)}, g.plan.person_ids, people)
    if lacking:
        return Draft("insufficient", "", lacking + "。")
    lines, quotes = [], []
    about = set(g.plan.person_ids)
    relevant = [h for h in g.knowledge if isinstance(h.record, Event | Relation | State)
                and (not about or participants(h.record) & about)
                and not (isinstance(h.record, Event) and h.record.origin == "extracted")]
    # extracted scene events only say who was together: they point to evidence, not answer
    for hit in relevant[:KNOWLEDGE_LINES]:
        record = hit.record
        if isinstance(record, Event | Relation | State):
            q = _first_quote([SourceView.of(r) for r in record.sources])
            lines.append(f"· {hit.text.split('：', 1)[-1][:80]}{_cite(q)}")
            quotes += [q] if q else []
    for coverage, sentence, chunk_id in best:
        if coverage > 0 or not weights:
            lines.append(f"· 原文：{_cite((sentence, chunk_id))}")
            quotes.append((sentence, chunk_id))
    return Draft("answered", "\n".join(lines), quotes=quotes)


def compose_chapter(g: Gathered, block_of: Callable[[str], Block | None], names: Sequence[str],
                    df: Callable[[str], int], n_docs: int) -> Draft:
    """第几回: the chapter whose title matches, and the sentence of that chapter that holds the
    most of the question (the title line itself is not part of any block, so not quoted)."""
    assert g.chapter is not None
    chapter = g.chapter
    weights = question_weights(g.plan.cleaned, [*names, *g.plan.names], df, n_docs)
    mine = [c for c in g.packed if (b := block_of(c)) and b.chapter == chapter.chapter]
    best = best_sentences(mine, block_of, weights, g.profile.wordings, limit=1)
    lines = [f"{chapter.title}（第{chapter.chapter}回）"]
    quotes = [(sentence, chunk_id) for _, sentence, chunk_id in best]
    lines += [f"· {_cite(q)}" for q in quotes]
    return Draft("answered", "\n".join(lines), quotes=quotes)


def compose_temporal(g: Gathered, people: PeopleIndex,
                     block_of: Callable[[str], Block | None]) -> Draft:
    """How something began or ended: the earliest or latest events of the person, in book order,
    each with its quote, and the block's first sentence that names the person when the event's
    own quote does not."""
    persons = [people.people[p] for p in g.plan.person_ids]
    keys = [k for p in persons for k in {normalize(n) for n in p.all_names} if len(k) >= 2]
    lines, quotes = [f"{'、'.join(p.name for p in persons)}（按书中顺序）："], []
    for event in g.temporal:
        q = _first_quote([SourceView.of(r) for r in event.sources])
        lines.append(f"· 第{event.chapter}回 {event.title}{_cite(q)}")
        quotes += [q] if q else []
        block = block_of(q[1]) if q else None
        if q and block and not any(k in normalize(q[0]) for k in keys):
            named = next((s for s in sentences(block.text) if len(s) <= MAX_QUOTE_CHARS
                          and any(k in normalize(s) for k in keys)), None)
            if named:
                lines.append(f"  {_cite((named, block.id))}")
                quotes.append((named, block.id))
    return Draft("answered", "\n".join(lines), quotes=quotes)


def _about(packed: Sequence[str], block_of: Callable[[str], Block | None],
           names: Sequence[str]) -> list[str]:
    """The packed blocks that mention the question's people (all blocks when it names none): an
    answer about 武松 is quoted from passages about 武松, not from a similar sentence on 李逵."""
    if not names:
        return list(packed)
    keys = [k for k in {normalize(n) for n in names} if len(k) >= 2]
    return [c for c in packed if (b := block_of(c)) and any(k in normalize(b.text) for k in keys)]


def compose(g: Gathered, block_of: Callable[[str], Block | None], people: PeopleIndex,
            question: str, df: Callable[[str], int], n_docs: int,
            relation_types: RelationTypes, after: int | None = None) -> Draft:
    """The offline answer for the plan's kind, or `insufficient` with the reason. `after`: the
    chapter a follow-up continues from."""
    if not any(is_cjk(ch) for ch in question):
        return Draft("insufficient", "", f"问题里没有中文字词：本服务检索{g.profile.book}原文，"
                                         "请用中文提问（简体、繁体均可）。")
    if dangling_reference(question, g.plan):
        return Draft("insufficient", "", "问题里的“他/她”指谁？请先问一个提到人物的问题"
                                         "（并沿用同一个 session_id），或直接写出人名。")
    named = [pid for pid, _ in people.find(question)]
    problem = None
    if asserts_action(question) and len(named) >= 2:
        evidence = [s for c in g.packed if (b := block_of(c)) for s in sentences(b.text)]
        problem = premise_problem(question, named, {p: people.people[p].name for p in named},
                                  relation_types, evidence, people)
    problem = problem or unknown_name(question, named, people, g.profile.titles)
    if problem:
        return Draft("insufficient", "", problem + "。")
    names = [n for pid in g.plan.person_ids for n in people.people[pid].all_names]
    if g.plan.kind == "pair" and g.pair is not None and (g.pair.relations or g.pair.shared_events):
        return _with_passages(compose_pair(g), g, block_of, names, df, n_docs)
    if g.plan.kind == "journey" and g.journey is not None:
        return compose_journey(g, after)
    if len(g.plan.person_ids) == 1 and asks_identity(question, names):
        return compose_profile(people.people[g.plan.person_ids[0]])
    if g.chapter is not None:
        return compose_chapter(g, block_of, names, df, n_docs)
    if g.temporal and g.plan.kind == "open":
        return compose_temporal(g, people, block_of)
    return compose_open(g, block_of, people, question, df, n_docs)


IDENTITY = re.compile(r"^(?:是|乃)?(?:什么来头|什么人|何人|谁|怎样的人|什么样的人|什么身份)"
                      r"|来头|来历|出身|身份|简介|介绍一下|是个什么")


def asks_identity(question: str, names: Sequence[str]) -> bool:
    """Who is this person? (柴进是什么来头, 介绍一下宋江) — asked of one named person."""
    text = normalize(question)
    for name in sorted(map(normalize, names), key=len, reverse=True):
        text = text.replace(name, "")
    return bool(IDENTITY.search(text)) and len(text) <= 12


def compose_profile(person: Person) -> Draft:
    """The person's record: names, profile and the passages it comes from."""
    quotes = [(ref.quote, ref.chunk_id) for ref in person.sources if ref.chunk_id][:3]
    aliases = f"（{'、'.join(person.aliases)}）" if person.aliases else ""
    first = f"，第{person.first_chapter}回出场" if person.first_chapter is not None else ""
    lines = [f"{person.name}{aliases}{first}：{person.profile}"]
    lines += [f"· {_cite(q)}" for q in quotes]
    if not person.profile and not quotes:
        return Draft("insufficient", "", f"知识库中没有{person.name}的介绍。")
    return Draft("answered", "\n".join(lines), quotes=quotes)


def _with_passages(draft: Draft, g: Gathered, block_of: Callable[[str], Block | None],
                   names: Sequence[str], df: Callable[[str], int], n_docs: int) -> Draft:
    """A pair question that also asks something specific gets the sentences that answer it."""
    weights = question_weights(g.plan.cleaned, [*names, *g.plan.names], df, n_docs)
    best = [b for b in best_sentences(g.packed, block_of, weights, g.profile.wordings, limit=2)
            if b[0] >= MIN_COVERAGE]
    if draft.status != "answered" or not weights or not best:
        return draft
    lines = [f"· {_cite((sentence, chunk_id))}" for _, sentence, chunk_id in best]
    draft.answer += "\n相关原文：\n" + "\n".join(lines)
    draft.quotes += [(sentence, chunk_id) for _, sentence, chunk_id in best]
    return draft
