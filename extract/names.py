"""Who is named where: the roster (the corpus lexicon + its scene forms) and a fast name matcher.

The roster is built from the lexicon (`lexicon.jsonl`) and the corpus tables (`extraction.json`)
only, never from curated records: the extractor is measured against the curated bundle
(`extract.report`), and reading the curated people of the chapters it extracts would leak the
answer. The same two files are all another novel needs.

Names are compared in simplified script (`to_simplified`), so both scripts denote one person. A
name form that two people share at the same priority is ambiguous: each of its mentions is
resolved by its passage (`NameMatcher.find`): the candidate named last before it in the block (by
a form of their own), else the one named nearest after it, else the one the chapter belongs to
(inside their first–last chapters, the most named). Priorities,
highest first: a scene form of the corpus tables inside its chapters (那妇人 in one woman's
chapters is her), a lexicon person's own name, a lexicon alias. A lexicon alias (a nickname, a
title) matches only from the person's first chapter on, and the short aliases of the tables'
`alias_chapters` (or of the entry's own: a title the person holds there) only in their chapters:
a nickname that is also a common word of the text denotes no one before its person enters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError
from core.text import to_simplified
from core.utf8 import read_utf8
from extract.corpus_tables import CorpusTables
from kb.knowledge.genre import genre
from kb.knowledge.models import Person

SCENE, PRIMARY, ALIAS = 3, 2, 1


@dataclass(frozen=True)
class ChapterSpan:
    """Chapters `first`–`last` (inclusive); `last=None`: to the end of the book."""

    first: int
    last: int | None = None

    def __contains__(self, chapter: object) -> bool:
        return isinstance(chapter, int) and self.first <= chapter and (
            self.last is None or chapter <= self.last)


MIN_FORM = 2


class LexiconEntry(BaseModel):
    """One line of lexicon.jsonl: a person of the whole book with the forms the text uses."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    aliases: list[str] = Field(default_factory=list)
    group: str | None = None
    rank: int | None = None
    star: str | None = None
    first_chapter: int | None = None
    last_chapter: int | None = None
    mentions: int | None = None
    profile: str = ""
    alias_chapters: dict[str, tuple[int, int]] = Field(default_factory=dict)
    """aliases that name the person in some chapters only (a title they hold there: first, last)"""

    def person(self) -> Person:
        return Person(id=self.id, name=self.name, aliases=list(self.aliases), profile=self.profile,
                      group=self.group, first_chapter=self.first_chapter, confidence=0.9,
                      origin="extracted")


