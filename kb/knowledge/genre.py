"""The words of the language and of the genre that extraction reads, as typed, validated data.

Two files, one job each (a word is in one of them only):

* `kb/data/genre/zhanghui.json` — the genre's (章回小说): relation, state and fate cues, action
  words, verse openers, narrators' clause openers, speech forms, the 回目 heading, address terms
  that denote whoever holds them; and the `people` section, what marks a person (speakers,
  introductions, titles and kinship forms) for the discovery of people (`extract.discover`).
* the `extraction` section of `kb/data/lang/zh.json` — the language's grammar words: negation,
  the passive and disposal markers, the connectors that join names into a list (`Grammar`; the
  rest of that file is the answering code's, `kb.knowledge.language`, which types this section
  with the same model).

A book's own words (its places, its bands and their words, such as joining a named band) live in
that book's tables (`<bundle>/extraction.json`, `extract.corpus_tables`), never here: the same
genre data serves every novel, and a test holds that no book's names appear in it.

Every pattern is a regular expression over simplified text, compiled and checked when the file
is read: a bad file raises a `ConfigError` naming the file and the field (`relation_cues.3.
pattern: …`), never later, and never half-read. Read once per process (`genre()`, `grammar()`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from core.errors import ConfigError
from kb.knowledge.models import RELATION_TYPES, State

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
GENRE_FILE = DATA_DIR / "genre" / "zhanghui.json"
LANGUAGE_FILE = DATA_DIR / "lang" / "zh.json"
LANGUAGE_SECTION = "extraction"

Direction = Literal["forward", "backward", "none"]
StateKind = Literal["status", "place", "title", "possession"]
Side = Literal["before", "after"]
Pattern = re.Pattern[str]
M = TypeVar("M", bound=BaseModel)
Words = tuple[str, ...]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RelationCue(_Data):
    """A cue word pattern and the relation it signals between the people named around it.

    `forward`: the person before the cue is the source (甲杀了乙 → killed 甲 → 乙; the passive
    被/吃/遭 and the disposal 把/将 swap the roles). `backward`: the person after it is the source
    (乙的主人甲). `none`: undirected. `gap_before` / `gap_after` bound the characters between the
    names and the cue (−1 after: only names before the cue pair). `group`: a list of names joined
    before the cue (甲、乙、丙…结为兄弟) pairs up, every two of them; `pair_before`: the two
    nearest names before the cue pair up when nothing else does (甲见了乙，交马战不十合)."""

    type: str = Field(description="a relation type of kb.knowledge.models.RELATION_TYPES")
    pattern: Pattern
    direction: Direction
    confidence: float = Field(gt=0, le=1)
    gap_before: int = Field(default=8, ge=0)
    gap_after: int = Field(default=2, ge=-1)
    group: bool = False
    also: tuple[str, ...] = Field(default=(), description="types the same pair gets besides "
                                  "(a capture in a fight: captured, and fought)")
    pair_before: int = Field(default=0, ge=0, description="with no pair otherwise, the two "
                             "nearest names before the cue within this many characters pair up")
    subject_reach: int = Field(default=0, ge=0, description="with a name right after the cue "
                               "and none close before it: the subject heading the cue's clause "
                               "up to this many characters before it (甲正要分兵缉擒乙), or, the "
                               "clause naming no one, the sentence's subject carried over its "
                               "commas (甲擒了丙，斩了乙); 0: not read")
    note: str = ""

    @field_validator("type")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in RELATION_TYPES:
            raise ValueError(f"unknown relation type {value!r}")
        return value

    @field_validator("also")
    @classmethod
    def _known_too(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [t for t in value if t not in RELATION_TYPES]
        if unknown:
            raise ValueError(f"unknown relation type {unknown[0]!r}")
        return value


class StateCue(_Data):
    """A cue that gives the person named before (or after) it a status, title or place from this
    chapter on; an empty `value` takes the pattern's first group (or formats `{0}` with it)."""

    kind: StateKind
    pattern: Pattern
    value: str = ""
    side: Side = "before"
    gap: int = Field(default=4, ge=0)
    confidence: float = Field(default=0.5, gt=0, le=1)
    note: str = ""


class FateCue(_Data):
    """A word of dying (死, 卒, 崩, 自刎, 病故, 阵亡 …): the person it is said of gets a status state
    `value` (身亡, 自刎身亡 …) in that chapter. `gap` bounds the characters between their name and
    the cue; `carried`: a cue strong enough that, with no name before it in its sentence, the
    person spoken of in the sentences just before dies (言毕，驾崩)."""

    pattern: Pattern
    value: str = Field(min_length=1)
    gap: int = Field(default=6, ge=0)
    carried: bool = False
    confidence: float = Field(default=0.6, gt=0, le=1)
    note: str = ""


