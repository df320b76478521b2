"""Chinese surnames as language data (`kb/data/lang/zh_surnames.json`): the common single and
double surnames, by which a string of the text is recognized as a person's full name."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError

SURNAMES_FILE = Path(__file__).resolve().parent.parent / "data" / "lang" / "zh_surnames.json"


class _SurnameFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str = ""
    single: str = Field(min_length=1, description="single-character surnames, one string")
    double: list[str] = Field(default_factory=list, description="two-character surnames")


@dataclass(frozen=True)
class Surnames:
    """Which surname a name starts with (a double surname first)."""

    single: frozenset[str]
    double: frozenset[str]

    def of(self, name: str) -> str | None:
        if len(name) >= 3 and name[:2] in self.double:
            return name[:2]
        if len(name) >= 2 and name[0] in self.single:
            return name[0]
        return None


def read_surnames(path: Path = SURNAMES_FILE) -> Surnames:
    try:
        data = _SurnameFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        detail = exc.errors()[0] if isinstance(exc, ValidationError) else exc
        raise ConfigError(f"{path}: invalid surnames ({detail})") from exc
    bad = [d for d in data.double if len(d) != 2]
    if bad:
        raise ConfigError(f"{path}: double: not two characters: {bad}")
    return Surnames(frozenset(data.single), frozenset(data.double))


@lru_cache(maxsize=1)
def surnames() -> Surnames:
    """The bundled surnames, read once."""
    return read_surnames()
