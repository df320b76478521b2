"""The book's names by their pinyin: an English question writes 甲乙 as "Jia Yi", "JiaYi",
"jia yi" or "Jia-Yi", tone-less and surname first. Built once per loaded bundle, like the
`PeopleIndex`, from every person's name and aliases (and every prefix of the places its events
name: "Liangshan" is the 梁山 of 梁山泊), with pypinyin.

A key is the name's syllables run together ("jiayi"); the words of a question match it when
their letters run together to it and every word ends where a syllable ends ("jia yi", not
"ji ayi"). The longest match wins; several people of one pinyin (甲清 and 甲青) are all kept as
candidates, the better known first (a curated record, then more scenes, then a name over an
alias), as the Chinese index keeps people of one name. A surname is also read by its surname
reading (解 xie, 单 shan: `surname_readings` of en.json) and ü as u or v."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import Literal

from core.text import is_cjk, normalize
from kb.knowledge.models import Event, Person
from kb.knowledge.surnames import surnames

MAX_NAME_WORDS = 5
"""The most words one name is written in (a given name of two syllables written apart, a double surname)."""
DISPLAY_CACHE = 8192
MAX_NAME_CHARS = 4
"""A Chinese personal name has two to four characters; a longer one is a title or a description,
shown in an English answer as the book writes it."""
HitKind = Literal["person", "place"]


def _readings(char: str) -> list[str]:
    """Every tone-less reading of a character, the first the usual one (ü written v)."""
    from pypinyin import Style, pinyin  # a large dictionary: read only when English is asked

    return [r for r in pinyin(char, style=Style.NORMAL, heteronym=True)[0] if r.isascii()] or []


def usual_pinyin(text: str) -> list[str]:
    """The usual reading of each character of a text (words read as words: 重庆 chong qing)."""
    from pypinyin import Style, lazy_pinyin

    return [s for s in lazy_pinyin(text, style=Style.NORMAL, errors="ignore") if s.isascii()]


def syllable_forms(name: str, surname_readings: dict[str, str]) -> list[tuple[str, ...]]:
    """The ways a name is written in pinyin syllables: the usual reading, the surname read as a
    surname (and by each of its readings), and ü as u where pypinyin writes v."""
    usual = usual_pinyin(name)
    if len(usual) != len(name):
        return []
    forms = [tuple(usual)]
    surname = surnames().of(name)
    if surname and len(surname) == 1:
        readings = dict.fromkeys([surname_readings.get(surname, usual[0]), *_readings(surname)])
        forms += [(r, *usual[1:]) for r in readings if r != usual[0]]
    folded = [tuple(s.replace("v", "u") for s in f) for f in forms if any("v" in s for s in f)]
    return list(dict.fromkeys(forms + folded))


def display_name(name: str, surname_readings: dict[str, str] | None = None) -> str:
    """The name in pinyin as an English text writes it: surname and given name, each capitalized
    (甲乙 → Jia Yi, a double surname as one word: Ouyang Jia, 吕 → Lü); a name not all CJK as it is."""
    return _display(name, tuple(sorted((surname_readings or {}).items())))


@lru_cache(maxsize=DISPLAY_CACHE)
def _display(name: str, readings: tuple[tuple[str, str], ...]) -> str:
    simplified = normalize(name)
    if not simplified or not all(is_cjk(ch) for ch in simplified):
        return name
    syllables = [s.replace("v", "ü") for s in usual_pinyin(simplified)]
    surname = surnames().of(simplified) or ""
    if len(surname) == 1 and surname in dict(readings):
        syllables[0] = dict(readings)[surname]
    cut = len(surname) if surname and len(simplified) > len(surname) else len(simplified)
    parts = ["".join(syllables[:cut]), "".join(syllables[cut:])]
    return " ".join(p.capitalize() for p in parts if p)


def folded_words(text: str) -> list[str]:
    """The question's words as keys are written: lower case, tone marks and ü's dots dropped."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text)
                    if not unicodedata.combining(ch))
    return [w for w in "".join(ch.lower() if ch.isascii() and ch.isalpha() else " "
                               for ch in plain).split()]


@dataclass(frozen=True)
class PinyinHit:
    """Words [start, end) of a question that write a name: its candidates, best first, each a
    (person id or "", the Chinese name) — a place has no id."""

    start: int
    end: int
    kind: HitKind
    candidates: tuple[tuple[str, str], ...]


