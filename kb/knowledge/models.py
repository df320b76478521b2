"""The knowledge model: the records every layer exchanges, each tied to verbatim source text."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

RecordKind = Literal["person", "event", "relation", "state", "chapter"]

RELATION_TYPES: dict[str, str] = {
    "sworn_brothers": "结义兄弟",
    "master_disciple": "师徒",
    "spouse": "夫妻",
    "family": "亲属",
    "father_in_law": "翁婿",
    "friend": "朋友",
    "benefactor": "恩人/资助",
    "rescuer": "救命",
    "superior": "上司/主从",
    "servant": "仆从",
    "host_guest": "主客",
    "colleague": "同伴/同僚",
    "enemy": "仇敌",
    "persecutor": "陷害",
    "killed": "杀死",
    "fought": "交手",
    "acquaintance": "相识",
    "ally": "同伙",
    "parent_child": "父母子女",
    "siblings": "兄弟姐妹",
    "in_law": "姻亲/叔嫂",
    "lovers": "私通/恋人",
    "captured": "擒获",
    "recruited": "招降/引荐入伙",
    "betrayed": "出卖/背叛",
}
"""Relation types with their Chinese labels; shown to users and matched by the retriever."""

STATE_KINDS = ("status", "place", "title", "possession")


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class SourceRef(_Record):
    """Where a record comes from: a verbatim quote of one source block.

    On disk a ref may give the chapter and the quote alone; the bundle loader resolves the chunk id
    and offsets by locating the quote, so bundles survive a change of chunking.
    """

    quote: str = Field(min_length=2, description="verbatim passage of the source text")
    chapter: int | None = Field(default=None, ge=0, description="chapter number (第七回 = 7)")
    chunk_id: str | None = Field(default=None, description="source block id, e.g. ch007_chunk_004")
    start: int | None = Field(default=None, ge=0, description="quote start, chapter character offset")
    end: int | None = Field(default=None, ge=0, description="quote end, chapter character offset")


class Participant(_Record):
    person: str = Field(description="person id")
    role: str = Field(default="participant", description="role in the event, e.g. 救人者")


class Person(_Record):
    id: str
    name: str = Field(description="display name, simplified script")
    aliases: list[str] = Field(default_factory=list, description="nicknames, titles, other forms")
    profile: str = ""
    group: str | None = Field(default=None, description="e.g. 天罡星 / 地煞星 / 官府 / 其他")
    first_chapter: int | None = None
    sources: list[SourceRef] = Field(default_factory=list)
    confidence: float = 1.0
    origin: Literal["curated", "extracted"] = "curated"

    @property
    def all_names(self) -> list[str]:
        return [self.name, *self.aliases]


class Event(_Record):
    id: str
    title: str
    chapter: int = Field(ge=0)
    order: int = Field(description="position in book order; unique across the bundle")
    place: str | None = None
    participants: list[Participant] = Field(default_factory=list)
    summary: str = ""
    turning_point: bool = Field(default=False, description="starts a new journey stage")
    headline: bool = Field(default=False, description="its chapter's title names it (set when the "
                           "bundle is assembled: kb.knowledge.importance)")
    sources: list[SourceRef] = Field(min_length=1)
    confidence: float = 1.0
    origin: Literal["curated", "extracted"] = "curated"

    @property
    def person_ids(self) -> list[str]:
        return [p.person for p in self.participants]


class Relation(_Record):
    id: str
    source: str = Field(description="person id")
    target: str = Field(description="person id")
    type: str
    directed: bool = False
    description: str = ""
    chapters: list[int] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list, description="ids of supporting events")
    sources: list[SourceRef] = Field(min_length=1)
    confidence: float = 1.0
    origin: Literal["curated", "extracted"] = "curated"

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        if value not in RELATION_TYPES:
            raise ValueError(f"unknown relation type {value!r}; known: {', '.join(RELATION_TYPES)}")
        return value

    @property
    def label(self) -> str:
        return RELATION_TYPES[self.type]


class State(_Record):
    id: str
    person: str
    kind: Literal["status", "place", "title", "possession"]
    value: str
    chapter: int = Field(ge=0, description="from this chapter on")
    until_chapter: int | None = None
    description: str = ""
    sources: list[SourceRef] = Field(min_length=1)
    confidence: float = 1.0
    origin: Literal["curated", "extracted"] = "curated"


class ChapterSummary(_Record):
    id: str = Field(description="ch007 for chapter 7")
    chapter: int = Field(ge=0)
    title: str
    summary: str
    sources: list[SourceRef] = Field(min_length=1)
    origin: Literal["curated", "extracted"] = "curated"


Record = Person | Event | Relation | State | ChapterSummary


RECORD_KINDS: dict[type[BaseModel], RecordKind] = {
    Person: "person", Event: "event", Relation: "relation", State: "state",
    ChapterSummary: "chapter",
}
"""The one map from record model to kind, in the order records are validated and written."""


def record_kind(record: Record) -> RecordKind:
    return RECORD_KINDS[type(record)]
