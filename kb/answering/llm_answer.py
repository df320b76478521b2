"""The LLM answer: one chat call whose prompt demands block-id citations and verbatim quotes; the
reply is validated by a pydantic model and converted to a `Draft` at this boundary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from core.llm import ChatClient
from ingest.chunking import Block
from kb.answering.compose import Draft
from kb.answering.evidence import Gathered

PROMPT_VERSION = "answer-v1"
SYSTEM = (
    "你是{book}知识助手。只根据给出的知识记录和原文段落回答，不要使用其他知识。"
    "每个论断都要引用原文：citations 中给出段落 id（如 ch007_chunk_004）和从该段落中逐字摘录的引文"
    "（8–40 字，必须与原文一字不差，可以是繁体）。证据不足以回答时，status 为 insufficient，"
    "并在 reason 中说明缺少什么。只输出 JSON。"
)


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


def build_messages(question: str, g: Gathered, offline: Draft,
                   block_of: Callable[[str], Block | None]) -> list[dict[str, str]]:
    knowledge = "\n".join(f"- [{h.record.id}] {h.text}" for h in g.knowledge[:30])
    evidence = "\n\n".join(f"[{c}]\n{b.display_text}" for c in g.packed
                           if (b := block_of(c)) is not None)
    parts = [f"问题：{question}", f"问题类型：{g.plan.kind}；涉及人物：{'、'.join(g.plan.names) or '无'}",
             f"知识记录：\n{knowledge or '（无）'}"]
    if offline.stages:
        stages = "\n".join(f"{i}. {s.title}（第{'、'.join(map(str, s.chapters))}回）：{s.note}"
                           for i, s in enumerate(offline.stages, start=1))
        parts.append(f"人物经历的阶段（已由知识库确定，请为每个阶段写 stage_notes）：\n{stages}")
    parts.append(f"原文段落：\n{evidence or '（无）'}")
    parts.append('回答 JSON：{"status": "answered"|"insufficient", "answer": "...", "reason": null, '
                 '"citations": [{"chunk_id": "...", "quote": "..."}], "stage_notes": [{"index": 1, '
                 '"note": "..."}]}')
    return [{"role": "system", "content": SYSTEM.format(book=g.profile.book)},
            {"role": "user", "content": "\n\n".join(parts)}]


class LLMAnswerer:
    def __init__(self, client: ChatClient) -> None:
        self.client = client

    def answer(self, question: str, g: Gathered, offline: Draft,
               block_of: Callable[[str], Block | None]) -> Draft:
        result = self.client.complete_json(build_messages(question, g, offline, block_of), LLMReply)
        reply = result.value
        stages = [s.model_copy() for s in offline.stages]
        for note in reply.stage_notes:
            if 1 <= note.index <= len(stages):
                stages[note.index - 1].note = note.note
        return Draft(status=reply.status, answer=reply.answer, reason=reply.reason,
                     quotes=[(c.quote, c.chunk_id) for c in reply.citations], stages=stages)
