"""The LLM's answer format for one source block; converted to domain records in `llm_extractor`.

Field descriptions are part of the prompt (`schema_for_prompt`), so they say exactly what to put.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kb.knowledge.models import RELATION_TYPES

QUOTE = "a verbatim passage of the text (≤ 60 characters) "


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class LLMPerson(_Answer):
    name: str = Field(min_length=1,
                      description="the person's usual full name as the text writes it (not a pronoun)")
    aliases: list[str] = Field(default_factory=list,
                               description="other names of this person in the passage: nicknames, titles")
    quote: str = Field(default="", description=QUOTE + "naming the person")


class LLMEvent(_Answer):
    title: str = Field(min_length=1, description="a short title: who does what, and where")
    participants: list[str] = Field(default_factory=list, description="names of the people taking part")
    place: str | None = Field(default=None, description="where it happens, if the text says so")
    summary: str = Field(default="", description="one or two sentences on what happens")
    quote: str = Field(min_length=2, description=QUOTE + "that shows the event")


class LLMRelation(_Answer):
    source: str = Field(min_length=1, description="name of the first person (the actor when directed)")
    target: str = Field(min_length=1, description="name of the second person")
    type: str = Field(description="one of: " + ", ".join(f"{k} ({v})" for k, v in RELATION_TYPES.items()))
    directed: bool = Field(default=False, description="true when it goes from source to target, e.g. killed")
    description: str = Field(default="", description="one sentence on the relation as the passage shows it")
    quote: str = Field(min_length=2, description=QUOTE + "naming both people")

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        if value not in RELATION_TYPES:
            raise ValueError(f"unknown relation type {value!r}; use one of {', '.join(RELATION_TYPES)}")
        return value


class LLMState(_Answer):
    person: str = Field(min_length=1, description="name of the person")
    kind: Literal["status", "place", "title", "possession"] = Field(
        description="status (e.g. 刺配, 落草), place (where the person now is), title (an office) "
                    "or possession")
    value: str = Field(min_length=1, description="the status, place, title or possession, e.g. 步兵都头")
    quote: str = Field(min_length=2, description=QUOTE + "that shows it")


class BlockExtraction(_Answer):
    """Everything one block of the novel says about people, events, relations and states."""

    people: list[LLMPerson] = Field(default_factory=list, description="people named in the passage")
    events: list[LLMEvent] = Field(default_factory=list, description="what happens, in order")
    relations: list[LLMRelation] = Field(default_factory=list,
                                         description="relations between two named people")
    states: list[LLMState] = Field(default_factory=list,
                                   description="a person's status, place, title or possession")


def schema_for_prompt() -> str:
    """The JSON schema of the answer, compact, for the system prompt."""
    return json.dumps(BlockExtraction.model_json_schema(), ensure_ascii=False, separators=(",", ":"))
