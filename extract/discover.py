"""People and their aliases discovered from a book's text alone: the lexicon of a book that has
no curated one.

Three readings of the whole text, each a signal of Chinese fiction in general (the words are the
genre's and the language's data, `kb.knowledge.genre` / `kb.knowledge.surnames`):

1. statistics (`extract.name_stats`): surname-initial strings that speak and act and stand whole;
2. introductions (`extract.introductions`): 姓甲名乙字丙, 甲字丙, 小字, 绰号 — each alias with the
   sentence that gives it;
3. title forms (`extract.title_forms`): 甲公, 甲将军 tied to the person of that surname the
   passages around them name.

A form two people hold (two courtesy names alike, a title form both are near) is kept on both and
reported in `ambiguous`; the name matcher (`extract.names`) resolves it passage by passage. The
result is written under `<data>/<book>/discovered/` (`write_discovery`) and read back by the
extraction pipeline in place of a curated `lexicon.jsonl`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from core.atomic import replace_directory
from core.errors import ConfigError
from core.text import CJK_CLASS, to_simplified
from extract.epithets import epithets
from extract.given_forms import full_name_of
from extract.introductions import Intro, IntroductionReader, sentence_around
from extract.name_stats import TextStats, full_names, generic_start, is_proper_noun, is_word
from extract.names import LexiconEntry, read_lexicon
from extract.person_ids import person_ids
from extract.religious_names import religious_names
from extract.speaker_names import speaking_names
from extract.text import ChapterTexts
from extract.title_forms import TitleCandidate, TitleTie, tie_title
from extract.title_holders import TitleWords, title_holders
from extract.titled_names import titled_names
from kb.knowledge.genre import PeopleWords, genre
from kb.knowledge.language import language
from kb.knowledge.surnames import Surnames, surnames

M = TypeVar("M", bound=BaseModel)
Progress = Callable[[int, int], None]
"""progress(done, total), called after each step of the discovery."""

DISCOVERED_DIR = "discovered"
LEXICON_FILE, EVIDENCE_FILE, AMBIGUOUS_FILE = "lexicon.jsonl", "evidence.jsonl", "ambiguous.jsonl"
MIN_MENTIONS = 3
"""A person named fewer times (by all their forms) is left out: too little to tell."""
MIN_TITLE_PERSON, MIN_SPOKEN_TITLE = 5, 2
"""A person named only by a title form: used and speaking this often."""
NEAR_OWNER = 0.3
MIN_CONVERSE, MIN_TOGETHER = 2, 0.15
FRAGMENT_SHARE = 0.6
SHORTER_DOMINATES = 3
TITLE_WINDOW = 150
OWN_TITLES = ("夫人", "娘子", "姑娘", "小姐", "氏", "太公", "公子")
"""Titles after a surname that name someone else than the bearer of the surname's name (甲夫人 is
his wife or sister): such a form is no alias of a same-surname person."""


class AliasEvidence(BaseModel):
    """Why an alias is a person's: the chapter and the verbatim passage that ties them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    alias: str
    person: str
    chapter: int
    quote: str
    rule: str = ""
    """courtesy / renamed / new name / childhood / styled / nickname / surname+courtesy / title"""


class AmbiguousForm(BaseModel):
    """A form several people hold: resolved by context passage by passage, never dropped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    form: str
    people: list[str]
    mentions: int


@dataclass(frozen=True)
class Discovery:
    entries: list[LexiconEntry]
    evidence: list[AliasEvidence]
    ambiguous: list[AmbiguousForm]


@dataclass
class _Draft:
    """A person under discovery: their full name, aliases and each alias's evidence."""

    name: str
    aliases: dict[str, AliasEvidence | None] = field(default_factory=dict)
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    """aliases that are theirs in some chapters only (a title they hold there)"""

    def add(self, alias: str, evidence: AliasEvidence | None) -> None:
        if alias != self.name and (alias not in self.aliases or self.aliases[alias] is None):
            self.aliases[alias] = evidence


