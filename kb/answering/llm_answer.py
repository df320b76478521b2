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

PROMPT_VERSION = "answer-v2"
SYSTEM = (
    "你是{book}知识助手。只根据给出的知识记录和原文段落回答，不要使用其他知识。"
    "answer 的第一句直接回答所问（谁、为什么、在哪里、第几回、多少……），用书中的说法；"
    "然后再给出依据。每个论断都要引用原文：citations 中给出段落 id（如 ch007_chunk_004）和从该段落中"
    "逐字摘录的引文（8–40 字，必须与原文一字不差，可以是繁体）。证据中找不到所问的东西时，status 为"
    " insufficient，并在 reason 中用读者能懂的话说明书中没有写什么（如“书中没有写哨棒是什么木头”）；"
    "人名、绰号和“按阶段、讲讲、经历”这类说法不算缺少的内容。只输出 JSON。"
)
ASKS = {"chapter": "第几回", "how_many": "数量", "name": "名字", "made_of": "用什么做的",
        "why": "原因（此前发生的事）", "where": "地点", "when": "时间（第几回）",
        "identity": "此人是谁", "who": "哪些人", "whether": "是否", "relation": "两人的关系与交往",
        "stages": "按阶段的经历", "how": "经过", "what": "所问之事"}
MOMENTS = {"began": "故事的开头（第一次）", "ended": "结局"}


class LLMCitation(BaseModel):
    chunk_id: str = Field(description="the id of the block quoted, e.g. ch007_chunk_004")
    quote: str = Field(description="a verbatim passage of that block, 8-40 characters")


class LLMStageNote(BaseModel):
    index: int = Field(description="1-based number of the journey stage")
    note: str = Field(description="one or two sentences on what happens in this stage")


class LLMReply(BaseModel):
    status: Literal["answered", "insufficient"]
    answer: str = Field(default="", description="the answer in simplified Chinese")
    reason: str | None = Field(default=None, description="why the evidence is insufficient")
    citations: list[LLMCitation] = Field(default_factory=list)
    stage_notes: list[LLMStageNote] = Field(default_factory=list)


def build_messages(g: Evidence, book: Book, offline: Draft,
                   block_of: Callable[[str], Block | None]) -> list[dict[str, str]]:
    """The prompt: the plan (what is asked), the records, the packed blocks by id, the offline
    draft and, for journeys, the stages to write a note for; the same evidence the offline answer
    used."""
    names = {pid: p.name for pid, p in book.people.people.items()}
    question = g.plan.question
    knowledge = "\n".join(f"- [{h.record.id}] {h.text}" for h in g.knowledge[:30])
    evidence = "\n\n".join(f"[{c}]\n{b.display_text}" for c in g.packed
                           if (b := block_of(c)) is not None)
    plan = g.plan
    asked = ASKS[plan.asks] + (f"；问的是{MOMENTS[plan.moment]}" if plan.moment else "")
    parts = [f"问题：{question}",
             f"问题类型：{plan.kind}；所问：{asked}；要点：{'、'.join(plan.focus) or '无'}；"
             f"涉及人物：{'、'.join(plan.names) or '无'}"
             + (f"；所问时段：{plan.arc.when}，只答这些回里的事"
                if plan.arc is not None else ""),
             f"知识记录：\n{knowledge or '（无）'}"]
    plan_records = "\n".join(f"- [{r.id}] {render(r, names)}" for r in g.plan_records[:30])
    if plan_records:
        parts.append(f"本题直接相关的记录（两人的关系与共同经历、人物的阶段）：\n{plan_records}")
    if g.summary is not None:
        parts.append(f"所问的第{g.summary.chapter}回的概要：{g.summary.summary}")
    if offline.status == "answered":
        parts.append(f"离线草稿（仅供参考，开头一句是对所问的直接回答）：\n{offline.answer[:600]}")
    if offline.stages:
        stages = "\n".join(f"{i}. {s.title}（第{'、'.join(map(str, s.chapters))}回）：{s.note}"
                           for i, s in enumerate(offline.stages, start=1))
        parts.append(f"人物经历的阶段（已由知识库确定，请为每个阶段写 stage_notes）：\n{stages}")
    parts.append(f"原文段落：\n{evidence or '（无）'}")
    parts.append('回答 JSON：{"status": "answered"|"insufficient", "answer": "...", "reason": null, '
                 '"citations": [{"chunk_id": "...", "quote": "..."}], "stage_notes": [{"index": 1, '
                 '"note": "..."}]}')
    return [{"role": "system", "content": SYSTEM.format(book=book.profile.book)},
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
