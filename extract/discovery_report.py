"""How well the discovery found a book's people and aliases, against labelled people (水浒's
curated lexicon, a dev set of another book): people recall weighted by mentions, alias recall
and precision, and pairs of labelled people the discovery merged into one.

A discovered person is a labelled one when its name is theirs, else when its name is one of their
aliases, else when one of its aliases is their name. Mentions are counted in the text with the
labelled forms (the matcher of the extraction), so a person the text names often weighs more.
Only labelled aliases the text uses count (a form that never occurs cannot be found).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError
from core.text import to_simplified
from extract.names import LexiconEntry, NameForm, Roster
from extract.text import ChapterTexts
from kb.knowledge.models import Person


@dataclass(frozen=True)
class LabelledPerson:
    id: str
    name: str
    aliases: tuple[str, ...]
    shared: tuple[str, ...] = ()
    """aliases the labels say another person also holds"""

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass
class DiscoveryScore:
    people: int = 0
    found: int = 0
    mentions: int = 0
    found_mentions: int = 0
    aliases: int = 0
    aliases_resolved: int = 0
    aliases_of_found: int = 0
    discovered_aliases: int = 0
    correct_aliases: int = 0
    wrong_aliases: list[tuple[str, str, str]] = field(default_factory=list)
    """(discovered person's name, alias, the labelled person it is really)"""
    merged: list[tuple[str, str]] = field(default_factory=list)
    missed: list[tuple[str, int]] = field(default_factory=list)
    unresolved: list[tuple[str, str]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.people if self.people else 0.0

    @property
    def weighted_recall(self) -> float:
        return self.found_mentions / self.mentions if self.mentions else 0.0

    @property
    def alias_recall(self) -> float:
        return self.aliases_resolved / self.aliases if self.aliases else 0.0

    @property
    def alias_recall_of_found(self) -> float:
        return self.aliases_resolved / self.aliases_of_found if self.aliases_of_found else 0.0

    @property
    def alias_precision(self) -> float:
        judged = self.correct_aliases + len(self.wrong_aliases)
        return self.correct_aliases / judged if judged else 0.0

    def summary(self) -> dict[str, float | int]:
        return {"people": self.people, "found": self.found, "recall": round(self.recall, 3),
                "recall_by_mentions": round(self.weighted_recall, 3), "aliases": self.aliases,
                "aliases_resolved": self.aliases_resolved, "alias_recall": round(self.alias_recall, 3),
                "alias_recall_of_found": round(self.alias_recall_of_found, 3),
                "discovered_aliases": self.discovered_aliases, "correct_aliases": self.correct_aliases,
                "wrong_aliases": len(self.wrong_aliases),
                "alias_precision": round(self.alias_precision, 3), "merged_pairs": len(self.merged)}


def _mentions(labelled: Sequence[LabelledPerson], texts: ChapterTexts) -> Counter[str]:
    people = [Person(id=p.id, name=p.name, aliases=list(p.aliases), confidence=1.0, origin="curated")
              for p in labelled]
    forms = [NameForm(f, p.id, 2 if f == p.name else 1) for p in labelled for f in p.forms if len(f) >= 2]
    roster = Roster(people, forms)
    count: Counter[str] = Counter()
    for chapter in texts.chapters():
        count.update(m.person for m in roster.matcher(chapter).find(to_simplified(texts.original(chapter))))
    return count


def _used(form: str, joined: str) -> bool:
    return len(form) >= 2 and form in joined


def _match(entries: Sequence[LexiconEntry], labelled: Sequence[LabelledPerson]) -> dict[str, LexiconEntry]:
    """labelled id → the discovered person that is them (name first, then alias, then reverse)."""
    by_name = {p.name: p for p in labelled}
    alias_owner: dict[str, set[str]] = {}
    for p in labelled:
        for a in p.aliases:
            alias_owner.setdefault(a, set()).add(p.id)
    found: dict[str, LexiconEntry] = {}
    for rank in range(3):
        for e in entries:
            name = to_simplified(e.name)
            if rank == 0 and name in by_name:
                found.setdefault(by_name[name].id, e)
            elif rank == 1 and len(alias_owner.get(name, ())) == 1:
                found.setdefault(next(iter(alias_owner[name])), e)
            elif rank == 2:
                for a in e.aliases:
                    if to_simplified(a) in by_name:
                        found.setdefault(by_name[to_simplified(a)].id, e)
    return found


def score_discovery(entries: Sequence[LexiconEntry], labelled: Sequence[LabelledPerson],
                    texts: ChapterTexts) -> DiscoveryScore:
    """The discovery's figures against the labelled people (see the module's docstring)."""
    joined = "\n".join(to_simplified(texts.original(c)) for c in texts.chapters())
    mentions = _mentions(labelled, texts)
    found = _match(entries, labelled)
    score = DiscoveryScore()
    owner_of_form: dict[str, set[str]] = {}
    for p in labelled:
        for f in p.forms:
            owner_of_form.setdefault(f, set()).add(p.id)
    for p in labelled:
        weight = mentions[p.id]
        if weight == 0:
            continue
        score.people += 1
        score.mentions += weight
        entry = found.get(p.id)
        forms = {to_simplified(f) for f in (entry.name, *entry.aliases)} if entry else set()
        if entry is not None:
            score.found += 1
            score.found_mentions += weight
        else:
            score.missed.append((p.name, weight))
        for alias in p.aliases:
            if not _used(alias, joined) or alias == p.name:
                continue
            score.aliases += 1
            if entry is not None:
                score.aliases_of_found += 1
            if alias in forms:
                score.aliases_resolved += 1
            else:
                score.unresolved.append((p.name, alias))
    mapped = {e.id: pid for pid, e in found.items()}
    for e in entries:
        _judge_aliases(e, mapped.get(e.id), owner_of_form, score)
    return score


def _judge_aliases(entry: LexiconEntry, labelled_id: str | None, owner_of_form: Mapping[str, set[str]],
                   score: DiscoveryScore) -> None:
    """Correct, wrong or unknown aliases of one discovered person; two labelled names in one
    discovered person are a merged pair."""
    names_held = {next(iter(o)) for f in (entry.name, *entry.aliases)
                  if len(o := owner_of_form.get(to_simplified(f), set())) == 1}
    if labelled_id is not None:
        names_held.add(labelled_id)
    if len(names_held) > 1:
        ordered = sorted(names_held)
        score.merged += [(ordered[0], other) for other in ordered[1:]]
    if labelled_id is None:
        return
    for alias in entry.aliases:
        owners = owner_of_form.get(to_simplified(alias), set())
        score.discovered_aliases += 1
        if labelled_id in owners:
            score.correct_aliases += 1
        elif owners:
            score.wrong_aliases.append((entry.name, alias, ",".join(sorted(owners))))


class _LabelledLine(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    shared_forms: list[str] = Field(default_factory=list)


def read_labelled(path: Path) -> list[LabelledPerson]:
    """Labelled people, one JSON line each (`id`, `name`, `aliases`, optional `shared_forms`):
    a curated lexicon.jsonl or a dev set's people file. A ConfigError names a bad line."""
    if not path.exists():
        raise ConfigError(f"{path}: no labelled people here")
    people = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = _LabelledLine.model_validate_json(line)
        except ValidationError as exc:
            raise ConfigError(f"{path}:{number}: invalid labelled person: {exc.errors()[0]['msg']}") from exc
        people.append(LabelledPerson(row.id, to_simplified(row.name),
                                     tuple(to_simplified(a) for a in row.aliases),
                                     tuple(to_simplified(a) for a in row.shared_forms)))
    return people