class _Book:
    """The book's chapters in simplified script (offsets equal to the original's)."""

    def __init__(self, texts: ChapterTexts) -> None:
        self.original = {c: texts.original(c) for c in texts.chapters()}
        self.simplified = {c: to_simplified(t) for c, t in self.original.items()}
        self.joined = "\n".join(self.simplified.values())

    def quote(self, chapter: int, start: int, end: int) -> str:
        lo, hi = sentence_around(self.simplified[chapter], start, end)
        return self.original[chapter][lo:hi].strip()

    def occurs(self, form: str) -> int:
        return self.joined.count(form)

    def before_counts(self, tails: Iterable[str], width: int = 2, after: str = "") -> Counter[str]:
        """How often each tail stands in the text with each of the 1…`width` characters before it
        (甲将军, 甲乙将军), followed by `after` (a regex) when given: one scan for all tails, where
        counting each form apart would read the book once per form."""
        return Counter({head + tail: n for (head, tail), n in self.heads(tails, width, after).items()})

    def heads(self, tails: Iterable[str], width: int = 2, after: str = "") -> Counter[tuple[str, str]]:
        """`before_counts` keyed by (the characters before, the tail)."""
        pattern = re.compile("(?=(" + "|".join(map(re.escape, sorted(set(tails), key=len,
                                                                      reverse=True))) + ")" +
                             (f"(?:{after})" if after else "") + ")")
        counts: Counter[tuple[str, str]] = Counter()
        text = self.joined
        for m in pattern.finditer(text):
            at, tail = m.start(), m.group(1)
            for size in range(1, width + 1):
                if at >= size:
                    counts[(text[at - size:at], tail)] += 1
        return counts


def discover_lexicon(texts: ChapterTexts, progress: Progress | None = None) -> Discovery:
    """The book's people with their aliases, the evidence of each alias and the shared forms."""
    words, names_of = genre().people, surnames()
    steps = 5
    tick = progress or (lambda done, total: None)
    book = _Book(texts)
    tick(1, steps)
    stats = TextStats.of(list(book.simplified.values()), names_of, words)
    tick(2, steps)
    counted = full_names(stats, names_of, words)
    for name, n in speaking_names(list(book.simplified.values()), names_of, words,
                                  language().numerals.digits).items():
        counted.setdefault(name, n)
    known = set(counted)
    reader = IntroductionReader(words, lambda s: _loose_name(s, stats, names_of, words),
                                known.__contains__)
    introduced: Counter[str] = Counter()
    for text in book.simplified.values():
        introduced.update(reader.introduced(text))
    known |= {name for name, n in introduced.items() if n >= 2}
    intros = [i for c, text in book.simplified.items() for i in reader.read(c, text)]
    drafts = {n: _Draft(n) for n in counted}
    drafts.update((i.name, _Draft(i.name)) for i in intros if i.name and i.name not in drafts)
    _add_introduced(drafts, intros, book, names_of, words.titles)
    _add_religious(drafts, book, words)
    _add_given_names(drafts, book, names_of, stats,
                     frozenset(i.name for i in intros if i.kind == "name" and i.name),
                     frozenset(c[0] for c in words.speaker_cues if len(c) > 1))
    tick(3, steps)
    _drop_alias_names(drafts, frozenset(i.name for i in intros if i.kind == "name" and i.name), book)
    _add_epithets(drafts, book)
    _add_titles(drafts, book, names_of, words)
    _add_titled(drafts, book, words)
    _add_name_titles(drafts, book, words)
    _add_held_titles(drafts, book, names_of, words)
    _drop_fragments(drafts, book, words, frozenset(i.name for i in intros if i.name))
    _add_title_people(drafts, book, names_of, words)
    _merge_title_variants(drafts, book, names_of, words)
    tick(4, steps)
    discovery = _finish(drafts, book)
    tick(5, steps)
    return discovery


def _loose_name(s: str, stats: TextStats, names_of: Surnames, words: PeopleWords) -> bool:
    """Could be a full name (for reading introductions): surname + one or two characters, in the
    text more than once, not a generic speaker or a title form."""
    surname = names_of.of(s)
    return surname is not None and 1 <= len(s) - len(surname) <= 2 and stats.count[s] >= 2 and \
        not generic_start(s, words) and s[len(surname):] not in words.titles and \
        (is_proper_noun(s) or not is_word(s, surname))