class Huimu(_Data):
    """The 回目: a chapter's title line, its number heading cut off, split into its halves."""

    heading: Pattern = Field(description="the number heading before the couplet (第一回)")
    separator: Pattern = Field(description="what parts the two halves (spaces, punctuation)")
    min_half: int = Field(default=3, ge=1, description="shortest half kept")


class Summary(_Data):
    """How an extractive chapter summary picks its key sentences."""

    sentences: int = Field(default=5, ge=1, description="key sentences per chapter")
    max_chars: int = Field(default=80, ge=10, description="longest sentence quoted whole")
    min_chars: int = Field(default=8, ge=2, description="shortest sentence considered")
    weighty: Pattern = Field(description="acts that make a sentence tell the story")


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
    religious_titles: Words = Field(default=(), description=(
        "长老, 禅师, 真人 after a religious name: a monk's or a Taoist's name and title"))
    sovereign_titles: Words = Field(default=(), description=(
        "先主, 后主: titles the narration writes in place of a sovereign's name (one holder each, "
        "whose name the passages then seldom write)"))
    kinship_forms: Words = Field(default=(), description="forms of address by rank: 二爷, 三郎")
    generic_speakers: Words = Field(default=(), description="speakers who are no one's name")
    determiners: Words = Field(default=(), description="words before a generic noun (那, 一)")
    name_characters: Words = Field(default=(), description="one-character cues that also end names (云)")
    wife_marks: Words = Field(default=(), description=(
        "妻, 纳, 娶 right before a surname + 氏 (妻甲氏, 纳甲氏): the form is a woman, not the clan"))
    relative_titles: Words = Field(default=(), description=(
        "娘子, 夫人, 公子 after a full name: the named one's wife or child (甲乙娘子), not them"))
    group_nouns: Words = Field(default=(), description=(
        "军, 兵, 营 after a state's or a surname's character: a body of men (甲军), no one's name"))
    women_titles: Words = Field(default=(), description=(
        "皇后, 贵妃, 妃, 夫人, 氏 after a surname: a woman the text names by her title only "
        "(甲妃泣告曰), who is no same-surname man's alias"))
    leader_titles_before: Words = Field(default=(), description=(
        "国主, 番王, 番将 right before a name the surname list does not start (a foreign king's, a "
        "chieftain's): 国主乙丙, the name standing whole after it"))
    leader_titles_after: Words = Field(default=(), description=(
        "元帅, 大王, 洞主 right after such a name (乙丙元帅)"))
    title_variants: tuple[Words, ...] = Field(default=(), description=(
        "groups of titles that are one rank's forms (皇后, 太后, 后): a surname with two of one "
        "group, written close together in a chapter, is one woman (甲后 … 甲太后)"))
    ruler_marks: Words = Field(default=(), description=(
        "主 after a state's one character: a ruler's title right before his name (甲主乙丙, the "
        "name standing whole after it, though 主 precedes it in most of its uses)"))


