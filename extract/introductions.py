"""Introductions: the sentences where the text itself gives a person's names.

Chinese fiction introduces a person by formula: 姓甲名乙，字丙 (复姓 for a double surname), 甲乙字丙,
名乙，字丙 (the surname said before), 小字丙, 号丙, 绰号「丙」 / 唤做『丙』甲乙. Each formula gives the
full name and the other names with the sentence that ties them: that sentence is the alias's
evidence. The words of the formulas are the genre's (`PeopleWords`), never a book's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kb.knowledge.genre import PeopleWords

X = r"[\u3400-\u9fff]"
BOUNDARY = r"(?=[，。；,、：！？”」』\s]|$)"
COURT_END = r"(?=[，。；,、：！？”」』\s者也乃]|$)"
"""After a courtesy name: a break, or 者 / 也 / 乃 (字丙者也)."""
OPEN, CLOSE = "「『“", "」』”"
SENTENCE_END = re.compile(r"[。！？!?\n]")
MAX_QUOTE = 80
LOOKBACK = 240
"""How far before 名乙，字丙 the surname's bearer may have been named (the same passage)."""


@dataclass(frozen=True)
class Intro:
    """A name a formula gives: `alias` of `name` (None: only the given name is known, `given`),
    of `kind` courtesy / renamed / childhood / styled / nickname / name, at [start, end)."""

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
    is a full name of the book (the statistics' candidates)."""

    def __init__(self, words: PeopleWords, is_name: Callable[[str], bool]) -> None:
        self.is_name = is_name
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
        self.nickname = re.compile(
            rf"{nick}[{OPEN}](?P<alias>{X}{{2,5}})[{CLOSE}]") if words.intro_nickname else None

    def read(self, chapter: int, text: str) -> list[Intro]:
        found = self._full(chapter, text)
        taken = {(i.start, i.alias) for i in found}
        found += [i for i in self._courtesy(chapter, text) if (i.start, i.alias) not in taken]
        found += self._childhood(chapter, text) + self._nicknames(chapter, text)
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
                name = self._recent_bearer(text, m.start(), given.group("given")) if given else None
            if name is not None:
                found += _courtesy_names(name, m, chapter)
        return found

    def _name_ending(self, before: str) -> str | None:
        """The longest full name that ends right before 字 (甲乙字丙)."""
        for size in (4, 3, 2):
            if len(before) >= size and self.is_name(before[-size:]):
                return before[-size:]
        return None

    def _recent_bearer(self, text: str, at: int, given: str) -> str | None:
        """名乙，字丙 after the surname was said: the full name ending in 乙 named last before it."""
        window = text[max(0, at - LOOKBACK):at]
        best: tuple[int, str] | None = None
        for size in (2, 3):
            for m in re.finditer(re.escape(given), window):
                start = m.end() - size
                candidate = window[start:m.end()] if start >= 0 else ""
                if len(candidate) == size and candidate != given and self.is_name(candidate) and (
                        best is None or m.start() > best[0]):
                    best = (m.start(), candidate)
        return best[1] if best else self._family_bearer(window, given)

    def _family_bearer(self, window: str, given: str) -> str | None:
        """长子名乙 after the father was named: his surname + the given name, when that is a name."""
        for end in range(len(window), 1, -1):
            for size in (3, 2):
                named = window[end - size:end] if end >= size else ""
                for surname in (named[:2], named[:1]):
                    if named and self.is_name(named) and self.is_name(surname + given):
                        return surname + given
        return None

    def _childhood(self, chapter: int, text: str) -> list[Intro]:
        if self.childhood is None:
            return []
        found = []
        for m in self.childhood.finditer(text):
            given = re.search(rf"({X}{{1,2}})[，,]$", text[max(0, m.start() - 3):m.start()])
            name = (self._recent_bearer(text, m.start(), given.group(1)[-1]) if given else None) or \
                self._named_before(text, m.start())
            if name is not None:
                found.append(Intro(name, m.group("alias"), "childhood", chapter, m.start(), m.end()))
        return found

    def _nicknames(self, chapter: int, text: str) -> list[Intro]:
        if self.nickname is None:
            return []
        found = []
        for m in self.nickname.finditer(text):
            after = text[m.end():m.end() + 4]
            name = next((after[:n] for n in (4, 3, 2) if self.is_name(after[:n])), None) or \
                self._named_before(text, m.start())
            if name is not None:
                found.append(Intro(name, m.group("alias"), "nickname", chapter, m.start(), m.end()))
        return found

    def _named_before(self, text: str, at: int) -> str | None:
        """The last full name of the sentence before `at`."""
        start = max((s.end() for s in SENTENCE_END.finditer(text, max(0, at - MAX_QUOTE), at)),
                    default=max(0, at - MAX_QUOTE))
        sentence = text[start:at]
        for end in range(len(sentence), 1, -1):
            for size in (4, 3, 2):
                if end - size >= 0 and self.is_name(sentence[end - size:end]):
                    return sentence[end - size:end]
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
