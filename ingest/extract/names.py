"""Who is named where: the roster (curated people + the team's lexicon) and a fast name matcher.

Names are compared in simplified script (`to_simplified`), so both scripts denote one person. A
name form that two people share at the same priority is ambiguous and never matched. Priorities,
highest first: a curated person inside the curated chapters, a lexicon person's own name, a
lexicon alias. Curated people that the lexicon does not know (张三 the 泼皮, 管营 …) are matched
only inside the curated chapters, where their generic names mean them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ingest.extract.cues import NAME_CONTEXT_EXCLUDE, NAME_FORMS_SKIPPED
from ingest.normalize import to_simplified
from kb.errors import ConfigError
from kb.models import Person

CURATED, PRIMARY, ALIAS = 3, 2, 1
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
    mentions: int | None = None
    profile: str = ""

    def person(self) -> Person:
        return Person(id=self.id, name=self.name, aliases=list(self.aliases), profile=self.profile,
                      group=self.group, first_chapter=self.first_chapter, confidence=0.9,
                      origin="extracted")


def read_lexicon(path: Path) -> list[LexiconEntry]:
    """The lexicon file; a ConfigError names the line of a bad entry."""
    if not path.exists():
        raise ConfigError(f"{path}: no character lexicon here")
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
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
    chapters: frozenset[int] | None = None

    def applies(self, chapter: int) -> bool:
        return self.chapters is None or chapter in self.chapters


@dataclass(frozen=True)
class Mention:
    """A person named at [start, end) of a block's text."""

    person: str
    start: int
    end: int
    form: str


def _trie_pattern(forms: Iterable[str]) -> str:
    """A regex that matches the longest form first, built as a character trie (fast on 1,000 forms)."""
    trie: dict[str, dict[str, object]] = {}
    for form in forms:
        node: dict[str, object] = trie
        for ch in form:
            node = node.setdefault(ch, {})  # type: ignore[assignment]
        node[""] = {}
    return _node_pattern(trie)


def _node_pattern(node: dict[str, object]) -> str:
    branches = [re.escape(ch) + _node_pattern(child)  # type: ignore[arg-type]
                for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" in node:
        return f"(?:{body})?"
    return body


class NameMatcher:
    """Finds every non-overlapping name (longest first, left to right) in a simplified text."""

    def __init__(self, forms: dict[str, str]) -> None:
        self._owner = forms
        self._pattern = re.compile(_trie_pattern(forms)) if forms else None

    def find(self, simplified: str) -> list[Mention]:
        if self._pattern is None:
            return []
        found = []
        for match in self._pattern.finditer(simplified):
            form = match.group()
            if form in self._owner and not _excluded(simplified, match.start(), form):
                found.append(Mention(self._owner[form], match.start(), match.end(), form))
        return found


def _excluded(text: str, start: int, form: str) -> bool:
    return any(text[max(0, start - len(before)):start] == before
               for before in NAME_CONTEXT_EXCLUDE.get(form, ()))


class Roster:
    """Everyone the extractor can name: one Person per real person, with every name form."""

    def __init__(self, people: Sequence[Person], forms: Sequence[NameForm]) -> None:
        self.people: dict[str, Person] = {p.id: p for p in people}
        self.forms = list(forms)
        self._matchers: dict[frozenset[str], NameMatcher] = {}

    @classmethod
    def build(cls, curated: Sequence[Person], lexicon: Sequence[LexiconEntry],
              curated_chapters: Iterable[int]) -> Roster:
        from ingest.extract.resolve import merge_people  # resolution rules live in resolve.py

        scope = frozenset(curated_chapters)
        people, scoped = merge_people(curated, [e.person() for e in lexicon])
        forms: list[NameForm] = []
        for person in people:
            chapters = scope if person.id in scoped else None
            priority = CURATED if chapters is not None else None
            for n, name in enumerate(person.all_names):
                form = to_simplified(name)
                if len(form) >= MIN_FORM and form not in NAME_FORMS_SKIPPED:
                    forms.append(NameForm(form, person.id, priority or (PRIMARY if n == 0 else ALIAS),
                                          chapters))
        return cls(people, forms)

    def matcher(self, chapter: int) -> NameMatcher:
        applicable = [f for f in self.forms if f.applies(chapter)]
        key = frozenset(f"{f.form}\0{f.person}" for f in applicable if f.chapters is not None)
        matcher = self._matchers.get(key)
        if matcher is None:
            matcher = self._matchers[key] = NameMatcher(_owners(applicable))
        return matcher

    @cached_property
    def _by_form(self) -> dict[str, str]:
        return _owners([f for f in self.forms if f.chapters is None])

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
        self.__dict__.pop("_by_form", None)


def _owners(forms: Iterable[NameForm]) -> dict[str, str]:
    """form → person, the highest priority winning; a tie between two people drops the form."""
    best: dict[str, tuple[int, set[str]]] = {}
    for f in forms:
        priority, people = best.get(f.form, (0, set()))
        if f.priority > priority:
            best[f.form] = (f.priority, {f.person})
        elif f.priority == priority:
            people.add(f.person)
    return {form: next(iter(people)) for form, (_, people) in best.items() if len(people) == 1}


def load_roster(lexicon_path: Path, curated: Sequence[Person],
                curated_chapters: Iterable[int]) -> Roster:
    return Roster.build(curated, read_lexicon(lexicon_path), curated_chapters)


def dump_lexicon_line(entry: LexiconEntry) -> str:
    return json.dumps(entry.model_dump(exclude_none=True), ensure_ascii=False)
