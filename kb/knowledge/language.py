"""The words of a language that the answering code reads, as data (`kb/data/lang/<code>.json`).

Code keeps the rules and the answer templates; every word a rule looks for is here, and a word
is written once. The file's `words` map a set of roles (its key: the roles, space-separated) to
the words that play exactly those roles — 后来 frames a question, asks for a life's course, refers
back and says "after", so it stands once, under `frame journey follow_up after`. What the code
reads is a role (`Language.words("journey")`): the words of every group that has it, in file
order. A word in two groups, or a role no code knows, is an error naming it.

`chars` are character classes (a unit, a material, a person's last character), `patterns` the
regular expressions whose structure is more than a list of words, both validated when read. A
book's own words (its campaigns, its titles, its heroes' groups) are not here: they belong to the
book's profile (`kb.knowledge.profile`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from core.errors import ConfigError
from kb.knowledge.frames import LANG_DIR, Frames, read_model
from kb.knowledge.genre import Grammar

Role = Literal[
    "deeds", "journey", "journey_strong", "frame", "pointing", "follow_up", "plural",
    "asks_chapter", "asks_name", "name_kinds", "asks_why", "asks_where", "asks_when", "asks_who",
    "asks_how", "asks_total", "asks_whether", "asking", "end", "start", "meeting", "death",
    "last_words", "said", "after", "whom", "weapon", "join_marks", "join_verbs", "episode",
    "nickname_asked", "cause_marks", "patient_start", "patient_end", "dead_role", "dying_role",
    "agent_mark", "died", "asserts_kill", "asserts_fight", "asserts_capture", "asserts_rescue",
    "asserts_persecute", "asserts_beat", "indefinite", "coordinators", "states_kill", "states_fight",
    "attribute_home", "attribute_trade", "attribute_gifts", "attribute_looks", "attribute_named",
    "taught_by", "before", "succeeded", "sent_whom", "intent", "campaign", "campaign_act",
    "setting_time", "singled", "asks_between",
]
"""Every role the code reads. What each means is said where it is read (planner, refusals, the
question kinds)."""
ROLES: frozenset[str] = frozenset(get_args(Role))


class Chars(BaseModel):
    """Character classes: each a string of characters a rule tests one character against."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    focus_breaks: str = Field(description="characters that join a question's words (与, 在, 把 …)")
    person: str = Field(description="the last character of a word for a person (汉, 者, 婆 …)")
    people_units: str = Field(description="units a count of people is given in (位, 员 …)")
    units: str = Field(description="measure words a count may be asked in")
    female: str
    male: str
    not_acts: str = Field(description="characters before 多少 that are no counted act")
    numeral: str = Field(description="characters of a numeral as the book writes it")
    materials: str = Field(description="characters that say what a thing is made of")
    currency: str
    end: str = Field(description="a focus word holding one still asks how someone ended")
    killing: str
    owning: str = Field(description="words around a possession in a question, never its name")
    result_complements: str = Field(description="a verb's result complement (捉住, 找到, 破掉)")
    lead_adverbs: str = Field(default="", description="adverbs and modals glued before a verb in "
                                                      "a question (先躲, 想献, 没命): the verb alone "
                                                      "is what the book must hold")
    role_forms: str = Field(description="characters of every role word (杀人者), never the act")
    arms: str = Field(description="characters that name a weapon")
    wield: str = Field(description="characters that say someone wields a thing")
    generic_unit: str = Field(description="the unit that needs its noun (几个孩子)")
    ordinal: str = Field(description="the character before a number that makes it a rank (第)")
    role_trim: str = Field(description="characters cut before a role whose name is asked")
    thing_trim: str = Field(description="characters cut before a thing whose material is asked")
    de: str = Field(description="the possessive particle")
    name_joints: str = Field(description="characters that join a name to a kinship word (甲的妻子)")
    question_tail: str = Field(description="particles that may end a question")
    who: str = Field(description="the word that asks who")
    passive: str = Field(description="the mark of the passive (被)")
    disposal: str = Field(description="the marks of the disposal form (甲把乙打死)")
    numeral_joiners: str = Field(description="characters inside a numeral with no value (单, 零)")
    numeral_and: str = Field(description="the character joining hundreds and units (一百单八)")
    money: str = Field(description="the unit that asks a sum of money (多少钱)")
    times: str = Field(description="the units that ask how many times (几次)")
    rank_units: str = Field(description="units of a rank (第一位, 第三名, 第二把交椅)")
    dead: str = Field(description="the character of a death in a state's value")
    dead_after: str = Field(default="", description="what may follow the death character when it "
                                                    "tells a death (死于, 死了, 死矣); before "
                                                    "another word it is a manner (死战, 死救)")
    negators: str = Field(default="", description="characters that deny the act after them "
                                                  "(没被烧死: the question says it did not happen)")
    verse_said: str = Field(description="the character after which a verse is given (颂曰)")
    band_place_ends: str = Field(description="the ends of a band's place records may drop (某山泊)")
    go_up: str = Field(description="the verb of going up to a band's place (上某山)")


