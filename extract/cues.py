"""The offline extractor's cue map, read from data: which words signal a relation, state or fate.

The words are not here: they are the genre's and the language's data (`kb/data/genre/
zhanghui.json`, `kb/data/lang/zh.json`, read and validated by `kb.knowledge.genre`), plus a
book's own additions from its tables (`extraction.json`: `relation_cues`, `state_cues`,
`actions`, `cue_actions`). `Cues.of` joins them once per extraction run; every rule of the
extractor reads its words from the `Cues` it is given.

How a relation cue pairs the people named next to it (`RelationCue`):

* `forward`: the person named before the cue is the relation's source, the one after its target
  (甲杀了乙 → killed: 甲 → 乙). The passive 被/吃/遭 and the 把/将 constructions swap the roles
  (乙被甲杀了, 甲把乙杀了).
* `backward`: the person after the cue is the source (乙的主人甲 → servant: 乙 → 甲).
* `none`: undirected; two people joined before the cue also pair up (甲与乙结义), and for a
  `group` cue every two of a list (甲、乙、丙…结为兄弟).

`gap_before` / `gap_after` bound the characters between the names and the cue: relational nouns
(浑家, 哥哥, 伴当) only count when they sit right between the names (甲的浑家乙). Confidence
is the cue's base value, lowered by the gaps (see `pairing.relation_confidence`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from extract.corpus_tables import CorpusTables
from kb.knowledge.genre import (
    Direction,
    FateCue,
    Genre,
    Grammar,
    Huimu,
    RelationCue,
    StateCue,
    StateKind,
    Summary,
    genre,
    grammar,
)

__all__ = ["CONTEXT_REACH", "Cues", "Direction", "FateCue", "RelationCue", "StateCue",
           "StateKind", "default_cues"]

CONTEXT_REACH = 60
"""How many characters before a context form an anchor may be named."""
NAME_CUE_TYPES = frozenset({"spouse", "family", "parent_child", "siblings", "father_in_law",
                            "in_law", "servant", "master_disciple"})
"""Cues read inside a name form (甲娘子): relational nouns only."""
NEVER = re.compile(r"(?!x)x")
FROM_GENRE = ("fate_doubt", "fate_hearsay", "fate_object", "fate_strike", "pronouns",
              "carry_lead", "death_words", "verse_openers", "clause_openers", "actor_verbs",
              "speech_verb", "hearsay", "patient_tail", "retold", "place_to",
              "place_move", "retrospective", "kill_cue", "spoken_oath", "huimu", "summary")
"""`Cues` fields the genre's data gives as they are."""
FROM_LANGUAGE = ("negation", "passive", "disposal", "pair_connectors", "connectors")


def _alternation(*patterns: re.Pattern[str] | None) -> re.Pattern[str]:
    """One pattern matching any of them (in order); one that never matches when none is given."""
    given = [p.pattern for p in patterns if p is not None and p.pattern]
    return re.compile("|".join(f"(?:{p})" for p in given)) if given else NEVER


@dataclass(frozen=True)
class Cues:
    """Every word list and pattern the offline extractor reads (genre + language + the book)."""

    relations: tuple[RelationCue, ...]
    states: tuple[StateCue, ...]
    fates: tuple[FateCue, ...]
    fate_doubt: re.Pattern[str]
    fate_hearsay: re.Pattern[str]
    fate_object: re.Pattern[str]
    fate_strike: re.Pattern[str]
    pronouns: tuple[str, ...]
    carry_lead: re.Pattern[str]
    death_words: re.Pattern[str]
    actions: tuple[tuple[str, str], ...]
    cue_actions: re.Pattern[str]
    verse_openers: tuple[str, ...]
    clause_openers: tuple[str, ...]
    actor_verbs: re.Pattern[str]
    speech_verb: re.Pattern[str]
    hearsay: re.Pattern[str]
    patient_tail: re.Pattern[str]
    retold: re.Pattern[str]
    place_to: re.Pattern[str]
    place_move: re.Pattern[str]
    retrospective: re.Pattern[str]
    kill_cue: re.Pattern[str]
    causatives: re.Pattern[str]
    copula: re.Pattern[str]
    copula_head: re.Pattern[str]
    spoken_oath: re.Pattern[str]
    spoken_lord: re.Pattern[str]
    spoken_parent: re.Pattern[str]
    address_verbs: re.Pattern[str]
    negation: re.Pattern[str]
    passive: tuple[str, ...]
    disposal: tuple[str, ...]
    pair_connectors: frozenset[str]
    connectors: frozenset[str]
    huimu: Huimu
    summary: Summary
    action_pattern: re.Pattern[str] = field(init=False, repr=False)
    action_labels: dict[str, str] = field(init=False, repr=False)
    verse_pattern: re.Pattern[str] = field(init=False, repr=False)
    name_cues: tuple[RelationCue, ...] = field(init=False, repr=False)
    kin_apposition: re.Pattern[str] | None = field(init=False, repr=False)
    """The kin nouns that stand right between two names (甲母乙, 甲长子乙): the patterns of the
    kinship cues read with no gap on either side, so the words are written once, as cues."""

    def __post_init__(self) -> None:
        words = [w for w, _ in self.actions]
        set_ = object.__setattr__
        set_(self, "action_pattern",
             re.compile("|".join(map(re.escape, words))) if words else NEVER)
        set_(self, "action_labels", dict(self.actions))
        set_(self, "verse_pattern", re.compile("|".join(map(re.escape, self.verse_openers)))
             if self.verse_openers else NEVER)
        set_(self, "name_cues", tuple(c for c in self.relations if c.type in NAME_CUE_TYPES))
        between = [c.pattern for c in self.name_cues if c.gap_before == 0 and c.gap_after == 0]
        set_(self, "kin_apposition", _alternation(*between) if between else None)

    @classmethod
    def of(cls, words: Genre, grammar: Grammar, tables: CorpusTables | None = None) -> Cues:
        """The genre's and the language's words, then the book's additions (its cues first:
        a book's word is more specific than the genre's)."""
        book = (tables or CorpusTables()).cues
        shared: dict[str, Any] = {name: getattr(words, name) for name in FROM_GENRE}
        shared.update({name: getattr(grammar, name) for name in FROM_LANGUAGE})
        return cls(relations=(*book.relation_cues, *words.relation_cues),
                   states=(*book.state_cues, *words.state_cues), fates=words.fate_cues,
                   actions=(*words.actions, *book.actions),
                   cue_actions=_alternation(words.cue_actions, book.cue_actions),
                   spoken_lord=words.spoken_lord or NEVER,
                   spoken_parent=words.spoken_parent or NEVER,
                   address_verbs=words.address_verbs or NEVER,
                   causatives=words.causatives or NEVER, copula=words.copula or NEVER,
                   copula_head=words.copula_head or NEVER,
                   **shared)


def default_cues(tables: CorpusTables | None = None) -> Cues:
    """The bundled genre and language data with a book's tables."""
    return Cues.of(genre(), grammar(), tables)
