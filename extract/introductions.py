"""Introductions: the sentences where the text itself gives a person's names.

Chinese fiction introduces a person by formula: 姓甲名乙，字丙 (复姓 for a double surname), 甲乙字丙,
名乙，字丙 (the surname said before), 乙字丙 (the given name alone, the full name said just before),
小字丙, 道号丙先生, 更名丙, 绰号「丙」 / 唤做『丙』甲乙 / 人皆称为丙. Each formula gives the full name
and the other names with the sentence that ties them: that sentence is the alias's evidence. The
words of the formulas are the genre's (`PeopleWords`), never a book's.

Who a name after the formula belongs to (a nickname, a sobriquet, a childhood name): the full name
right after it (「丙」甲乙; a quoted epithet before some other word names no one we know), else the
last full name of the sentence, unless a pronoun stands between them (丁救了他，人都叫做丙: 丁 is
not 他); then the person a 姓…名 introduction of the same passage just gave (the passage is about
them).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, overload

from core.text import CJK_CLASS
from kb.knowledge.genre import PeopleWords

X = f"[{CJK_CLASS}]"
BOUNDARY = r"(?=[，。；,、：！？”」』\s]|$)"
COURT_END = r"(?=[，。；,、：！？”」』\s者也乃]|$)"
"""After a courtesy name: a break, or 者 / 也 / 乃 (字丙者也)."""
OPEN, CLOSE = "「『“", "」』”"
QUOTED = re.compile(rf"[{OPEN}]{X}{{2,5}}[{CLOSE}]")
SENTENCE_END = re.compile(r"[。！？!?\n]")
MAX_QUOTE = 80
LOOKBACK = 240
"""How far before 名乙，字丙 the surname's bearer may have been named (the same passage)."""
TOPIC_SPAN = 160
"""How far after a 姓…名 introduction its person is still the passage's topic."""
PLAIN_ALIAS = rf"(?P<alias>{X}{{2,4}}?)(?=[，。；,：！？]|$)"
"""An alias written without quotes: two to four characters up to a break."""


@dataclass(frozen=True)
class Intro:
    """A name a formula gives: `alias` of `name` (None: only the given name is known, `given`),
    of `kind` courtesy / renamed (后改) / new name (更名) / childhood / styled / nickname / name, at
    [start, end)."""

    name: str | None
    alias: str
    kind: str
    chapter: int
    start: int
    end: int
    given: str = ""


def _alt(words: tuple[str, ...]) -> str:
    return "(?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + ")"


