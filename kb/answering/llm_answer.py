"""The LLM answer: one chat call whose prompt demands block-id citations and verbatim quotes; the
reply is validated by a pydantic model and converted to a `Draft` at this boundary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from core.llm import ChatClient
from ingest.chunking import Block
from kb.answering.book import Book
from kb.answering.drafting import Draft
from kb.answering.evidence import Evidence
from kb.answering.record_search import render
from kb.knowledge.language import frames

PROMPT_VERSION = "answer-v2"
class LLMCitation(BaseModel):
    chunk_id: str = Field(description="the id of the block quoted, e.g. ch007_chunk_004")
    quote: str = Field(description="a verbatim passage of that block, 8-40 characters")


class LLMStageNote(BaseModel):
    index: int = Field(description="1-based number of the journey stage")
    note: str = Field(description="one or two sentences on what happens in this stage")


class LLMReply(BaseModel):
    status: Literal["answered", "insufficient"]
    answer: str = Field(default="", description="the answer, in the language the question was asked in")
    reason: str | None = Field(default=None, description="why the evidence is insufficient")
    citations: list[LLMCitation] = Field(default_factory=list)
    stage_notes: list[LLMStageNote] = Field(default_factory=list)


def build_messages(g: Evidence, book: Book, offline: Draft,
                   block_of: Callable[[str], Block | None]) -> list[dict[str, str]]:
    """The prompt (the language's `prompt` templates): the plan (what is asked), the records, the
    packed blocks by id, the offline draft and, for journeys, the stages to write a note for; the
    same evidence the offline answer used."""
    plan = g.plan
    say = frames(plan.lang).prompt
    names = {pid: p.name for pid, p in book.people.people.items()}
    knowledge = "\n".join(f"- [{h.record.id}] {h.text}" for h in g.knowledge[:30])
    evidence = "\n\n".join(f"[{c}]\n{b.display_text}" for c in g.packed
                           if (b := block_of(c)) is not None)
    parts = [say.question.format(question=plan.question, asked=plan.asked or plan.question),
             say.plan.format(
        kind=plan.kind, asked=say.asks[plan.asks],
        moment=say.moment.format(moment=say.moments[plan.moment]) if plan.moment else "",
        focus=say.separator.join(plan.focus) or say.nothing,
        names=say.separator.join(plan.names) or say.nothing,
        arc=say.arc.format(when=plan.arc.when) if plan.arc is not None else ""),
        say.knowledge.format(knowledge=knowledge or say.none)]
    plan_records = "\n".join(f"- [{r.id}] {render(r, names)}" for r in g.plan_records[:30])
    if plan_records:
        parts.append(say.plan_records.format(records=plan_records))
    if g.summary is not None:
        parts.append(say.summary.format(chapter=g.summary.chapter, summary=g.summary.summary))
    if offline.status == "answered":
        parts.append(say.draft.format(draft=offline.answer[:600]))
    if offline.stages:
        parts.append(say.stages.format(stages="\n".join(say.stage.format(
            index=i, title=s.title, chapters=say.separator.join(map(str, s.chapters)), note=s.note)
            for i, s in enumerate(offline.stages, start=1))))
    parts.append(say.evidence.format(evidence=evidence or say.none))
    parts.append(say.reply)
    return [{"role": "system", "content": say.system.format(book=book.profile.book)},
            {"role": "user", "content": "\n\n".join(parts)}]


class LLMAnswerer:
    def __init__(self, client: ChatClient) -> None:
        self.client = client

    def answer(self, g: Evidence, book: Book, offline: Draft,
               block_of: Callable[[str], Block | None]) -> Draft:
        messages = build_messages(g, book, offline, block_of)
        result = self.client.complete_json(messages, LLMReply)
        reply = result.value
        stages = [s.model_copy() for s in offline.stages]
        for note in reply.stage_notes:
            if 1 <= note.index <= len(stages):
                stages[note.index - 1].note = note.note
        return Draft(status=reply.status, answer=reply.answer, reason=reply.reason,
                     quotes=[(c.quote, c.chunk_id) for c in reply.citations], stages=stages)
