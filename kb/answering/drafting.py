"""What every offline composer shares: the draft an answer is written into (`Draft`, `Writer`),
the context it reads (`Ctx`: the gathered evidence, the people, the corpus statistics) and the
small readings of records and questions they all make (a record's first quote, a summary cut at a
clause, the asked act's characters)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.text import is_cjk, to_simplified
from ingest.chunking import Block
from kb.answering.answer_models import StageNote
from kb.answering.book import Book
from kb.answering.coverage import Coverage, _forms, character_weights, question_weights
from kb.answering.evidence import Evidence
from kb.answering.people_index import PeopleIndex
from kb.answering.plan import Plan
from kb.answering.quantities import has_quantity
from kb.answering.record_search import participants, render
from kb.knowledge.language import frames, language
from kb.knowledge.models import Event, Record, Relation, State
from kb.knowledge.pinyin_names import english_name
from kb.knowledge.views import SourceView
from retrieval.analyzers import FUNCTION_CHARS

BlockOf = Callable[[str], Block | None]
SUMMARY_CHARS = 40
CHARACTER_ASKS_NOT = ("who", "name", "identity")
"""Asks whose single act character (甲杀了谁: 杀) is said of the asked one, not of the named one:
its sentences would name whoever else did that act."""
Lead = tuple[str, tuple[str, str] | None, bool]
"""(the lead sentence, its quote, whether it already states the record)."""


class Passages(Protocol):
    """The corpus an answer quotes: its blocks by id and the statistics its words are weighed by."""

    def block(self, chunk_id: str) -> Block | None: ...

    def document_frequency(self, term: str) -> int: ...

    @property
    def n_docs(self) -> int: ...


@dataclass
class Draft:
    status: str
    answer: str
    reason: str | None = None
    quotes: list[tuple[str, str]] = field(default_factory=list)  # (text, chunk_id)
    stages: list[StageNote] = field(default_factory=list)


def first_quote(sources: Sequence[SourceView]) -> tuple[str, str] | None:
    for ref in sources:
        if ref.chunk_id:
            return ref.quote, ref.chunk_id
    return None


def record_quote(record: Record) -> tuple[str, str] | None:
    return first_quote([SourceView.of(r) for r in getattr(record, "sources", [])])


def cite(quote: tuple[str, str] | None) -> str:
    return f"「{quote[0]}」〔{quote[1]}〕" if quote else ""


GLUE = re.compile(r"(?<=[。！？])\s+")
"""Two accounts joined into one record (its sources merged): the first one is told alone."""
SENTENCE_ENDS = "。！？；"
CLAUSE_ENDS = "，、："


def short(text: str, limit: int = SUMMARY_CHARS) -> str:
    """The text cut at a sentence end within `limit` characters, else at a clause end, else after
    its first clause however long — never inside a clause and never two accounts glued together;
    without its closing 。 (the caller closes the sentence)."""
    text = GLUE.split(text.strip())[0].strip().rstrip("。")
    if len(text) <= limit:
        return text
    for ends in (SENTENCE_ENDS, CLAUSE_ENDS):
        cut = max(text.rfind(p, 0, limit + 1) for p in ends)
        if cut > limit // 3:
            return text[:cut]
    first = min((i for i in (text.find(p) for p in SENTENCE_ENDS + CLAUSE_ENDS) if i > 0),
                default=len(text))
    return text[:first]


def chapter_span(chapters: Sequence[int], lang: str = "zh") -> str:
    """第7回, 第7–11回 (in the language's words)."""
    if not chapters:
        return ""
    lo, hi = min(chapters), max(chapters)
    say = frames(lang)
    return say.phrase("chapter.one", n=lo) if lo == hi else say.phrase("chapter.span", lo=lo, hi=hi)


class Writer:
    """Lines and quotes of one answer; every quote cited is kept for the checks."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.quotes: list[tuple[str, str]] = []

    def add(self, line: str, quote: tuple[str, str] | None = None) -> None:
        self.lines.append(line + cite(quote))
        if quote and quote not in self.quotes:  # a quote cited twice is checked once
            self.quotes.append(quote)

    def draft(self, stages: list[StageNote] | None = None) -> Draft:
        return Draft("answered", "\n".join(self.lines), quotes=self.quotes, stages=stages or [])


@dataclass
class Ctx:
    """What every composer reads: one request's evidence (`g`), the book's records and caches,
    and the passages to quote. Composers fetch nothing from the store."""

    g: Evidence
    book: Book
    passages: Passages

    @property
    def plan(self) -> Plan:
        return self.g.plan

    @property
    def people(self) -> PeopleIndex:
        return self.book.people

    def block_of(self, chunk_id: str) -> Block | None:
        return self.passages.block(chunk_id)

    def name(self, person_id: str) -> str:
        """A person's display name; in an English answer "Pinyin Name (汉字)"."""
        name = self.book.name(person_id)
        return name if self.plan.lang == "zh" else english_name(name)

    def label(self, relation_type: str, label: str) -> str:
        """A relation's label in the question's language (the record's own in Chinese)."""
        return frames(self.plan.lang).relation_labels.get(relation_type, label)

    def span(self, chapters: Sequence[int]) -> str:
        return chapter_span(chapters, self.plan.lang)

    def say(self, key: str, **fields: object) -> str:
        """The answer template `key` of the question's language, filled (kb/data/lang)."""
        return frames(self.plan.lang).phrase(key, **fields)

    @property
    def all_names(self) -> list[str]:
        return [n for pid in self.plan.person_ids for n in self.people.people[pid].all_names]

    def weights(self) -> dict[str, float]:
        names = [*self.all_names, *self.plan.names]
        df, n_docs = self.passages.document_frequency, self.passages.n_docs
        wordings = self.book.profile.wordings
        weights = question_weights(self.plan.cleaned, names, df, n_docs, wordings)
        if not weights and self.plan.focus:  # 在哪里打的虎: the plan joined 打虎 across 的
            weights = question_weights(" ".join(self.plan.focus), names, df, n_docs, wordings)
        if not weights and len(set(self.plan.person_ids)) == 1 and \
                self.plan.asks not in CHARACTER_ASKS_NOT:
            weights = character_weights(self.plan.cleaned, names)  # 甲葬在哪里: 葬
        return weights

    def render(self, record: Record) -> str:
        """The record as one line of text (as the knowledge index renders it), memoized for the
        loaded bundle (`Book.rendered`): a hub character's records are rendered once."""
        text = self.book.rendered.get(record.id)
        if text is None:
            text = render(record, {pid: self.name(pid) for pid in participants(record)})
            self.book.rendered[record.id] = text
        return text


def headline_names(record: Record, names: Sequence[str]) -> bool:
    """The record's headline names one of the question's people: of the records that hold the
    question about as well (甲为什么上山: 甲's own 投奔 and another man's 上山入伙, where 甲 only
    looks on), the one about them."""
    headline = (record.title if isinstance(record, Event) else record.value
                if isinstance(record, State) else "")
    return any(n in headline for n in names)


def asked_acts(ctx: Ctx) -> set[str]:
    """The characters of the question's content (the act a who-question asks about): its words
    and the one-character verbs between them (宝甲被谁偷了 → 偷), with the book's wording of a
    one-character verb (偷 → 盗、窃: the thief's role is 盗窃者)."""
    text = to_simplified(ctx.plan.cleaned)
    for name in sorted(map(to_simplified, ctx.all_names), key=len, reverse=True):
        text = text.replace(name, " ")
    acts = {ch for word in ctx.plan.focus for ch in word if ch not in FUNCTION_CHARS}
    acts |= {ch for ch in text if is_cjk(ch) and ch not in FUNCTION_CHARS}
    wordings = ctx.book.profile.wordings
    return acts | {ch for a in acts for form in wordings.get(a, ()) if len(form) == 1 for ch in form}


def book_words(texts: Sequence[str], wordings: Mapping[str, Sequence[str]]) -> set[str]:
    """The novel's wordings (two characters or more) of the reader's words (two or more) inside
    the texts (离开梁山 holds 离开 → 辞别, 离了; 甲一天能走 holds 一天 → 一日)."""
    return {w for key, forms in wordings.items() if len(key) >= 2 and any(key in t for t in texts)
            for w in forms if len(w) >= 2}


def bigrams(words: Sequence[str]) -> set[str]:
    return {w[i:i + 2] for w in words for i in range(len(w) - 1)}


def role_form_chars() -> frozenset[str]:
    """Characters of every role word (杀人者, 寻人者) and of 哪些人: never the act itself."""
    return frozenset(language().chars.role_forms)


MIN_RECORD_COVERAGE = 0.3
"""A record leads the answer only when it holds this share of the question's content weight."""


def best_record(ctx: Ctx, weights: dict[str, float], records: Sequence[Record]
                 ) -> tuple[float, Record] | None:
    """The record holding the most of the question's content weight (ties: knowledge order). Of
    a how-many, the question's words may stand split (买 … 刀: the record of the purchase rarely
    says 买刀), and of tied records the first that gives a number of the asked unit wins (the
    purchase that gives the price, not a later one that does not); elsewhere the exact word is
    the stronger sign (卖刀, not 要卖的宝刀)."""
    if not weights:
        return None
    counting = ctx.plan.asks == "how_many"
    covered = Coverage(weights, {t: _forms(t, ctx.book.profile.wordings) for t in weights},
                       ctx.plan.focus if counting else ())
    best: tuple[float, bool, Record] | None = None
    for record in records:  # records are written in simplified script: no conversion
        text = ctx.render(record)
        score = covered(text)
        if best is not None and score < best[0]:
            continue
        if best is not None and score == best[0] and (not counting or best[1]):
            continue  # a tie: the earlier stays, unless it lacks the number this one may give
        counts = counting and has_quantity(text, ctx.plan, ctx.people)
        if best is None or score > best[0] or counts:
            best = (score, counts, record)
    return (best[0], best[2]) if best else None


def account_of(ctx: Ctx, record: Record) -> str:
    """What a record says happened, in one sentence (events: title and summary)."""
    if isinstance(record, Event):
        return ctx.say("account.event", chapter=record.chapter, title=record.title,
                       told=short(record.summary, 90))
    if isinstance(record, Relation):
        return ctx.say("account.relation", told=short(record.description, 90),
                       source=ctx.name(record.source), target=ctx.name(record.target),
                       label=ctx.label(record.type, record.label))
    if isinstance(record, State):
        return ctx.say("account.state", chapter=record.chapter, value=record.value,
                       told=short(record.description, 90))
    return short(ctx.render(record), 90)


def scene_item(ctx: Ctx, event: Event) -> str:
    """· 第N回 an event's title: its account."""
    return ctx.say("scene.item", chapter=event.chapter, title=event.title,
                   summary=short(event.summary))
