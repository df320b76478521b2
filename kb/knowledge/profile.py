"""What the answering code knows about one novel, kept beside its bundle (`profile.json`).

Generic code names no character or place: the novel's title (for prompts and messages), its most
frequent places (which say nothing about what a question asks), the map from readers' words to the
novel's words, the titles that stand in for a name (a 教头 known only by his title has no given
name), and the stretches of the story readers name (a campaign and its chapters)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.atomic import write_text
from core.errors import BundleError
from core.utf8 import read_utf8

PROFILE_FILE = "profile.json"
WHILE = "(?:的时候|时候|期间|之时|之际|时|中|里)"
"""The word of time after a campaign's name that makes it the question's when (征某时)."""


class Arc(BaseModel):
    """A stretch of the story readers name (a campaign): the words they name it by, its chapters."""

    model_config = ConfigDict(frozen=True)

    words: tuple[str, ...] = Field(min_length=1, description="readers' names for it (simplified)")
    first: int = Field(ge=0, description="its first chapter")
    last: int = Field(ge=0, description="its last chapter")

    def holds(self, chapter: int | None) -> bool:
        return chapter is not None and self.first <= chapter <= self.last

    @property
    def when(self) -> str:
        """The stretch as a reader says it, with its chapters: 征辽期间（第83–89回）."""
        return f"{self.words[0]}{self.period}（第{self.first}–{self.last}回）"

    period: str = Field(default="期间", description="the word that makes the name a when")
    person: str | None = Field(default=None, description="whose death it begins with (甲死后), if so")


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
    hero_groups: tuple[str, ...] = Field(
        default=(), description="the groups (Person.group) of the heroes a reader follows")
    hero_word: str = Field(default="", description="what the book calls its heroes (好汉)")
    arcs: tuple[Arc, ...] = Field(
        default=(), description="stretches of the story readers name, with their chapters")
    roster_marks: tuple[str, ...] = Field(
        default=(), description="what marks a clause of a person's profile as the book's roster "
                                "(a rank, a star, a post), never an attribute of the person")

    def arc_of(self, simplified_question: str, as_when: bool = True) -> Arc | None:
        """The stretch of the story a question names, by the longest of the readers' words it
        holds: `as_when`, only before a word of time (`WHILE`: 征某时, 征某期间 — a campaign that
        is what the question asks about, 为什么要打某庄, is no when); else anywhere (三打某庄的经过)."""
        named = [(len(w), arc) for arc in self.arcs for w in arc.words
                 if (re.search(f"{re.escape(w)}{WHILE}", simplified_question) if as_when
                     else w in simplified_question)]
        return max(named, key=lambda x: x[0])[1] if named else None

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
        return CorpusProfile.model_validate(json.loads(read_utf8(path)))
    except (ValueError, ValidationError) as exc:
        raise BundleError(f"{path}: invalid corpus profile ({exc})") from exc


def write_profile(profile: CorpusProfile, directory: Path) -> None:
    data = profile.model_dump(mode="json")
    write_text(directory / PROFILE_FILE, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
