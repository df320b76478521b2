"""Titles used alone (丞相, 皇叔, 甲王, 甲侯): who holds each, chapter by chapter.

A title written without a surname names the one person who holds it in that stretch of the book,
and a title passes from holder to holder (a fief's lord dies, a minister is succeeded). The text
says who holds it in three ways, all of Chinese fiction in general:

- apposition: the title right before a full name (甲王乙丙, 丞相乙丙);
- the surname form: a person's tied alias that is their surname + the title (乙丞相 of 乙丙);
- conferral: 封/立/拜 乙丙 为 title (the genre's `conferral_verbs`), the given name alone when the
  person was named just before (封丙为甲公).

Each says "this person holds it here". In book order the holders form runs; a title whose holder
changes at most every few statements (`SUCCESSION`) is one person's at a time, and each run holds
it from its first statement (the first run from the title's first use, if that is just before) to
the next run's; a person holding it in two runs keeps the longer. One statement alone ties only a
fief's title (甲王, 甲侯: one holder by nature), never a rank. A rank
many hold at once (将军, 都督) changes holder at nearly every statement and is no one's alias. A run
is kept only when its holder is named by their own forms near the title in enough of its uses in
the run (`NEAR_SHARE`): the title stands for someone the passage is about. A sovereign's title
(the genre's `sovereign_titles`) is the exception: the narration writes it in place of the name,
so its one holder is the person its statements name most (`_sovereign`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from core.text import CJK_CLASS
from extract.name_stats import dictionary_tag

X = f"[{CJK_CLASS}]"
MIN_USES = 3
"""A title used fewer times alone says nothing."""
SUCCESSION = 0.34
"""At most this share of consecutive statements may change the holder."""
LONGER = 0.5
"""甲乙王 is the title rather than 乙王 when it makes this share of 乙王's uses."""
WINDOW = 150
NEAR_SHARE = 0.25
MAX_TITLE = 4
MIN_RANK_STATEMENTS = 3
"""A rank (丞相, 太尉: not a fief's title) needs this many statements."""
TAIL = 8
"""A holder holds the title at most this many chapters past the last statement that says so."""
EARLY = 3
"""The first holder holds the title from its first use when that is at most this many chapters
before the first statement (the text uses a title a little before it says who holds it)."""
LOOKBACK = 300
"""How far before 封丙为… the full name ending in 丙 may have been said."""


@dataclass(frozen=True)
class Statement:
    """The text says `person` holds `title` at [start, end) of `chapter`, by `rule`."""

    title: str
    person: str
    chapter: int
    start: int
    end: int
    rule: str


@dataclass(frozen=True)
class Holding:
    """`person` holds `title` in chapters `first`–`last`; `evidence` is the first statement."""

    title: str
    person: str
    first: int
    last: int
    evidence: Statement
    uses: int


@dataclass(frozen=True)
class TitleWords:
    titles: tuple[str, ...]
    """the genre's titles (丞相, 皇叔): read alone as well"""
    suffixes: tuple[str, ...]
    """rank characters that end a title of a fief (王, 侯, 公): 甲王, 甲乙侯"""
    conferral_verbs: tuple[str, ...]
    generic: frozenset[str]
    """words that are no title of one person (the genre's generic speakers: 主公, 陛下)"""
    determiners: frozenset[str] = frozenset()
    """那梢公: a determiner before a noun makes it no title"""
    sovereign: frozenset[str] = frozenset()
    """先主, 后主: written in place of the sovereign's name (see `_runs`)"""


def _alt(words: Iterable[str]) -> str:
    return "|".join(map(re.escape, sorted(set(words), key=len, reverse=True)))


class _Text:
    def __init__(self, texts: Mapping[int, str]) -> None:
        self.texts = texts
        self.joined = "\n".join(texts.values())
        self._uses: dict[str, int] = {}

    def uses(self, title: str) -> int:
        if title not in self._uses:
            self._uses[title] = self.joined.count(title)
        return self._uses[title]