def _title_stem(alias: str, titles: Iterable[str]) -> str | None:
    """道号丙先生: 丙, when the text also uses it alone (a sobriquet without its title)."""
    for title in sorted(titles, key=len, reverse=True):
        if alias.endswith(title) and len(alias) - len(title) >= 2:
            return alias[:-len(title)]
    return None


def _add_introduced(drafts: dict[str, _Draft], intros: Iterable[Intro], book: _Book,
                    names_of: Surnames, titles: Iterable[str]) -> None:
    for intro in intros:
        if intro.name is None:
            continue
        draft = drafts.setdefault(intro.name, _Draft(intro.name))
        if intro.kind == "name":
            continue
        quote = book.quote(intro.chapter, intro.start, intro.end)
        draft.add(intro.alias, AliasEvidence(alias=intro.alias, person=intro.name,
                                             chapter=intro.chapter, quote=quote, rule=intro.kind))
        stem = _title_stem(intro.alias, titles) if intro.kind == "styled" else None
        if stem and book.occurs(stem) > book.occurs(intro.alias):
            draft.add(stem, AliasEvidence(alias=stem, person=intro.name, chapter=intro.chapter,
                                          quote=quote, rule="styled"))
        surname = names_of.of(intro.name)
        if intro.kind in ("courtesy", "renamed") and surname:
            joined = surname + intro.alias
            if book.occurs(joined):
                draft.add(joined, AliasEvidence(alias=joined, person=intro.name, chapter=intro.chapter,
                                                quote=quote, rule="surname+" + intro.kind))


def _add_religious(drafts: dict[str, _Draft], book: _Book, words: PeopleWords) -> None:
    """Monks and Taoists (see `extract.religious_names`), with their religious name as an alias
    when the text also uses it alone (the passage of the form's first use as its evidence)."""
    barred = frozenset(words.determiners) | frozenset(language().numerals.digits)
    for form in religious_names(book.simplified.values(), words.religious_titles, barred):
        draft = drafts.setdefault(form, _Draft(form))
        name = form[:2]
        if book.occurs(name) > book.occurs(form):
            chapter, at = next((c, t.find(form)) for c, t in book.simplified.items() if form in t)
            draft.add(name, AliasEvidence(alias=name, person=form, chapter=chapter,
                                          quote=book.quote(chapter, at, at + len(form)),
                                          rule="religious name"))


def _add_given_names(drafts: dict[str, _Draft], book: _Book, names_of: Surnames,
                     stats: TextStats, formal: frozenset[str], heads: frozenset[str]) -> None:
    """A 'person' named by a two-character given name alone is the full name's (see
    `extract.given_forms`): the full name becomes the person, the given name their alias, with
    the first passage that writes the full name as evidence."""
    for name in [n for n in drafts if len(n) == 2]:
        full = full_name_of(name, names_of, stats, book.occurs, formal, heads)
        if full is None or name not in drafts:
            continue
        draft = drafts.pop(name)
        holder = drafts.setdefault(full, _Draft(full))
        chapter, at = next((c, t.find(full)) for c, t in book.simplified.items() if full in t)
        holder.add(name, AliasEvidence(alias=name, person=full, chapter=chapter,
                                       quote=book.quote(chapter, at, at + len(full)),
                                       rule="given name"))
        for alias, evidence in draft.aliases.items():
            holder.add(alias, evidence)


