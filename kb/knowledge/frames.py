"""The frames of an answer in one language (`kb/data/lang/<code>.json`): the templates every
answer is written with (`say`, read by key), the relation types' labels and the LLM's prompt.
Every language file holds them with the same keys and fields; what a language needs to *read* a
question (zh's question words, en's reading words) is its own model beside this one
(`kb.knowledge.language`, `kb.knowledge.english_words`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError

LANG_DIR = Path(__file__).resolve().parent.parent / "data" / "lang"
M = TypeVar("M", bound=BaseModel)


class Prompt(BaseModel):
    """The LLM answer's prompt in this language: templates filled by kb.answering.llm_answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system: str
    asks: dict[str, str] = Field(description="what the plan asks (Plan.asks) said to the model")
    moments: dict[str, str]
    question: str
    plan: str
    moment: str
    arc: str
    knowledge: str
    plan_records: str
    summary: str
    draft: str
    stages: str
    stage: str
    evidence: str
    reply: str
    none: str
    nothing: str
    separator: str


class Frames(BaseModel):
    """One language's answer frames: templates by key, relation labels, the LLM prompt."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    prompt: Prompt
    relation_labels: dict[str, str] = Field(
        default_factory=dict, description="relation type → its label, where not the records'")
    say: dict[str, str] = Field(default_factory=dict,
                                description="the answer templates: key → a format string")

    def phrase(self, key: str, **fields: object) -> str:
        """The answer template `key` filled with `fields`; a key the file lacks is an error
        naming it."""
        try:
            template = self.say[key]
        except KeyError:
            raise ConfigError(f"language file: no answer template {key!r}") from None
        return template.format(**fields)


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """JSON objects whose keys repeat would keep the last group and lose the others' words."""
    keys = [k for k, _ in pairs]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ValueError(f"a key stands twice: {', '.join(repeated)}")
    return dict(pairs)


def read_model(path: Path, model: type[M]) -> M:
    """A language file read as `model`; a ConfigError names the file and what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_repeated_keys)
        return model.model_validate(data)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the language file ({exc.strerror})") from exc
    except ValueError as exc:  # json and pydantic errors
        detail = exc.errors()[0] if isinstance(exc, ValidationError) else None
        where = ".".join(str(p) for p in detail["loc"]) if detail else ""
        message = detail["msg"] if detail else str(exc)
        raise ConfigError(f"{path}: invalid language file{f' at {where}' if where else ''}: "
                          f"{message}") from exc