class Patterns(BaseModel):
    """Regular expressions whose structure is more than a list of words."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    quantity: re.Pattern[str]
    made_of: re.Pattern[str]
    material: re.Pattern[str]
    identity: re.Pattern[str]
    passive: re.Pattern[str]
    lone_de: re.Pattern[str]
    chapter_named: re.Pattern[str]
    story: re.Pattern[str]
    aspect: re.Pattern[str]
    why_modal: re.Pattern[str]
    spending: re.Pattern[str]
    opinion: re.Pattern[str]
    after_death: re.Pattern[str]
    joining: re.Pattern[str]
    nickname_given: re.Pattern[str]
    nickname_called: re.Pattern[str]
    name_kind_ask: re.Pattern[str]
    verb_before: re.Pattern[str]
    chapter_heading: re.Pattern[str]
    asked_doer: re.Pattern[str]
    kind_name_tail: re.Pattern[str]
    total_before: re.Pattern[str]
    head_before: re.Pattern[str]
    """What a question text ends with when the word after it is the thing asked (什么水果, 几岁)."""
    head_after: re.Pattern[str]
    head_one: re.Pattern[str]
    """A one-character thing asked, alone after the asking word (哪种茶？): group 1."""
    """What a question text starts with when the word before it is the thing asked (生日是哪一天)."""


class KinWord(BaseModel):
    """A kinship or household word after a name (甲的哥哥): the relation types that lead to the
    relative, tried in order (`>` the relative is the relation's source, `<` its target), the
    characters a relative's name holds for it, and those it cannot hold."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    types: tuple[str, ...] = Field(min_length=1)
    hints: str = ""
    not_: str = Field(default="", alias="not")


class Numerals(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    digits: dict[str, int]
    powers: dict[str, int]


class Reading(BaseModel):
    """The passage reader's cue families (kb.answering.passage_reading): which words a sentence
    must hold to answer a slot a question asks, on a book whose records are thin. A word stands
    in one family only, or the reader's preference would be an accident of file order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    families: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    asks: dict[str, str] = Field(default_factory=dict,
                                 description="a plan's asked slot → the family it calls")
    dying: tuple[str, ...] = Field(default=(), description="families whose question is "
                                   "answered at a person's death (an age, last wishes)")
    asked_only: tuple[str, ...] = Field(default=(), description="families of question words "
                                        "only (临终): no cue a sentence must hold")
    slot_cues: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="a family → cues a sentence may hold for it only when "
        "the plan asks that slot (于, 在 of a place): as question words they call nothing "
        "(是在第几回 asks a chapter)")
    book_wordings: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="a reader's word → the old text's words for it that "
        "only the passage reader looks for (抓住 → 获): the records, written in today's Chinese, "
        "say it in the reader's words already")

    @model_validator(mode="after")
    def _once(self) -> Reading:
        seen: dict[str, str] = {}
        for name, words in self.families.items():
            for word in words:
                if word in seen:
                    raise ValueError(f"{word} stands in {seen[word]} and {name}")
                seen[word] = name
        unknown = sorted({*self.asks.values(), *self.dying, *self.asked_only, *self.slot_cues}
                         - set(self.families))
        if unknown:
            raise ValueError(f"reading: asks name no family: {', '.join(unknown)}")
        return self


class Language(Frames):
    """One language's question words (rules in the module docstring) and its answer frames
    (`kb.knowledge.frames.Frames`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    doc: str = Field(default="", alias="_doc")
    roles: dict[str, str] = Field(description="what each role means, for the reader of the file")
    words: dict[str, tuple[str, ...]]
    chars: Chars
    patterns: Patterns
    attribute_marks: dict[str, re.Pattern[str]]
    kin: dict[str, KinWord]
    measures: dict[str, str] = Field(description="how-much-of-a-dimension word → its units")
    materials: dict[str, str] = Field(description="a material asked → the character that says it")
    death_manners: dict[str, str] = Field(
        default_factory=dict, description="a manner of death a question names (毒 of 毒死) → the "
                                          "characters a record of that death would hold")
    numerals: Numerals
    script_folds: tuple[tuple[str, str], ...] = Field(
        default=(), description="old spellings of asking words → the ones the rules know")
    wordings: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="a reader's word → the words fiction writes for it "
                                          "(干掉 → 杀); a book's profile adds its own")
    colloquial_folds: tuple[tuple[str, str], ...] = Field(
        default=(), description="colloquial asking words → the plain ones the rules know (啥 → "
                                "什么, 咋 → 怎么), in order; they may change the text's length")
    extraction: Grammar | None = Field(
        default=None, description="the grammar words the extractor reads (kb.knowledge.genre)")
    reading: Reading = Field(default_factory=Reading,
                             description="the passage reader's cue families")

    _roles: Mapping[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _each_word_once(self) -> Language:
        seen: dict[str, str] = {}
        sets: dict[frozenset[str], str] = {}
        for key, words in self.words.items():
            same = sets.setdefault(frozenset(key.split()), key)
            if same != key:
                raise ValueError(f"words[{key!r}] and words[{same!r}] play the same roles")
            unknown = [r for r in key.split() if r not in ROLES]
            if unknown or not key.split():
                raise ValueError(f"words[{key!r}]: unknown role {', '.join(unknown) or '(none)'}")
            for word in words:
                where = seen.setdefault(word, key)
                if where != key or words.count(word) > 1:
                    raise ValueError(f"the word {word!r} stands in two groups: {where!r} and {key!r}")
        for word in self.kin:
            if word in seen:
                raise ValueError(f"the kinship word {word!r} is also in words[{seen[word]!r}]")
        undescribed = sorted(ROLES ^ set(self.roles))
        if undescribed:
            raise ValueError(f"roles described and roles read differ: {', '.join(undescribed)}")
        missing = sorted(ROLES - {r for key in self.words for r in key.split()})
        if missing:
            raise ValueError(f"no words for the roles {', '.join(missing)}")
        out: dict[str, list[str]] = {role: [] for role in ROLES}
        for key, words in self.words.items():
            for role in key.split():
                out[role].extend(words)
        self._roles = {role: tuple(words) for role, words in out.items()}
        return self

    def roles_in(self, text: str) -> frozenset[str]:
        """The roles whose words the (normalized) text holds."""
        return frozenset(key_role for key, words in self.words.items()
                         if any(w in text for w in words) for key_role in key.split())

    def words_of(self, role: Role) -> tuple[str, ...]:
        """The words of every group that plays `role`, in file order."""
        return self._roles[role]


def read_language(path: Path) -> Language:
    """A language file of question words and frames; a ConfigError names the file and what is
    wrong."""
    return read_model(path, Language)


@cache
def language(code: str = "zh") -> Language:
    """The language's question words and frames, read once per process (the languages whose
    questions are read by these rules: zh)."""
    return read_language(LANG_DIR / f"{code}.json")


def frames(code: str = "zh") -> Frames:
    """The answer frames of a language (`Plan.lang`): zh's language file, or another language's
    frames file (en: `kb.knowledge.english_words`), read once per process."""
    if code == "zh":
        return language(code)
    from kb.knowledge.english_words import english  # the English reading words, only when asked

    if code == "en":
        return english()
    raise ConfigError(f"no answer frames for the language {code!r}")