def title_holders(texts: Mapping[int, str], people: Mapping[str, Sequence[str]],
                  surname_forms: Mapping[str, Sequence[str]], words: TitleWords) -> list[Holding]:
    """Who holds each title used alone, per stretch of chapters. `people`: person → their forms
    (the full name first); `surname_forms`: person → their tied aliases that are surname + title."""
    text = _Text(texts)
    statements = _apposed(text, people, words) + _conferred(text, people, words) + \
        _surnamed(text, surname_forms, words)
    by_title: dict[str, list[Statement]] = {}
    for s in statements:
        by_title.setdefault(s.title, []).append(s)
    holdings: list[Holding] = []
    for title, said in sorted(by_title.items()):
        if title in words.generic or text.uses(title) < MIN_USES:
            continue
        said.sort(key=lambda s: (s.chapter, s.start))
        if title in words.sovereign:
            holdings += _sovereign(title, said, text)
            continue
        changes = sum(1 for a, b in zip(said, said[1:], strict=False) if a.person != b.person)
        if changes > SUCCESSION * max(1, len(said) - 1):
            continue
        fief = title[-1] in words.suffixes or title in words.sovereign
        if len(said) < (1 if fief else MIN_RANK_STATEMENTS) or (len(said) == 1 and said[0].rule == "surname"):
            continue  # one statement ties a fief's title (封甲为乙王), not a rank many hold
        holdings += _runs(title, said, text, people, title in words.sovereign)
    return _longest(holdings)


def _sovereign(title: str, said: list[Statement], text: _Text) -> list[Holding]:
    """A sovereign's title (see `TitleWords.sovereign`) has one holder, whose name the narration
    avoids, so neither the name near its uses nor a run of statements can be asked for: the
    holder is the person the statements name most (twice at least, more than anyone else; a verb
    read as a name, 甲主闻知, is no statement), from their first statement to the title's last use."""
    named = Counter(s.person for s in said if not (dictionary_tag(s.person)[1] or "").startswith("v"))
    ranked = named.most_common(2)
    if not ranked or ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return []
    person = ranked[0][0]
    evidence = next(s for s in said if s.person == person)
    uses = _use_chapters(title, text)
    inside = [c for c in uses if c >= evidence.chapter]
    if not inside:
        return []
    return [Holding(title, person, evidence.chapter, max(inside), evidence,
                    sum(uses[c] for c in inside))]


def _longest(holdings: list[Holding]) -> list[Holding]:
    """One stretch per person and title: the one they hold it longest by use."""
    best: dict[tuple[str, str], Holding] = {}
    for h in holdings:
        key = (h.person, h.title)
        if key not in best or h.uses > best[key].uses:
            best[key] = h
    return sorted(best.values(), key=lambda h: (h.title, h.first))


def _apposed(text: _Text, people: Mapping[str, Sequence[str]], words: TitleWords) -> list[Statement]:
    names = {person: person for person in people}
    pattern = re.compile(_alt(names))
    titles = frozenset(words.titles)
    suffixes = frozenset(words.suffixes)
    found = []
    for chapter, t in text.texts.items():
        for m in pattern.finditer(t):
            title = _title_before(t, m.start(), titles, suffixes, words.determiners, text)
            if title is not None:
                found.append(Statement(title, names[m.group()], chapter, m.start() - len(title),
                                       m.end(), "apposition"))
    return found


def _title_before(t: str, at: int, titles: frozenset[str], suffixes: frozenset[str],
                  determiners: frozenset[str], text: _Text) -> str | None:
    """The title that ends right before `at`: one of the genre's, else 乙王 / 甲乙王 (the longer
    when it makes most of the shorter's uses)."""
    for size in range(MAX_TITLE, 1, -1):
        if at >= size and t[at - size:at] in titles:
            return t[at - size:at]
    if at < 2 or t[at - 1] not in suffixes or not re.match(X, t[at - 2]) or \
            t[at - 2] in determiners or (at >= 3 and t[at - 3] in determiners):
        return None  # 那梢公: a noun after a determiner
    best = t[at - 2:at]
    for size in range(3, MAX_TITLE + 1):
        longer = t[at - size:at] if at >= size else ""
        if not re.fullmatch(f"{X}+", longer) or longer[0] in determiners or \
                text.uses(longer) < LONGER * text.uses(best):
            break
        best = longer
    return best