def _drop_alias_names(drafts: dict[str, _Draft], formal: frozenset[str], book: _Book) -> None:
    """A 'person' whose name is another's alias (甲丙 once 丙 is 甲乙's courtesy name, 甲乙 更名丙丁)
    is that person (named by the name the text uses more, when it is a new name). Two names each
    given by a 姓…名 formula are two people: the alias is taken back, never the two merged."""
    owners: dict[str, set[str]] = {}
    for draft in drafts.values():
        for alias in draft.aliases:
            owners.setdefault(alias, set()).add(draft.name)
    for name in list(drafts):
        holders = owners.get(name, set()) - {name}
        if name not in drafts or len(holders) != 1 or next(iter(holders)) not in drafts:
            continue
        holder = drafts[next(iter(holders))]
        if name in formal and holder.name in formal:
            holder.aliases.pop(name, None)
            continue
        merged = drafts.pop(name)
        tie = holder.aliases.get(name)
        if tie is not None and tie.rule == "new name" and book.occurs(name) > book.occurs(holder.name):
            evidence = holder.aliases.pop(name, None)
            merged, holder = holder, merged
            drafts[holder.name] = drafts.pop(merged.name)
            drafts[holder.name] = holder
            holder.add(merged.name, evidence.model_copy(update={"alias": merged.name})
                       if evidence else None)
        for alias, alias_evidence in merged.aliases.items():
            holder.add(alias, alias_evidence)


def _unshared_owner(drafts: dict[str, _Draft]) -> dict[str, str]:
    holders: dict[str, set[str]] = {}
    for draft in drafts.values():
        for form in (draft.name, *draft.aliases):
            holders.setdefault(form, set()).add(draft.name)
    return {form: next(iter(names)) for form, names in holders.items() if len(names) == 1}


def _add_epithets(drafts: dict[str, _Draft], book: _Book) -> None:
    for e in epithets(book.simplified, _unshared_owner(drafts)):
        quote = book.quote(e.chapter, e.start, e.end)
        drafts[e.person].add(e.epithet, AliasEvidence(alias=e.epithet, person=e.person,
                                                      chapter=e.chapter, quote=quote, rule="epithet"))


def _add_titles(drafts: dict[str, _Draft], book: _Book, names_of: Surnames,
                words: PeopleWords) -> None:
    by_surname: dict[str, list[TitleCandidate]] = {}
    for draft in drafts.values():
        surname = names_of.of(draft.name)
        if surname:
            forms = (draft.name, *(a for a in draft.aliases if len(a) >= 2))
            by_surname.setdefault(surname, []).append(TitleCandidate(draft.name, forms))
    titles = [t for t in (*words.titles, *words.kinship_forms) if t not in OWN_TITLES]
    kinship = frozenset(words.kinship_forms)
    cues = _cue_pattern(words)
    counts = book.before_counts(titles)
    for surname, candidates in sorted(by_surname.items()):
        for title in titles:
            form = surname + title
            if form in drafts or counts[form] < 3:
                continue
            tie = tie_title(form, title, candidates, book.simplified)
            if tie is not None and not (title in kinship and _converse(book, form, tie.people, cues)):
                _add_tie(drafts, tie, book)


def _add_titled(drafts: dict[str, _Draft], book: _Book, words: PeopleWords) -> None:
    """People named beside a leader's title only (see `extract.titled_names`): each a person of
    their own; the titled form (乙丙元帅) becomes their alias in `_add_name_titles`."""
    taken = {form for d in drafts.values() for form in (d.name, *d.aliases) if len(form) >= 2}
    for name in titled_names(list(book.simplified.values()), words, language().numerals.digits,
                             taken):
        drafts[name] = _Draft(name)


NAME_TITLE_USES = 2
"""A full name with a title right after it (甲乙大王, 甲乙元帅) this often is that person's form."""


def _add_name_titles(drafts: dict[str, _Draft], book: _Book, words: PeopleWords) -> None:
    """A person's full name followed by a title of the genre (丙丁大王, 丙丁元帅) is that person
    called by the title: the form is theirs, quoted where it first stands. A form that is
    someone else's name, or that two people's names make, is left alone, and so is a title that
    names a relative after a name (甲乙娘子: 甲乙's wife; genre `relative_titles`)."""
    titles = [t for t in words.titles if len(t) >= 2 and t not in words.relative_titles]
    owners: dict[str, list[str]] = {}
    for draft in drafts.values():
        if len(draft.name) < 2:
            continue
        for title in titles:
            form = draft.name + title
            if form not in drafts:
                owners.setdefault(form, []).append(draft.name)
    counts = book.before_counts(titles, width=4)
    for form, names in sorted(owners.items()):
        if len(names) != 1 or counts[form] < NAME_TITLE_USES:
            continue
        for chapter, text in book.simplified.items():
            at = text.find(form)
            if at >= 0:
                drafts[names[0]].add(form, AliasEvidence(
                    alias=form, person=names[0], chapter=chapter,
                    quote=book.quote(chapter, at, at + len(form)), rule="name+title"))
                break