class IntroductionReader:
    """Finds the introductions of one chapter's simplified text; `is_name` says whether a string
    could be a full name of the book (inside a formula: 姓甲名乙, 甲乙字丙), `is_person` whether it
    is one (the bearer a nickname or a sobriquet is given to, named outside the formula; default
    `is_name`)."""

    def __init__(self, words: PeopleWords, is_name: Callable[[str], bool],
                 is_person: Callable[[str], bool] | None = None) -> None:
        self.is_name = is_name
        self.is_person = is_person or is_name
        self.family_marks = frozenset(words.family_marks)
        self.demonstratives = words.demonstratives
        self._topics: list[Intro] = []
        self.pronouns = re.compile("|".join(map(re.escape, words.pronouns))) if words.pronouns else None
        court = _alt(words.intro_courtesy)
        later = rf"(?:[，,]?{_alt(words.intro_courtesy_later)}(?P<later>{X}{{2}}){BOUNDARY})?" \
            if words.intro_courtesy_later else ""
        double = [w for w in words.intro_surname if w != "姓"] or ["复姓"]
        given = _alt(words.intro_given)
        tail = rf"(?:[，,]?{court}(?P<court>{X}{{2}}){COURT_END}{later})?"
        self.full = re.compile(
            rf"(?:(?:{_alt(tuple(double))})(?P<sur2>{X}{{2}})|姓(?P<sur>{X}))[，,]?{given}"
            rf"(?P<given>{X}{{1,2}}?)(?=[，。；,、：！？”」]|{court}|乃|是|也|$){tail}")
        self.courtesy = re.compile(rf"{court}(?P<court>{X}{{2}}){COURT_END}{later}")
        self.named_given = re.compile(rf"{given}(?P<given>{X}{{1,2}}?)[，,]$")
        self.childhood = re.compile(rf"{_alt(words.intro_childhood)}(?P<alias>{X}{{2}}){BOUNDARY}") \
            if words.intro_childhood else None
        nick = _alt(words.intro_nickname)
        plain = _alt(words.intro_nickname_plain) if words.intro_nickname_plain else None
        self.nickname = re.compile(
            rf"{nick}(?:[^，。「『“{CLOSE}]{{0,3}}做)?[{OPEN}](?P<quoted>{X}{{2,5}})[{CLOSE}]"
            + (rf"|{plain}{PLAIN_ALIAS}" if plain else "")) if words.intro_nickname else None
        self.styled = re.compile(
            rf"{_alt(words.intro_styled)}为?[{OPEN}]?(?P<alias>{X}{{2,5}}?)[{CLOSE}]?"
            rf"(?=[，。；,：！？{CLOSE}]|$)") if words.intro_styled else None
        self.birth = re.compile(_alt(words.birth_cues)) if words.birth_cues else None
        self.renamed = re.compile(rf"{_alt(words.intro_renamed)}{PLAIN_ALIAS}") \
            if words.intro_renamed else None

    def introduced(self, text: str) -> Counter[str]:
        """The full names a text gives by formula, for a first pass over the book (so that a
        bearer named in another chapter is known everywhere): a 姓…名 formula counts 2, a quoted
        epithet right before the name (「丙」甲乙) 1 — twice makes a name."""
        named: Counter[str] = Counter()
        named.update({i.name: 2 for i in self._full(0, text) if i.name})
        for m in QUOTED.finditer(text):
            after = text[m.end():m.end() + 4]
            name = next((after[:n] for n in (4, 3, 2) if self.is_name(after[:n])), None)
            if name is not None:
                named[name] += 1
        return named

    def read(self, chapter: int, text: str) -> list[Intro]:
        found = self._full(chapter, text)
        self._topics = [i for i in found if i.kind == "name"]
        found += [i for i in self._courtesy(chapter, text)  # a 姓…名 formula's style is its own
                  if not any(t.start <= i.start < t.end for t in self._topics)]
        found += self._childhood(chapter, text) + self._nicknames(chapter, text)
        found += self._later_names(chapter, text, self.styled, "styled")
        found += self._later_names(chapter, text, self.renamed, "new name")
        return found

    def _full(self, chapter: int, text: str) -> list[Intro]:
        found = []
        for m in self.full.finditer(text):
            name = (m.group("sur2") or m.group("sur")) + m.group("given")
            found.append(Intro(name, name, "name", chapter, m.start(), m.end()))
            found += _courtesy_names(name, m, chapter)
        return found

    def _courtesy(self, chapter: int, text: str) -> list[Intro]:
        found = []
        for m in self.courtesy.finditer(text):
            before = text[max(0, m.start() - 7):m.start()].removesuffix("表").rstrip("，,")
            name = self._name_ending(before)
            if name is None:
                given = self.named_given.search(before + "，")
                name = self._recent_bearer(text, m.start(), given.group("given")) if given else \
                    self._given_alone(text, m.start(), before)
            if name is not None:
                found += _courtesy_names(name, m, chapter)
        return found

    def _name_ending(self, before: str) -> str | None:
        """The longest full name that ends right before 字 (甲乙字丙): a known person's first
        (刺史甲乙字丙 is 甲乙's, not 史甲乙's)."""
        for known in (self.is_person, self.is_name):
            for size in (4, 3, 2):
                if len(before) >= size and known(before[-size:]):
                    return before[-size:]
        return None

    def _given_alone(self, text: str, at: int, before: str) -> str | None:
        """乙字丙 at a clause's start: 乙 is the given name of the full name said just before."""
        if len(before) < 2 or not re.fullmatch(X, before[-1]) or re.fullmatch(X, before[-2]):
            return None
        return self._recent_bearer(text, at, before[-1], self.is_person)

    def _recent_bearer(self, text: str, at: int, given: str,
                       is_name: Callable[[str], bool] | None = None) -> str | None:
        """名乙，字丙 after the surname was said: the full name ending in 乙 named last before it."""
        window = text[max(0, at - LOOKBACK):at]
        known = is_name or self.is_name
        best: tuple[int, str] | None = None
        for size in (2, 3):
            for m in re.finditer(re.escape(given), window):
                start = m.end() - size
                candidate = window[start:m.end()] if start >= 0 else ""
                if len(candidate) == size and candidate != given and known(candidate) and (
                        best is None or m.start() >= best[0]):  # the longer (司马乙, not 马乙)
                    best = (m.start(), candidate)
        return best[1] if best else self._family_bearer(window, given)

    def _family_bearer(self, window: str, given: str) -> str | None:
        """长子名乙 after the father was named, 甲氏兄弟…幼者名乙 after the family was: the surname
        + the given name, when that is a name."""
        for end in range(len(window), 1, -1):
            for size in (3, 2):
                named = window[end - size:end] if end >= size else ""
                family = named[-1:] in self.family_marks and len(named) == 2
                for surname in (named[:2], named[:1]):
                    if named and (family or self.is_name(named)) and self.is_name(surname + given):
                        return surname + given
        return None

    def _childhood(self, chapter: int, text: str) -> list[Intro]:
        if self.childhood is None:
            return []
        found = []
        for m in self.childhood.finditer(text):
            given = re.search(rf"({X}{{1,2}})[，,]$", text[max(0, m.start() - 3):m.start()])
            name = (self._recent_bearer(text, m.start(), given.group(1)[-1]) if given else None) or \
                self._bearer(text, m.start()) or self._born(text, m.start())
            if name is not None:
                found.append(Intro(name, m.group("alias"), "childhood", chapter, m.start(), m.end()))
        return found

    def _born(self, text: str, at: int) -> str | None:
        """甲生乙…乳名丙: a childhood name goes to the child whose birth the passage just told."""
        if self.birth is None:
            return None
        best = None
        for m in self.birth.finditer(text, max(0, at - LOOKBACK), at):
            after = text[m.end():m.end() + 3]
            best = next((after[:n] for n in (3, 2) if self.is_name(after[:n])), best)
        return best

    def _nicknames(self, chapter: int, text: str) -> list[Intro]:
        if self.nickname is None:
            return []
        found = []
        for m in self.nickname.finditer(text):
            alias = m.group("quoted") or m.groupdict().get("alias") or ""
            after = text[m.end():m.end() + 4]
            name = next((after[:n] for n in (4, 3, 2) if self.is_name(after[:n])), None)
            if m.group("quoted") is None and (name is not None or self.is_name(alias)):
                continue  # 称为甲乙: a plain form that is a name, or a name after it, is no nickname
            if name is None and m.group("quoted") and re.match(X, after):
                continue  # 「丙」 before a word that is no name we know
            name = name or self._bearer(text, m.start())
            if name is not None and name != alias:
                found.append(Intro(name, alias, "nickname", chapter, m.start(), m.end()))
        return found

    def _later_names(self, chapter: int, text: str, pattern: re.Pattern[str] | None,
                     kind: str) -> list[Intro]:
        """道号丙先生, 更名丙: a name the person takes, theirs by the passage (see `_topic`)."""
        if pattern is None:
            return []
        found = []
        for m in pattern.finditer(text):
            alias = m.group("alias")
            if kind != "new name" and self.is_name(alias):
                continue  # a sobriquet is no full name; a new name may be one (更名甲乙)
            name = self._bearer(text, m.start())
            if name is not None and name != alias:
                found.append(Intro(name, alias, kind, chapter, m.start(), m.end()))
        return found

    def _bearer(self, text: str, at: int) -> str | None:
        """Whom a name given at `at` belongs to: the last full name of the sentence, unless a
        pronoun stands between (then the passage's introduced topic; see the module's docstring)."""
        named = self._named_before(text, at, with_end=True)
        topic = self._topic(at)
        if named is None:
            return topic.name if topic else self._demonstrated(text, at)
        name, end = named
        if topic is not None and topic.end > end:
            return topic.name
        if self.pronouns is None or not self.pronouns.search(text, end, at):
            return name
        subject = topic.name if topic else self._sentence_subject(text, at)
        return subject if subject != name else None

    def _demonstrated(self, text: str, at: int) -> str | None:
        """此人…，人皆称为丙 with no name in the sentence: the person the sentence before named last."""
        start = max((s.end() for s in SENTENCE_END.finditer(text, max(0, at - MAX_QUOTE), at)),
                    default=0)
        if not any(text.startswith(d, start) for d in self.demonstratives) or start == 0:
            return None
        return self._named_before(text, start - 1)

    def _sentence_subject(self, text: str, at: int) -> str | None:
        """The full name that opens the sentence (这甲乙，…，那厮唤做丙: the sentence is about 甲乙)."""
        start = max((s.end() for s in SENTENCE_END.finditer(text, max(0, at - MAX_QUOTE), at)),
                    default=max(0, at - MAX_QUOTE))
        head = text[start:start + 6]
        for lo in range(0, 3):
            for size in (4, 3, 2):
                if self.is_person(head[lo:lo + size]):
                    return head[lo:lo + size]
        return None

    def _topic(self, at: int) -> Intro | None:
        """The 姓…名 introduction just before `at` (see `TOPIC_SPAN`)."""
        recent = [i for i in self._topics if i.start < at <= i.end + TOPIC_SPAN]
        return recent[-1] if recent else None

    @overload
    def _named_before(self, text: str, at: int) -> str | None: ...

    @overload
    def _named_before(self, text: str, at: int, with_end: Literal[True]) -> tuple[str, int] | None: ...

    def _named_before(self, text: str, at: int, with_end: bool = False) -> str | tuple[str, int] | None:
        """The last full name of the sentence before `at` (with where it ends)."""
        start = max((s.end() for s in SENTENCE_END.finditer(text, max(0, at - MAX_QUOTE), at)),
                    default=max(0, at - MAX_QUOTE))
        sentence = text[start:at]
        topics = {i.name for i in self._topics}
        for end in range(len(sentence), 1, -1):
            for size in (4, 3, 2):
                name = sentence[end - size:end] if end - size >= 0 else ""
                if name and (name in topics or self.is_person(name)):
                    return (name, start + end) if with_end else name
        return None


def _courtesy_names(name: str, m: re.Match[str], chapter: int) -> list[Intro]:
    found = []
    for group, kind in (("court", "courtesy"), ("later", "renamed")):
        alias = m.groupdict().get(group)
        if alias:
            found.append(Intro(name, alias, kind, chapter, m.start(), m.end()))
    return found


def sentence_around(text: str, start: int, end: int, limit: int = MAX_QUOTE) -> tuple[int, int]:
    """The sentence holding [start, end), cut to `limit` characters around it."""
    lo = max((s.end() for s in SENTENCE_END.finditer(text, max(0, start - limit), start)),
             default=max(0, start - limit))
    hi_match = SENTENCE_END.search(text, end, min(len(text), end + limit))
    hi = hi_match.start() + 1 if hi_match else min(len(text), end + limit)
    if hi - lo > limit:
        spare = max(0, limit - (end - start))
        lo = max(lo, start - spare // 2)
        hi = min(hi, max(end, lo + limit))
    return lo, hi