def read_lexicon(path: Path) -> list[LexiconEntry]:
    """The lexicon file; a ConfigError names the line of a bad entry."""
    if not path.exists():
        raise ConfigError(f"{path}: no character lexicon here")
    entries = []
    for number, line in enumerate(read_utf8(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entries.append(LexiconEntry.model_validate_json(line))
        except ValidationError as exc:
            raise ConfigError(f"{path}:{number}: invalid lexicon entry: {exc.errors()[0]['msg']}") from exc
    return entries


@dataclass(frozen=True)
class NameForm:
    """A simplified name form that denotes a person, with its priority and chapter scope."""

    form: str
    person: str
    priority: int
    chapters: ChapterSpan | None = None

    def applies(self, chapter: int) -> bool:
        return self.chapters is None or chapter in self.chapters


@dataclass(frozen=True)
class Mention:
    """A person named at [start, end) of a block's text."""

    person: str
    start: int
    end: int
    form: str


Trie = dict[str, "Trie"]


def _trie_pattern(forms: Iterable[str]) -> str:
    """A regex that matches the longest form first, built as a character trie (fast on 1,000 forms)."""
    trie: Trie = {}
    for form in forms:
        node = trie
        for ch in form:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _node_pattern(trie)


def _node_pattern(node: Trie) -> str:
    branches = [re.escape(ch) + _node_pattern(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" in node:
        return f"(?:{body})?"
    return body


Weights = dict[str, float]
"""person → how likely a shared form denotes them in a chapter, when the passage does not say."""


class NameMatcher:
    """Finds every non-overlapping name (longest first, left to right) in a simplified text; a
    form several people share is resolved by the passage (see the module's docstring)."""

    def __init__(self, forms: dict[str, str], tables: CorpusTables | None = None,
                 shared: dict[str, tuple[str, ...]] | None = None,
                 weights: Weights | None = None) -> None:
        self._owner = forms
        self._shared = shared or {}
        self._weights = weights or {}
        self._tables = tables or CorpusTables()
        every = [*forms, *self._shared]
        self._pattern = re.compile(_trie_pattern(every)) if every else None

    def weighted(self, weights: Weights) -> NameMatcher:
        """The same matcher (its compiled pattern shared) with another chapter's prior."""
        twin = NameMatcher.__new__(NameMatcher)
        twin.__dict__.update(self.__dict__)
        twin._weights = weights
        return twin

    @property
    def shares(self) -> bool:
        return bool(self._shared)

    def find(self, simplified: str) -> list[Mention]:
        if self._pattern is None:
            return []
        found: list[Mention] = []
        pending: list[tuple[int, int, str]] = []
        for match in self._pattern.finditer(simplified):
            form = match.group()
            if _excluded(simplified, match.start(), form, self._tables):
                continue
            if form in self._owner:
                found.append(Mention(self._owner[form], match.start(), match.end(), form))
            elif form in self._shared:
                pending.append((match.start(), match.end(), form))
        if pending:
            found = sorted(found + [self._resolve(found, *p) for p in pending], key=lambda m: m.start)
        return found

    def _resolve(self, named: list[Mention], start: int, end: int, form: str) -> Mention:
        """The candidate named last before the form, else nearest after it, else the likeliest."""
        candidates = self._shared[form]
        before = [m for m in named if m.end <= start and m.person in candidates]
        after = [m for m in named if m.start >= end and m.person in candidates]
        if before:
            person = before[-1].person
        elif after:
            person = after[0].person
        else:
            person = max(candidates, key=lambda p: (self._weights.get(p, 0.0), p))
        return Mention(person, start, end, form)


def _excluded(text: str, start: int, form: str, tables: CorpusTables) -> bool:
    end = start + len(form)
    return any(text[max(0, start - len(before)):start] == before
               for before in tables.name_context_exclude.get(form, ())) or \
        any(text.startswith(after, end)
            for after in tables.name_context_exclude_after.get(form, ()))


class Roster:
    """Everyone the extractor can name: one Person per real person, with every name form."""

    def __init__(self, people: Sequence[Person], forms: Sequence[NameForm],
                 tables: CorpusTables | None = None,
                 spans: dict[str, tuple[int | None, int | None, int]] | None = None) -> None:
        self.people: dict[str, Person] = {p.id: p for p in people}
        self.full_names = {p.id: to_simplified(p.name) for p in people}
        """person → their full name, simplified (as the scanned text is)"""
        self.spans = spans or {}
        """person → (first chapter, last chapter, mentions): the prior of a shared form."""
        self.forms = list(forms)
        self.tables = tables or CorpusTables()
        self._matchers: dict[frozenset[str], NameMatcher] = {}
        self._owner_maps: dict[frozenset[str], dict[str, str]] = {}
        self._shared_maps: dict[frozenset[str], dict[str, tuple[str, ...]]] = {}
        self._weighted: dict[int, tuple[NameMatcher, NameMatcher]] = {}
        self._chapter_keys: dict[int, frozenset[str]] = {}
        self._embedded: dict[tuple[str, frozenset[str]], list[tuple[str, str]]] = {}

    @classmethod
    def build(cls, lexicon: Sequence[LexiconEntry], tables: CorpusTables | None = None) -> Roster:
        """Every lexicon person with their name forms, and the tables' scene forms."""
        tables = tables or CorpusTables()
        people = [e.person() for e in lexicon]
        forms = [f for e, person in zip(lexicon, people, strict=True)
                 for f in _forms_of(person, tables, e.alias_chapters)]
        known = {p.id for p in people}
        forms += [NameForm(to_simplified(form), s.person, SCENE, ChapterSpan(s.first, s.last))
                  for s in tables.scene_forms if s.person in known for form in s.forms]
        spans = {e.id: (e.first_chapter, e.last_chapter, e.mentions or 0) for e in lexicon}
        return cls(people, forms, tables, spans)

    def weights(self, chapter: int) -> Weights:
        """How likely each person is meant in the chapter by a shared form: their mentions, far
        less outside their first–last chapters."""
        weights = {}
        for person, (first, last, mentions) in self.spans.items():
            inside = (first is None or first <= chapter) and (last is None or chapter <= last)
            weights[person] = float(mentions or 1) * (1.0 if inside else 0.001)
        return weights

    def embedded(self, form: str, chapter: int) -> list[tuple[str, str]]:
        """Other people named inside a name form, with the rest of the form: 甲娘子 →
        [(甲's id, "娘子")]. The rest is what tells the relation (see offline extraction)."""
        key, owners = self._owners_in(chapter)
        cached = self._embedded.get((form, key))
        if cached is not None:
            return cached
        me = owners.get(form)
        found: list[tuple[str, str]] = []
        for size in range(len(form) - 1, MIN_FORM - 1, -1):
            for at in range(len(form) - size + 1):
                other = owners.get(form[at:at + size])
                if other is not None and other != me and all(other != o for o, _ in found):
                    found.append((other, form[:at] + form[at + size:]))
        self._embedded[(form, key)] = found
        return found

    def _scope_key(self, chapter: int) -> frozenset[str]:
        key = self._chapter_keys.get(chapter)
        if key is None:
            key = self._chapter_keys[chapter] = frozenset(
                f"{f.form}\0{f.person}" for f in self.forms if f.chapters is not None and f.applies(chapter))
        return key

    def _owners_in(self, chapter: int) -> tuple[frozenset[str], dict[str, str]]:
        key = self._scope_key(chapter)
        owners = self._owner_maps.get(key)
        if owners is None:
            owners = self._owner_maps[key] = _owners(f for f in self.forms if f.applies(chapter))
        return key, owners

    def matcher(self, chapter: int) -> NameMatcher:
        """The chapter's matcher; with shared forms it is the chapter's own (their prior is)."""
        key, owners = self._owners_in(chapter)
        matcher = self._matchers.get(key)
        if matcher is None:
            matcher = self._matchers[key] = NameMatcher(owners, self.tables, self._shared_in(key, chapter))
        if not matcher.shares:
            return matcher
        weighted = self._weighted.get(chapter)
        if weighted is None or weighted[0] is not matcher:
            weighted = self._weighted[chapter] = (matcher, matcher.weighted(self.weights(chapter)))
        return weighted[1]

    def _shared_in(self, key: frozenset[str], chapter: int) -> dict[str, tuple[str, ...]]:
        shared = self._shared_maps.get(key)
        if shared is None:
            shared = self._shared_maps[key] = _shared(f for f in self.forms if f.applies(chapter))
        return shared

    def shared_forms(self) -> dict[str, tuple[str, ...]]:
        """Every form two people share at the top priority (anywhere in the book)."""
        return _shared(self.forms)

    def resolve(self, name: str, chapter: int | None = None) -> str | None:
        """The person id a name denotes (in the chapter when given), or None."""
        form = to_simplified(name.strip())
        owners = _owners([f for f in self.forms if f.form == form and
                          (chapter is None or f.applies(chapter))])
        return owners.get(form)

    def add(self, person: Person) -> None:
        """A person found by the LLM outside the lexicon (its names match from now on)."""
        self.people[person.id] = person
        self.forms += [NameForm(to_simplified(n), person.id, ALIAS) for n in person.all_names
                       if len(n) >= MIN_FORM]
        self._matchers.clear()
        self._owner_maps.clear()
        self._shared_maps.clear()
        self._weighted.clear()
        self._embedded.clear()
        self._chapter_keys.clear()


def _forms_of(person: Person, tables: CorpusTables,
              spans: dict[str, tuple[int, int]] | None = None) -> list[NameForm]:
    forms = []
    for n, name in enumerate(person.all_names):
        form = to_simplified(name)
        if len(form) < MIN_FORM or form in tables.name_forms_skipped or \
                form in genre().address_terms:  # titles that denote whoever holds them
            continue
        span = (spans or {}).get(name)
        scope = None if n == 0 else ChapterSpan(*span) if span else \
            _alias_scope(form, person.first_chapter, tables)
        forms.append(NameForm(form, person.id, PRIMARY if n == 0 else ALIAS, scope))
    return forms


def _alias_scope(form: str, first_chapter: int | None, tables: CorpusTables) -> ChapterSpan | None:
    """Chapters where an alias may denote its person: its range in the corpus tables
    (`alias_chapters`), else from the person's first chapter on (None: everywhere)."""
    ranges = tables.alias_chapters
    if form in ranges:
        first, last = ranges[form]
        return ChapterSpan(first, last)
    if first_chapter:
        return ChapterSpan(first_chapter, None)
    return None


def _best(forms: Iterable[NameForm]) -> dict[str, tuple[int, set[str]]]:
    best: dict[str, tuple[int, set[str]]] = {}
    for f in forms:
        priority, people = best.get(f.form, (0, set()))
        if f.priority > priority:
            best[f.form] = (f.priority, {f.person})
        elif f.priority == priority:
            people.add(f.person)
    return best


def _owners(forms: Iterable[NameForm]) -> dict[str, str]:
    """form → person, the highest priority winning; a form two people tie on is not here (see
    `_shared`)."""
    return {form: next(iter(people)) for form, (_, people) in _best(forms).items() if len(people) == 1}


def _shared(forms: Iterable[NameForm]) -> dict[str, tuple[str, ...]]:
    """form → the people who tie on it at its highest priority (resolved passage by passage)."""
    return {form: tuple(sorted(people)) for form, (_, people) in _best(forms).items()
            if len(people) > 1}