def _drop_fragments(drafts: dict[str, _Draft], book: _Book, words: PeopleWords,
                    introduced: frozenset[str]) -> None:
    """A 'name' that is a piece of other words: another person's form and one character more
    far more used (甲侯之, 某甲乙 beside 甲乙), or a string whose last character opens a speaker cue
    nearly every time (乙大 of 乙大喜, 乙大怒; only a name without aliases). An introduced name stays."""
    forms = {f for d in drafts.values() for f in (d.name, *d.aliases) if len(f) >= 2}
    cues = [c for c in words.speaker_cues if len(c) >= 2]
    for name in list(drafts):
        draft = drafts[name]
        if name in introduced or len(name) < 2:
            continue
        if name[-2:] in draft.aliases:
            continue  # its given name is used alone (see `_add_given_names`): a full name
        if len(name) == 3 and any(part in forms and
                                  book.occurs(part) >= SHORTER_DOMINATES * book.occurs(name)
                                  for part in (name[:2], name[1:])):
            del drafts[name]
            continue
        if draft.aliases:
            continue
        opening = [c[1:] for c in cues if c.startswith(name[-1])]
        if opening and book.occurs(name) and sum(book.occurs(name + c) for c in opening) >= \
                FRAGMENT_SHARE * book.occurs(name):
            del drafts[name]


def _cue_pattern(words: PeopleWords) -> str:
    return "|".join(map(re.escape, sorted(words.speaker_cues, key=len, reverse=True)))


def _converse(book: _Book, form: str, people: Iterable[str], cues: str) -> bool:
    """The kinship form and the person it would be tied to act in one sentence (甲大郎…甲乙道):
    two people of one family, not one person — in `MIN_TOGETHER` of its uses, or a speaking form
    beside a speaking name twice."""
    sentences = re.compile(r"[^。！？\n]+")
    names = [p for p in people]
    speaks = re.compile(f"(?:{re.escape(form)})(?:{cues})")
    together = spoken = uses = 0
    for text in book.simplified.values():
        for m in sentences.finditer(text):
            sentence = m.group()
            if form not in sentence:
                continue
            uses += 1
            rest = sentence.replace(form, "")
            if any(n in rest for n in names):
                together += 1
                spoken += bool(speaks.search(sentence))
    return spoken >= MIN_CONVERSE or (uses > 0 and together >= MIN_TOGETHER * uses)


def _add_title_people(drafts: dict[str, _Draft], book: _Book, names_of: Surnames,
                      words: PeopleWords) -> None:
    """People the text names only by surname + title or kinship form (甲太公, 甲夫人, 甲二娘,
    甲太尉): such a form that speaks, no one's alias, is a person of its own — when its title
    names someone other than a same-surname person (甲夫人, 甲二娘), or no same-surname person
    is named in most of its passages (then it is not one of theirs left untied)."""
    tails = (*words.titles, *words.kinship_forms)
    spoken = book.heads(tails, after=_cue_pattern(words))
    counts = book.before_counts(tails)
    taken = {form for d in drafts.values() for form in (d.name, *d.aliases)}
    own = frozenset(OWN_TITLES) | frozenset(words.kinship_forms)
    surnamed: dict[str, list[str]] = {}
    for name in drafts:
        surname = names_of.of(name)
        if surname:
            surnamed.setdefault(surname, []).append(name)
    for form in _wives(book, words, counts, taken, names_of):
        drafts[form] = _Draft(form)
        taken.add(form)
    for form in _women(book, names_of, words, taken):
        drafts[form] = _Draft(form)
        taken.add(form)
    for (head, tail), n in sorted(spoken.items()):
        form = head + tail
        if n < MIN_SPOKEN_TITLE or counts[form] < MIN_TITLE_PERSON or form in taken or \
                names_of.of(form + "甲") != head or form in words.generic_speakers:
            continue
        if tail not in own and _near_share(book, form, surnamed.get(head, [])) >= NEAR_OWNER:
            continue
        drafts[form] = _Draft(form)
        taken.add(form)