@dataclass
class _Key:
    cuts: set[frozenset[int]] = field(default_factory=set)
    """The syllable ends of each way the key is written (xian: xian or xi-an)."""
    people: dict[str, tuple[tuple[int, int, int], str]] = field(default_factory=dict)
    places: Counter[str] = field(default_factory=Counter)


@dataclass
class PinyinIndex:
    """Pinyin keys → the people (and places) they write (rules in the module docstring)."""

    keys: dict[str, _Key] = field(default_factory=dict)

    @classmethod
    def build(cls, people: Iterable[Person], events: Iterable[Event],
              surname_readings: dict[str, str]) -> PinyinIndex:
        index = cls()
        scenes = Counter(p.person for e in events for p in e.participants)
        places = Counter(normalize(e.place) for e in events if e.place)
        for person in people:
            for rank, name in enumerate(person.all_names):
                rank_key = (person.origin != "curated", -scenes[person.id], min(rank, 1))
                for form in syllable_forms(normalize(name), surname_readings):
                    key = index._key(form)
                    old = key.people.get(person.id)
                    if old is None or rank_key < old[0]:
                        key.people[person.id] = (rank_key, normalize(person.name))
        for place, count in places.items():
            usual = usual_pinyin(place)
            if len(usual) != len(place):
                continue
            for end in range(2, len(place) + 1):
                index._key(usual[:end]).places[place[:end]] += count
        return index

    def _key(self, form: Sequence[str]) -> _Key:
        key = self.keys.setdefault("".join(form), _Key())
        key.cuts.add(frozenset(accumulate(len(s) for s in form)))
        return key

    def find(self, words: Sequence[str], known: Sequence[bool], capital: Sequence[bool],
             spelled: Sequence[str] = ()) -> list[PinyinHit]:
        """The names the words write, longest first, in question order. `known`: a word of the
        English file (a name is not all such words: "he", "women"); `capital`: the word was
        capitalized (a place is found only so); `spelled`: a known word's Chinese in pinyin, tried
        in its place ("Zhu Family Manor": zhu jia zhuang)."""
        hits: list[PinyinHit] = []
        i = 0
        while i < len(words):
            hit = self._longest_at(words, known, capital, i, spelled)
            if hit is None:
                i += 1
                continue
            hits.append(hit)
            i = hit.end
        return hits

    def _longest_at(self, words: Sequence[str], known: Sequence[bool], capital: Sequence[bool],
                    i: int, spelled: Sequence[str]) -> PinyinHit | None:
        for j in range(min(len(words), i + MAX_NAME_WORDS), i, -1):
            if all(known[i:j]):
                continue
            for written in _spellings(words, known, spelled, i, j):
                key = self.keys.get("".join(written))
                cuts = frozenset(accumulate(len(w) for w in written))
                if key is not None and any(cuts <= c for c in key.cuts):
                    break
            else:
                continue
            if key.people:
                ranked = sorted(key.people.items(), key=lambda kv: kv[1][0])
                return PinyinHit(i, j, "person", tuple((pid, name) for pid, (_, name) in ranked))
            if key.places and capital[i]:
                ranked_places = [p for p, _ in key.places.most_common()]
                return PinyinHit(i, j, "place", tuple(("", p) for p in ranked_places))
        return None


def _spellings(words: Sequence[str], known: Sequence[bool], spelled: Sequence[str], i: int, j: int
               ) -> list[list[str]]:
    """The words i..j as written, then with each known word's Chinese in pinyin in its place."""
    written = list(words[i:j])
    swapped = [spelled[k] if k < len(spelled) and known[k] and spelled[k] else words[k]
               for k in range(i, j)]
    found = [written] if swapped == written else [written, swapped]
    if j - i == 2 and swapped[0] != written[0] and swapped[1] == written[1]:
        found.append([swapped[1], swapped[0]])  # Marshal Jia: the title after the surname (甲太尉)
    return found


@lru_cache(maxsize=DISPLAY_CACHE)
def english_name(name: str) -> str:
    """A name as an English answer writes it: "Jia Yi (甲乙)" (the pinyin, then the name)."""
    from kb.knowledge.english_words import english
    from kb.knowledge.language import language

    if len(name) > MAX_NAME_CHARS or any(ch in language().chars.name_joints for ch in name):
        return name  # 甲的老婆, 某县知县: a description or a title, not a name to spell
    shown = display_name(name, english().surname_readings)
    return name if shown == name else f"{shown} ({name})"
