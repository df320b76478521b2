"""The English language file (`kb/data/lang/en.json`): the frames of an English answer (the
`kb.knowledge.frames.Frames` every language file holds) and the words an English question is read
by (`kb.answering.english` rewrites it into the Chinese question the planner reads).

`words` maps each part of speech (`Part`; what each does is said under `parts`) to its English
words and phrases (lower case, words separated by one space) and their Chinese ("" for none); a
word or phrase stands once in the file, under one part. `irregular` maps an inflected form to the
base form `words` holds (went → go); regular inflections (-s, -es, -ed, -ing) are the reader's
rule. `templates` are whole questions, with `*` for a name, whose Chinese is not word by word
(what happened to * → {1}后来怎么样了). No book's names are here: people are found by the pinyin
of the book's own names (`kb.knowledge.pinyin_names`)."""

from __future__ import annotations

import logging
import re
from functools import cache, cached_property
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kb.knowledge.frames import LANG_DIR, Frames, read_model

log = logging.getLogger(__name__)
Part = Literal[
    "ask_cause", "ask_adverb", "ask_object", "ask_count", "ask_measure", "aux", "aux_past",
    "copula", "copula_past", "act", "get", "verb", "event_verb", "noun", "numeral", "unit", "genitive",
    "pronoun", "link", "coverb", "passive_by", "clause_after", "clause_before", "prefix", "adverb",
    "frame", "skip",
]
"""Every part of speech the reader knows (kb.answering.english says what it does with each)."""
PARTS: frozenset[str] = frozenset(get_args(Part))
SLOT = "*"
"""A template's place for a name (or any noun phrase the question names)."""
_WORD = re.compile(r"^[a-z&'-]+(?: [a-z&'-]+)*$")


class Joints(BaseModel):
    """The Chinese question's own grammar words, which no English word stands for one by one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    de: str = Field(description="the possessive (甲的妻子)")
    and_: str = Field(alias="and", description="joins two names")
    whether: str = Field(description="asks whether (a yes/no question)")
    be: str = Field(description="the copula before an asked thing (甲的师父是谁)")
    who: str = Field(description="the asking word for a person (谁): who did an act to someone "
                                 "is asked of the one it was done to (乙被谁杀了)")
    by: str = Field(description="the passive, before the doer (甲被谁杀了)")
    done: str = Field(description="after an act done in the past (杀了)")
    ever: str = Field(description="after an act asked whether it ever happened (救过)")
    have: str = Field(description="before an asked measure with no verb (有多重)")


class English(Frames):
    """The English frames and reading words (rules in the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    doc: str = Field(default="", alias="_doc")
    parts: dict[str, str] = Field(description="what each part of speech does, for the reader")
    words: dict[Part, dict[str, str]]
    irregular: dict[str, str] = Field(default_factory=dict,
                                      description="an inflected form → its base form in words")
    templates: dict[str, str] = Field(default_factory=dict,
                                      description="a whole question with * for a name → Chinese")
    surname_readings: dict[str, str] = Field(
        default_factory=dict, description="a surname read otherwise than its first reading → pinyin")
    measure_words: dict[str, str] = Field(
        default_factory=dict, description="a Chinese noun → the measure word a count of it takes "
                                          "(how many tigers → 多少只老虎)")
    chinese: Joints

    @model_validator(mode="after")
    def _each_word_once(self) -> English:
        undescribed = sorted(PARTS ^ set(self.parts))
        if undescribed:
            raise ValueError(f"parts described and parts read differ: {', '.join(undescribed)}")
        missing = sorted(PARTS - set(self.words))
        if missing:
            raise ValueError(f"no words for the parts {', '.join(missing)}")
        seen: dict[str, str] = {}
        for part, words in self.words.items():
            for word in words:
                if not _WORD.match(word):
                    raise ValueError(f"words[{part!r}]: {word!r} is not lower-case words")
                where = seen.setdefault(word, part)
                if where != part:
                    raise ValueError(f"the word {word!r} stands in two parts: {where!r} and {part!r}")
        for form, base in self.irregular.items():
            if form in seen:
                raise ValueError(f"irregular form {form!r} is also a word of {seen[form]!r}")
            if base not in seen:
                raise ValueError(f"irregular form {form!r}: its base {base!r} is no word")
        for template, chinese in self.templates.items():
            slots = template.split().count(SLOT)
            used = {int(n) for n in re.findall(r"\{(\d+)\}", chinese)}
            if not slots or not used or not used <= set(range(1, slots + 1)):
                raise ValueError(f"templates[{template!r}]: the Chinese must use its * as {{1}} …")

        return self

    @cached_property
    def index(self) -> dict[str, tuple[Part, str]]:
        """Every word and phrase → its part and Chinese (read once: a plain dict lookup)."""
        return {word: (part, chinese) for part, words in self.words.items()
                for word, chinese in words.items()}

    @cached_property
    def patterns(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """The templates as the words they match (a word with no Chinese, "to", left out: the
        reader drops it from the question too), with their Chinese."""
        skipped = set(self.words["skip"])
        return tuple((tuple(w for w in t.split() if w not in skipped), chinese)
                     for t, chinese in self.templates.items())

    def phrase(self, key: str, **fields: object) -> str:
        """The English template `key`; a key only zh.json has yet (a frame added to the Chinese
        answers and not yet to en.json; tests/test_english_language.py fails on it) is zh's,
        so that an English question is still answered."""
        if key in self.say:
            return super().phrase(key, **fields)
        from kb.knowledge.language import language

        log.warning("en.json has no answer template %r: the Chinese one stands in", key)
        return language().phrase(key, **fields)

    def lookup(self, phrase: str) -> tuple[Part, str] | None:
        """The part and Chinese of a word or phrase, if the file holds it."""
        return self.index.get(phrase)

    @cached_property
    def longest(self) -> int:
        """The most words a phrase of the file has."""
        return max(len(w.split()) for w in self.index)


@cache
def english() -> English:
    """The English language file, read once per process."""
    return read_model(LANG_DIR / "en.json", English)