class Genre(_Data):
    """The genre's extraction vocabulary (`kb/data/genre/zhanghui.json`); a misspelled section is
    an error, not a default."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    doc: str = Field(default="", alias="_doc")
    name: str = Field(min_length=1)
    relation_cues: tuple[RelationCue, ...] = Field(min_length=1)
    state_cues: tuple[StateCue, ...] = ()
    fate_cues: tuple[FateCue, ...] = ()
    fate_doubt: Pattern = Field(description="between a name and a fate: feared, feigned, "
                                            "narrowly escaped, negated — no death")
    fate_hearsay: Pattern = Field(description="between a name and a fate: that person only hears "
                                              "of someone's death (甲闻乙死), unless done (听罢)")
    fate_object: Pattern = Field(description="right before a name in its clause: the name is an "
                                             "act's object (征甲时死, 撞着甲), not who dies")
    fate_strike: Pattern = Field(description="in the subject's clause before a fate across a "
                                             "break: the subject struck someone, who dies")
    pronouns: Words = Field(default=(), description="after 被: the name before is the agent "
                                                    "they point back to (撞着甲，被他刺死)")
    carry_lead: Pattern = Field(description="what a carried fate's own clause may say before "
                                            "the cue (须臾, 言毕, 遂): time and adverbs, no subject")
    death_words: Pattern = Field(description="a status state holding one of these tells a death "
                                             "(measuring fates, ending journeys)")
    actions: tuple[tuple[str, str], ...] = Field(
        default=(), description="(word, label): the first word in an event's quote names its act")
    cue_actions: Pattern = Field(description="acts strong enough for a one-person event")
    verse_openers: tuple[str, ...] = ()
    clause_openers: tuple[str, ...] = ()
    actor_verbs: Pattern = Field(description="what may follow a name that acts")
    speech_verb: Pattern = Field(description="a name followed by this speaks")
    hearsay: Pattern = Field(description="between a name and a directed cue: only heard of")
    patient_tail: Pattern = Field(description="after a name: his people or camp are meant")
    retold: Pattern = Field(description="after an act's patient: the act is retold (甲把杀了乙的事"
                                        "说了), not done")
    place_to: Pattern
    place_move: Pattern
    retrospective: Pattern
    kill_cue: Pattern = Field(description="kill words whose victim follows at once")
    copula: Pattern | None = Field(default=None, description="between a subject and a name "
                                   "with a relational noun after it (乙是甲家心腹人): the subject "
                                   "is what the noun says to him")
    copula_head: Pattern | None = Field(default=None, description="what may open the clause "
                                        "before a copula's subject (原来这乙是甲家心腹人)")
    causatives: Pattern | None = Field(default=None, description="between a sentence's subject "
                                       "and a later clause: he made someone else act (甲唤丙，斩"
                                       "了乙: 丙 may be the one who kills), no subject carried")
    spoken_oath: Pattern = Field(description="sworn-brother words that, spoken, bind speaker "
                                             "and listener")
    spoken_lord: Pattern | None = Field(default=None, description="forms of address to one's "
                                        "lord: spoken, the listener is the speaker's superior")
    spoken_parent: Pattern | None = Field(default=None, description="words of adoption that, "
                                          "spoken (请拜为义父), make the listener the speaker's "
                                          "parent")
    address_verbs: Pattern | None = Field(default=None, description="甲对乙曰: the verb between "
                                          "the speaker and the one spoken to")
    address_terms: tuple[str, ...] = Field(
        default=(), description="forms that denote whoever holds them, never one person")
    kin_before_name: Pattern | None = Field(default=None, description="right before a full "
                                            "name: a kinship word (长子乙, 其弟乙); the name is "
                                            "family of the one of its surname named just before")
    huimu: Huimu
    summary: Summary
    people: PeopleWords = Field(description="what marks a person (text-people's discovery)")


class BookCues(_Data):
    """The cues one book adds to the genre's (its `extraction.json`): words of that book alone,
    such as joining its band; the same types as the genre's."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    relation_cues: tuple[RelationCue, ...] = ()
    state_cues: tuple[StateCue, ...] = ()
    actions: tuple[tuple[str, str], ...] = ()
    cue_actions: Pattern | None = None


class Grammar(_Data):
    """The language's grammar words for extraction (`kb/data/lang/zh.json`, `extraction`)."""

    negation: Pattern = Field(description="a negated, intended or feared act: no record")
    passive: tuple[str, ...] = Field(min_length=1, description="right before the agent (被)")
    disposal: tuple[str, ...] = Field(min_length=1, description="right before the patient (把)")
    pair_connectors: frozenset[str] = Field(min_length=1, description="甲与乙: two sides")
    connectors: frozenset[str] = Field(min_length=1, description="what joins names in a list")


def _field(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such file") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not a JSON file ({exc})") from exc


def validated(model: type[M], data: object, path: Path, prefix: str = "") -> M:
    """`data` as `model`; a ConfigError naming the file and the first bad field otherwise."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = _field((prefix,) + tuple(error["loc"]) if prefix else tuple(error["loc"]))
        raise ConfigError(f"{path}: {where}: {error['msg']}"
                          + (f" ({len(exc.errors())} problems)" if len(exc.errors()) > 1 else "")
                          ) from exc


def load_genre(path: Path = GENRE_FILE) -> Genre:
    """The genre file at `path`, validated."""
    return validated(Genre, _read(path), path)


read_genre = load_genre
"""The name the discovery of people reads the file by."""


def load_grammar(path: Path = LANGUAGE_FILE) -> Grammar:
    """The language file's extraction section, validated."""
    data = _read(path)
    if not isinstance(data, dict) or LANGUAGE_SECTION not in data:
        raise ConfigError(f"{path}: {LANGUAGE_SECTION}: missing section")
    return validated(Grammar, data[LANGUAGE_SECTION], path, LANGUAGE_SECTION)


def is_death(state: State) -> bool:
    """A status state that tells a death (its value holds one of the genre's death words)."""
    return state.kind == "status" and genre().death_words.search(state.value) is not None


@cache
def genre() -> Genre:
    """The bundled genre data, read once."""
    return load_genre()


@cache
def grammar() -> Grammar:
    """The bundled language's grammar words, read once."""
    return load_grammar()