def _conferred(text: _Text, people: Mapping[str, Sequence[str]], words: TitleWords) -> list[Statement]:
    if not words.conferral_verbs:
        return []
    names = sorted(people, key=len, reverse=True)
    pattern = re.compile(rf"(?:{_alt(words.conferral_verbs)})(?P<who>{_alt(names)}|{X})为"
                         rf"(?P<title>{X}{{2,{MAX_TITLE}}}?)(?=[，。；：！？、]|$)")
    found = []
    for chapter, t in text.texts.items():
        for m in pattern.finditer(t):
            who = m.group("who")
            person = who if who in people else _bearer_of(t, m.start(), who, names)
            if person is not None:
                found.append(Statement(m.group("title"), person, chapter, m.start(), m.end(),
                                       "conferral"))
    return found


def _bearer_of(t: str, at: int, given: str, names: Sequence[str]) -> str | None:
    """封丙为…: the full name ending in 丙 said last before (the one the passage is about)."""
    window = t[max(0, at - LOOKBACK):at]
    best: tuple[int, str] | None = None
    for name in names:
        if name.endswith(given) and len(name) > 1:
            where = window.rfind(name)
            if where >= 0 and (best is None or where > best[0]):
                best = (where, name)
    return best[1] if best else None


def _surnamed(text: _Text, surname_forms: Mapping[str, Sequence[str]],
              words: TitleWords) -> list[Statement]:
    found = []
    titles = frozenset(words.titles)
    for person, forms in surname_forms.items():
        for form, title in forms_with_titles(forms, person, titles):
            pattern = re.compile(re.escape(form))
            for chapter, t in text.texts.items():
                found += [Statement(title, person, chapter, m.start(), m.end(), "surname")
                          for m in pattern.finditer(t)]
    return found


def forms_with_titles(forms: Sequence[str], person: str,
                      titles: frozenset[str]) -> list[tuple[str, str]]:
    """(乙丞相, 丞相) for each form that is the start of the person's name + a title."""
    found = []
    for form in forms:
        for size in (1, 2):
            if form[:size] == person[:size] and form[size:] in titles and len(form) - size >= 2:
                found.append((form, form[size:]))
    return found


def _runs(title: str, said: list[Statement], text: _Text, people: Mapping[str, Sequence[str]],
          sovereign: bool = False) -> list[Holding]:
    """Each run of one holder's statements, held from its first statement to the next run's. A
    sovereign's title stands in for the name: it holds to the title's last use, and the name is
    not looked for around it."""
    uses = _use_chapters(title, text)
    runs: list[list[Statement]] = []
    for s in said:
        if runs and runs[-1][0].person == s.person:
            runs[-1].append(s)
        else:
            runs.append([s])
    holdings = []
    for n, run in enumerate(runs):
        first = run[0].chapter
        if n == 0 and uses and min(uses) >= first - EARLY:
            first = min(uses)
        last = runs[n + 1][0].chapter - 1 if n + 1 < len(runs) else max(uses, default=run[-1].chapter)
        if not sovereign:
            last = min(max(last, run[-1].chapter), run[-1].chapter + TAIL)
        person = run[0].person
        inside = [c for c in uses if first <= c <= last]
        if not inside or not sovereign and \
                _near_share(title, person, people[person], text, first, last) < NEAR_SHARE:
            continue
        holdings.append(Holding(title, person, first, last, run[0], sum(uses[c] for c in inside)))
    return holdings


def _use_chapters(title: str, text: _Text) -> Counter[int]:
    return Counter({c: n for c, t in text.texts.items() if (n := t.count(title))})


def _near_share(title: str, person: str, forms: Sequence[str], text: _Text, first: int,
                last: int) -> float:
    """The share of the title's uses in chapters first–last with one of the person's own forms
    within `WINDOW` characters."""
    own = re.compile(_alt(f for f in forms if len(f) >= 2 and f != title))
    near = total = 0
    for chapter in range(first, last + 1):
        t = text.texts.get(chapter, "")
        for m in re.finditer(re.escape(title), t):
            total += 1
            if own.search(t, max(0, m.start() - WINDOW), m.end() + WINDOW):
                near += 1
    return near / total if total else 0.0