def _merge_title_variants(drafts: dict[str, _Draft], book: _Book, names_of: Surnames,
                          words: PeopleWords) -> None:
    """Two people named by one surname and two titles of one rank (genre `title_variants`: 甲后
    and 甲太后) whose forms stand within `TITLE_WINDOW` characters of each other somewhere are one
    woman called both ways: the longer title is her name, the other an alias quoted where the two
    meet. Forms that never meet (two empresses of one clan, generations apart) stay apart."""
    for group in words.title_variants:
        by_surname: dict[str, list[str]] = {}
        for name in drafts:
            tail = next((t for t in sorted(group, key=len, reverse=True) if name.endswith(t)), None)
            if tail and names_of.of(name[:-len(tail)] + "甲") == name[:-len(tail)]:
                by_surname.setdefault(name[:-len(tail)], []).append(name)
        for forms in by_surname.values():
            forms.sort(key=lambda f: (-len(f), -book.occurs(f), f))
            keep = forms[0]
            for other in forms[1:]:
                met = _where_met(book, keep, other)
                if met is None or other not in drafts:
                    continue
                chapter, start, end = met
                merged = drafts.pop(other)
                evidence = AliasEvidence(alias=other, person=keep, chapter=chapter,
                                         quote=book.quote(chapter, start, end), rule="title variant")
                drafts[keep].add(other, evidence)
                for alias, found in merged.aliases.items():
                    drafts[keep].add(alias, found)


def _where_met(book: _Book, one: str, other: str) -> tuple[int, int, int] | None:
    """The first place `other` is written within `TITLE_WINDOW` characters of `one`: (chapter, its
    start, its end)."""
    for chapter, text in book.simplified.items():
        if one not in text:
            continue
        for m in re.finditer(re.escape(other), text):
            if one in text[max(0, m.start() - TITLE_WINDOW):m.end() + TITLE_WINDOW]:
                return chapter, m.start(), m.end()
    return None


MIN_WOMAN_USES = 3
SPEECH_GAP = 2
"""甲妃泣告曰, 甲后大骂曰: up to this many characters (how she speaks) between the form and the
verb of speech."""


def _women(book: _Book, names_of: Surnames, words: PeopleWords, taken: set[str]) -> list[str]:
    """Women the text names by surname + a woman's title only (genre `women_titles`: 甲后, 甲妃,
    甲夫人), seldom and mostly in speech: such a form is a woman of her own when she speaks in
    half its uses and twice at least, and it is no one's form yet."""
    if not words.women_titles:
        return []
    verbs = [c for c in words.speaker_cues if len(c) == 1 and c not in words.name_characters]
    speech = f"(?:{_cue_pattern(words)}|[{CJK_CLASS}]{{1,{SPEECH_GAP}}}(?:{'|'.join(verbs)}))"
    spoken = book.heads(words.women_titles, after=speech)
    counts = book.before_counts(words.women_titles)
    found = []
    for (head, tail), n in sorted(spoken.items()):
        form = head + tail
        if names_of.of(form + "甲") != head or form in taken or form in words.generic_speakers:
            continue
        if n >= MIN_SPOKEN_TITLE and counts[form] >= MIN_WOMAN_USES and 2 * n >= counts[form]:
            found.append(form)
    return found


WIFE_USES = 2
"""A surname + 氏 written this often right after a word of marriage (妻甲氏, 纳甲氏) is a woman."""


