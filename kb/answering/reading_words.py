"""The passage reader's cue families, as data (`kb/data/lang/zh_reading.json`): which words a
sentence must hold to answer a slot the question asks. Read once and checked: a word in two
families would make the reader's preference an accident of file order."""

from __future__ import annotations

import json
from functools import cache

from pydantic import BaseModel, ConfigDict, model_validator

from core.errors import ConfigError
from kb.knowledge.frames import LANG_DIR

READING_FILE = LANG_DIR / "zh_reading.json"


class ReadingWords(BaseModel):
    """families: name → cue words; asks: a plan's asked slot → the family it calls."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    doc: str = ""
    families: dict[str, tuple[str, ...]]
    asks: dict[str, str]
    dying: tuple[str, ...] = ()
    """Families whose question is answered at a person's death (an age, last wishes): the death
    passage is read."""
    asked_only: tuple[str, ...] = ()
    """Families of question words only (临终): no cue a sentence must hold."""

    @model_validator(mode="after")
    def _once(self) -> ReadingWords:
        seen: dict[str, str] = {}
        for name, words in self.families.items():
            for word in words:
                if word in seen:
                    raise ValueError(f"{word} stands in {seen[word]} and {name}")
                seen[word] = name
        named = set(self.asks.values()) | set(self.dying) | set(self.asked_only)
        unknown = sorted(named - set(self.families))
        if unknown:
            raise ValueError(f"asks name no family: {', '.join(unknown)}")
        return self


@cache
def reading_words() -> ReadingWords:
    """The validated cue families."""
    data = json.loads(READING_FILE.read_text(encoding="utf-8"))
    data["doc"] = data.pop("_doc", "")
    try:
        return ReadingWords.model_validate(data)
    except ValueError as exc:
        raise ConfigError(f"{READING_FILE}: {exc}") from exc
