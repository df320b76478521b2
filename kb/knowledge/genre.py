"""The words of the 章回小说 genre, typed and validated (`kb/data/genre/zhanghui.json`).

Extraction reads what marks a person, a relation or an event in any novel of the genre from this
file, never from code, so that no book's words hide in a rule. Each consumer owns its section
(`people` for the discovery of people and aliases); a section is a frozen pydantic model and the
file is read once."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError

GENRE_FILE = Path(__file__).resolve().parent.parent / "data" / "genre" / "zhanghui.json"

Words = tuple[str, ...]


class PeopleWords(BaseModel):
    """What marks a person in the text: the speaker's cues after a name (甲道, 甲大怒), the
    introductions (姓…名…字…, 绰号), the titles and kinship forms after a surname (甲公, 二爷),
    the generic speakers that are no one's name (众人, 左右) and the words that make a noun
    generic when they stand before it (那, 一个)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str = ""
    speaker_cues: Words = Field(min_length=1)
    intro_surname: Words = Field(min_length=1, description="复姓 / 姓 before a surname")
    intro_given: Words = Field(min_length=1, description="名 before a given name")
    intro_courtesy: Words = Field(min_length=1, description="字 before a courtesy name")
    intro_courtesy_later: Words = Field(default=(), description="a courtesy name taken later")
    intro_childhood: Words = Field(default=(), description="小字 before a childhood name")
    birth_cues: Words = Field(default=(), description="生 in 甲生乙: a birth (the child's names follow)")
    intro_styled: Words = Field(default=(), description="道号 before a sobriquet")
    intro_renamed: Words = Field(default=(), description="更名 before a name taken later")
    intro_nickname: Words = Field(default=(), description="绰号 / 人称 before a nickname")
    intro_nickname_plain: Words = Field(default=(), description="人皆称为 before an unquoted nickname")
    intro_identity: Words = Field(default=(), description="乃 in 甲乃乙也")
    identity_end: Words = Field(default=())
    pronouns: Words = Field(default=(), description="他 between a name and a nickname: not its bearer")
    demonstratives: Words = Field(default=(), description="此人 opening a sentence: the one just named")
    family_marks: Words = Field(default=(), description="甲氏: the family of the surname 甲")
    titles: Words = Field(default=(), description="titles after a surname: 甲公, 甲丞相")
    rank_suffixes: Words = Field(default=(), description="甲王, 甲侯: the rank ending a fief's title")
    conferral_verbs: Words = Field(default=(), description="封 in 封甲为乙: a title conferred")
    kinship_forms: Words = Field(default=(), description="forms of address by rank: 二爷, 三郎")
    generic_speakers: Words = Field(default=(), description="speakers who are no one's name")
    determiners: Words = Field(default=(), description="words before a generic noun (那, 一)")
    name_characters: Words = Field(default=(), description="one-character cues that also end names (云)")


class GenreWords(BaseModel):
    """The genre file: one section per consumer."""

    model_config = ConfigDict(frozen=True, extra="allow")

    people: PeopleWords


def read_genre(path: Path = GENRE_FILE) -> GenreWords:
    """The genre file, validated; a ConfigError names the file and the field."""
    try:
        return GenreWords.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        detail = exc.errors()[0] if isinstance(exc, ValidationError) else exc
        raise ConfigError(f"{path}: invalid genre words ({detail})") from exc


@lru_cache(maxsize=1)
def genre() -> GenreWords:
    """The bundled genre words, read once."""
    return read_genre()