def _wives(book: _Book, words: PeopleWords, counts: Counter[str], taken: set[str],
           names_of: Surnames) -> list[str]:
    """Women the text names by surname + 氏 only (纳甲氏, 后妻甲氏所生), who seldom speak: the form
    is theirs when it stands after a word of marriage (genre `wife_marks`) `WIFE_USES` times; a
    clan (甲氏兄弟, 甲氏宗族) has no such words before it."""
    family = words.family_marks[:1] or ("氏",)
    marks = "|".join(map(re.escape, sorted(words.wife_marks, key=len, reverse=True)))
    if not marks:
        return []
    found: Counter[str] = Counter()
    for m in re.finditer(f"(?:{marks})([{CJK_CLASS}]){re.escape(family[0])}", book.joined):
        found[m.group(1) + family[0]] += 1
    return sorted(f for f, n in found.items() if n >= WIFE_USES and counts[f] >= MIN_TITLE_PERSON
                  and f not in taken and names_of.of(f[:-1] + "甲") == f[:-1])


def _near_share(book: _Book, form: str, names: list[str]) -> float:
    """The share of the form's uses with one of the names within the title passage window."""
    if not names:
        return 0.0
    pattern = re.compile("|".join(map(re.escape, names)))
    near = total = 0
    for text in book.simplified.values():
        for m in re.finditer(re.escape(form), text):
            total += 1
            near += bool(pattern.search(text, max(0, m.start() - TITLE_WINDOW), m.end() + TITLE_WINDOW))
    return near / total if total else 0.0


def _add_tie(drafts: dict[str, _Draft], tie: TitleTie, book: _Book) -> None:
    quote = book.quote(tie.chapter, tie.start, tie.end)
    for person in tie.people:
        rule = "title" if len(tie.people) == 1 else "title (shared)"
        drafts[person].add(tie.form, AliasEvidence(alias=tie.form, person=person, chapter=tie.chapter,
                                                   quote=quote, rule=rule))


def _add_held_titles(drafts: dict[str, _Draft], book: _Book, names_of: Surnames,
                     words: PeopleWords) -> None:
    """Titles used alone (see `extract.title_holders`): each holder's alias in their chapters,
    with their surname + the title when the text writes it (乙北侯 once 北侯 is 乙丙's). A
    'person' named by a title that others hold is no person."""
    people = {d.name: (d.name, *(a for a in d.aliases if len(a) >= 2)) for d in drafts.values()}
    surname_forms = {d.name: [a for a, e in d.aliases.items() if e is not None and
                              e.rule.startswith("title")] for d in drafts.values()}
    title_words = TitleWords(tuple(t for t in (*words.titles, *words.sovereign_titles)
                                   if t not in OWN_TITLES),
                             words.rank_suffixes, words.conferral_verbs,
                             frozenset(words.generic_speakers) | frozenset(words.kinship_forms),
                             frozenset(words.determiners), frozenset(words.sovereign_titles))
    holdings = title_holders(book.simplified, people, surname_forms, title_words)
    for h in holdings:
        if h.title in drafts and h.title != h.person:
            del drafts[h.title]
    for h in holdings:
        draft = drafts.get(h.person)
        if draft is None or h.title in draft.aliases and draft.aliases[h.title] is not None and \
                h.title not in draft.spans:
            continue  # already theirs everywhere
        s = h.evidence
        quote = book.quote(s.chapter, s.start, s.end)
        draft.add(h.title, AliasEvidence(alias=h.title, person=h.person, chapter=s.chapter,
                                         quote=quote, rule="title held"))
        first, last = draft.spans.get(h.title, (h.first, h.last))
        draft.spans[h.title] = (min(first, h.first), max(last, h.last))
        surname = names_of.of(h.person)
        if surname and book.occurs(surname + h.title):
            draft.add(surname + h.title, AliasEvidence(alias=surname + h.title, person=h.person,
                                                       chapter=s.chapter, quote=quote,
                                                       rule="surname+title held"))


