"""What the answering code knows about one novel, kept beside its bundle (`profile.json`).

Generic code names no character or place: the novel's title (for prompts and messages), its most
frequent places (which say nothing about what a question asks), the map from readers' words to the
novel's words, and the titles that stand in for a name (a 教头 known only by his title has no
given name)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import BundleError

PROFILE_FILE = "profile.json"


class CorpusProfile(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    title: str = Field(default="", description="the novel's title, e.g. for prompts")
    frequent_places: tuple[str, ...] = Field(
        default=(), description="places so frequent that they carry no content in a question")
    wordings: dict[str, tuple[str, ...]] = Field(
        default_factory=dict,
        description="reader's word → the novel's words (simplified); expansions and coverage")
    titles: tuple[str, ...] = Field(
        default=(), description="forms of address that are titles, not names")

    @property
    def place_chars(self) -> str:
        return "".join(dict.fromkeys("".join(self.frequent_places)))

    @property
    def book(self) -> str:
        """《title》, or 原著 when the profile has no title."""
        return f"《{self.title}》" if self.title else "原著"


def read_profile(directory: Path) -> CorpusProfile:
    """The profile in a bundle directory; an empty one when the file is absent."""
    path = directory / PROFILE_FILE
    if not path.exists():
        return CorpusProfile()
    try:
        return CorpusProfile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise BundleError(f"{path}: invalid corpus profile ({exc})") from exc


def write_profile(profile: CorpusProfile, directory: Path) -> None:
    data = profile.model_dump(mode="json")
    (directory / PROFILE_FILE).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                                          encoding="utf-8")