def _finish(drafts: dict[str, _Draft], book: _Book) -> Discovery:
    from extract.names import ChapterSpan, NameForm, Roster  # counts mentions as extraction will
    from kb.knowledge.models import Person

    holders: dict[str, list[str]] = {}
    for draft in drafts.values():
        for form in (draft.name, *draft.aliases):
            holders.setdefault(form, []).append(draft.name)
    people = [Person(id=f"p{n}", name=d.name, aliases=list(d.aliases), confidence=0.5,
                     origin="extracted") for n, d in enumerate(drafts.values())]
    roster = Roster(people, [NameForm(form, f"p{n}", 2 if form == d.name else 1,
                                      ChapterSpan(*d.spans[form]) if form in d.spans else None)
                             for n, d in enumerate(drafts.values()) for form in (d.name, *d.aliases)])
    count: Counter[str] = Counter()
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    form_count: Counter[str] = Counter()
    for chapter, text in book.simplified.items():
        for m in roster.matcher(chapter).find(text):
            count[m.person] += 1
            form_count[m.form] += 1
            first.setdefault(m.person, chapter)
            last[m.person] = chapter
    kept = [(p, d) for p, d in zip(people, drafts.values(), strict=True) if count[p.id] >= MIN_MENTIONS]
    kept.sort(key=lambda pd: -count[pd[0].id])
    ids = person_ids([d.name for _, d in kept])
    id_of = {d.name: ids[n] for n, (_, d) in enumerate(kept)}
    entries, evidence = [], []
    for person, draft in kept:
        # the forms that are theirs everywhere first, most used first (search adds the first
        # ones to a query); a title they hold in some chapters only comes after
        aliases = sorted(draft.aliases, key=lambda a: (a in draft.spans, -form_count[a], a))
        entries.append(LexiconEntry(id=id_of[draft.name], name=draft.name, aliases=aliases,
                                    first_chapter=first.get(person.id),
                                    last_chapter=last.get(person.id), mentions=count[person.id],
                                    alias_chapters={a: draft.spans[a] for a in aliases
                                                    if a in draft.spans}))
        evidence += [e.model_copy(update={"person": id_of[draft.name]})
                     for e in (draft.aliases[a] for a in aliases) if e is not None]
    ambiguous = [AmbiguousForm(form=form, people=[id_of[n] for n in names if n in id_of],
                               mentions=book.occurs(form))
                 for form, names in sorted(holders.items())
                 if len([n for n in names if n in id_of]) > 1 and
                 _overlap([drafts[n].spans.get(form) for n in names if n in id_of])]
    return Discovery(entries, evidence, ambiguous)


def _overlap(spans: list[tuple[int, int] | None]) -> bool:
    """Two holders of a form whose chapters meet (a title passed on is not shared)."""
    if any(s is None for s in spans):
        return True
    ordered = sorted(s for s in spans if s is not None)
    return any(b[0] <= a[1] for a, b in zip(ordered, ordered[1:], strict=False))


# -- storage --------------------------------------------------------------------------------------

def write_discovery(discovery: Discovery, directory: Path) -> None:
    """lexicon.jsonl, evidence.jsonl and ambiguous.jsonl, swapped in at once."""
    def write(tmp: Path) -> None:
        _write_lines(tmp / LEXICON_FILE, (e.model_dump_json(exclude_none=True) for e in discovery.entries))
        _write_lines(tmp / EVIDENCE_FILE, (e.model_dump_json() for e in discovery.evidence))
        _write_lines(tmp / AMBIGUOUS_FILE, (a.model_dump_json() for a in discovery.ambiguous))

    replace_directory(directory, write)


def _write_lines(path: Path, lines: Iterable[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def read_discovery(directory: Path) -> Discovery:
    """The discovery written by `write_discovery`; a ConfigError names the file and line."""
    return Discovery(read_lexicon(directory / LEXICON_FILE),
                     _read_models(directory / EVIDENCE_FILE, AliasEvidence),
                     _read_models(directory / AMBIGUOUS_FILE, AmbiguousForm))


def _read_models(path: Path, model: type[M]) -> list[M]:
    if not path.exists():
        raise ConfigError(f"{path}: missing (run the discovery again)")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(model.model_validate_json(line))
            except ValidationError as exc:
                raise ConfigError(f"{path}:{number}: {exc.errors()[0]['msg']}") from exc
    return rows


def dumps(discovery: Discovery) -> str:
    """A short JSON summary (counts) for logs and the CLI."""
    return json.dumps({"people": len(discovery.entries), "evidence": len(discovery.evidence),
                       "ambiguous": len(discovery.ambiguous)}, ensure_ascii=False)
