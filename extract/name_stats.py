"""Full personal names found by statistics over the whole text: surname-initial strings that speak
and act (甲道, 甲大怒), are not generic nouns (那和尚), and stand whole (their neighbours vary).

Signals, all of Chinese fiction in general: a surname of the language data starts the string; the
genre's speaker cues follow it; the genre's determiners rarely precede it (a name takes no 那 or
一个); its left and right neighbours are diverse (boundary statistics: the tail of a
double-surname name is always preceded by its first character, a surname and half a courtesy
name always followed by the other half, so neither is a whole name); the segmenter's dictionary does not
know it as a common word (jieba's non-`nr` entries), or knows it as a name (`nr`), which also
stands for the speaker cues of a rarely speaking person.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from core.text import CJK_CLASS
from kb.knowledge.genre import PeopleWords
from kb.knowledge.surnames import Surnames
from retrieval.analyzers import FUNCTION_CHARS

MIN_COUNT = 4
"""Occurrences below this say nothing a statistic can read."""
MIN_SPOKEN = 2
UNKNOWN_OFTEN = 8
"""A surname and a given name the dictionary knows as no word at all, written this often, is a name
even when it never speaks (a eunuch listed with others, a general who only fights): the
neighbour and opening checks still apply."""
SPEAKS_OFTEN = 5
"""A dictionary proper noun (`nz`) or a rare noun that speaks this often is a person's name all
the same."""
RARE_NOUN_FREQ = 100
ABSORBED = 0.7
"""A string whose one neighbour accompanies it this often is part of a longer unit."""
GENERIC_SHARE = 0.2
"""A string preceded by a determiner this often is a generic noun (那和尚, 一个庄客)."""
COMMON_WORD_FREQ = 30
"""A dictionary word of this frequency with a tag other than a name's is a word, not a name."""
SHORTER_DOMINATES = 3
MIN_LISTED, LISTED_SHARE = 2, 0.1
"""A string enumerated beside accepted names (甲乙、丙丁) this often, and in this share of its
uses, is one of them: a list of people, where the dictionary (a place name, a rare noun) or a
silent person says nothing. A dictionary word needs twice as many (a place listed by a slip)."""
LIST_MARK = "、"
OPENING = 0.2
"""A name opens clauses or speaks: (share after punctuation) + 2 × (share before a speaker cue)
reaches this, where a phrase (a surname character + a verb or a noun) sits inside clauses after a verb."""
OFTEN, NEVER_OPENS = 20, 0.03
"""A string written this often that opens a clause in less than this share of its uses is no
name: a person of many scenes is the subject of some of them."""
MIN_TITLED = 2
"""A candidate written right after an office title (太守甲乙, 中郎甲乙: how historical fiction
introduces an official who neither speaks nor is listed) this often is a name: the statistics'
silent people, where the dictionary or a function character (焉, 之) leaves it unproven."""
NAME_SIZES = (2, 3)
SCENE = 300
"""乙曰 is said of the full name 甲乙 written at most this many characters before it."""
CJK = re.compile(f"[{CJK_CLASS}]+")
CJK_CHAR = re.compile(f"[{CJK_CLASS}]")


@lru_cache(maxsize=1)
def _dictionary() -> tuple[dict[str, int], dict[str, str]]:
    """jieba's word frequencies and tags (its bundled dictionary; read once, ≈1 s)."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba.dt.FREQ, jieba.posseg.dt.word_tag_tab


def segment(text: str) -> list[str]:
    """The segmenter's words of a short text (jieba, its bundled dictionary and HMM)."""
    import jieba

    _dictionary()
    return list(jieba.cut(text))


def dictionary_tag(word: str) -> tuple[int, str | None]:
    freq, tags = _dictionary()
    return freq.get(word, 0) or 0, tags.get(word)


def is_common_word(word: str) -> bool:
    """A word of the language the dictionary does not tag as a name (左右, 丞相)."""
    freq, tag = dictionary_tag(word)
    return tag is not None and not tag.startswith("nr") and freq >= COMMON_WORD_FREQ


def is_word(s: str, surname: str) -> bool:
    """A common word, or one with a character after it (a common word + 上): not a name."""
    return is_common_word(s) or (len(s) == 3 and len(surname) == 1 and is_common_word(s[:2]))


def is_proper_noun(word: str) -> bool:
    """The dictionary's other proper nouns (`nz`): a name the text may use for a person."""
    return dictionary_tag(word)[1] == "nz"


def _may_be_name(word: str) -> bool:
    """A dictionary word a person may be named by: a proper noun (`nz`), or a rare noun or
    place name (`n`, `ns` under `RARE_NOUN_FREQ`: the dictionary knows famous people as nouns,
    孔融 of 孔融让梨, and a person may share a town's name); a frequent noun (计议, 高声 before 道)
    is a word of the language."""
    freq, tag = dictionary_tag(word)
    return tag == "nz" or (tag in ("n", "ns") and freq < RARE_NOUN_FREQ)


def generic_start(s: str, words: PeopleWords) -> bool:
    """和尚道, 老者曰: a generic speaker starts the string, whatever the dictionary says of it."""
    return any(s.startswith(g) for g in words.generic_speakers)


def is_dictionary_name(word: str) -> bool:
    return (dictionary_tag(word)[1] or "").startswith("nr")


@dataclass
class TextStats:
    """Counts over the whole book of every surname-initial string of a name's length."""

    texts: Sequence[str]
    count: Counter[str] = field(default_factory=Counter)
    spoken: Counter[str] = field(default_factory=Counter)
    after_determiner: Counter[str] = field(default_factory=Counter)
    left: dict[str, Counter[str]] = field(default_factory=dict)
    right: dict[str, Counter[str]] = field(default_factory=dict)
    titled: Counter[str] = field(default_factory=Counter)
    """how often a string stands right after an office title (`count_titled`)"""
    opening_speakers: list[dict[str, list[int]]] = field(default_factory=list)
    """per text: a character that opens a clause and speaks (。乙曰) → where it stands"""
    _surnamed: dict[tuple[int, str], list[tuple[int, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, texts: Sequence[str], surnames: Surnames, words: PeopleWords) -> TextStats:
        stats = cls(texts)
        cues = "|".join(map(re.escape, sorted(words.speaker_cues, key=len, reverse=True)))
        opening = re.compile(rf"(?<![{CJK_CLASS}])([{CJK_CLASS}])(?={cues})")
        determiners = frozenset(words.determiners)
        for text in texts:
            stats._scan(text, surnames, re.compile(cues), determiners)
            at: dict[str, list[int]] = {}
            for m in opening.finditer(text):
                at.setdefault(m.group(1), []).append(m.start())
            stats.opening_speakers.append(at)
        return stats

    def given_spoken(self, name: str, surnames: Surnames) -> int:
        """How often the one-character given name of `name` (甲乙 → 乙) opens a clause and speaks
        (乙曰: how historical fiction has 甲乙 speak once named) where the full name ending in 乙
        written last before it, within `SCENE` characters, is `name` (乙曰 after 丙乙 is 丙乙's,
        not the phrase 时乙's)."""
        surname = surnames.of(name)
        if surname is None or len(name) - len(surname) != 1:
            return 0
        given, n = name[-1], 0
        for index, (text, speakers) in enumerate(zip(self.texts, self.opening_speakers, strict=True)):
            places = speakers.get(given)
            if not places or name not in text:
                continue
            named = self._surname_before(index, given, surnames)
            for place in places:
                last = next(((at, full) for at, full in reversed(named) if at < place), None)
                n += last is not None and last[1] == name and place - last[0] <= SCENE
        return n

    def _surname_before(self, index: int, given: str, surnames: Surnames) -> list[tuple[int, str]]:
        """Where text `index` writes a surname + `given` (丙乙), in order; kept for the other names
        of that given character."""
        key = (index, given)
        found = self._surnamed.get(key)
        if found is None:
            text = self.texts[index]
            found = self._surnamed[key] = [
                (m.start() - 1, text[m.start() - 1:m.end()]) for m in re.finditer(re.escape(given), text)
                if m.start() > 0 and text[m.start() - 1] in surnames.single]
        return found

    def _scan(self, text: str, surnames: Surnames, cues: re.Pattern[str],
              determiners: frozenset[str]) -> None:
        count, spoken, after = self.count, self.spoken, self.after_determiner
        for run in CJK.finditer(text):
            lo, hi = run.span()
            for at in range(lo, hi - 1):
                first = text[at]
                double = text[at:at + 2] in surnames.double
                if not double and first not in surnames.single:
                    continue
                shortest = 3 if double else 2
                for size in range(shortest, shortest + 2):
                    end = at + size
                    if end > hi:
                        break
                    s = text[at:end]
                    count[s] += 1
                    if cues.match(text, end):
                        spoken[s] += 1
                    if at > 0 and text[at - 1] in determiners:
                        after[s] += 1

    def count_titled(self, names: Collection[str], titles: Collection[str],
                     ruler_marks: Collection[str] = ()) -> None:
        """How often each of the strings follows one of the titles, or a state's character and a
        ruler's mark (甲主), in one scan of each text."""
        if not names or not titles:
            return
        heads = "|".join([*map(re.escape, sorted(titles, key=len, reverse=True)),
                          *(f"[{CJK_CLASS}]{re.escape(m)}" for m in ruler_marks)])
        forms = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
        pattern = re.compile(f"(?:{heads})(?=({forms}))")
        for text in self.texts:
            for m in pattern.finditer(text):
                self.titled[m.group(1)] += 1

    def neighbours(self, names: Sequence[str]) -> None:
        """Left and right neighbour counts of the given strings (one scan each, in C)."""
        for name in names:
            left, right = Counter[str](), Counter[str]()
            pattern = re.compile(re.escape(name))
            for text in self.texts:
                for m in pattern.finditer(text):
                    left[text[m.start() - 1] if m.start() else "^"] += 1
                    right[text[m.end()] if m.end() < len(text) else "$"] += 1
            self.left[name], self.right[name] = left, right


def absorbed(neighbours: Counter[str], total: int) -> bool:
    if not neighbours or total < MIN_COUNT:
        return False
    char, n = neighbours.most_common(1)[0]
    return bool(CJK.fullmatch(char)) and n >= ABSORBED * total


def full_names(stats: TextStats, surnames: Surnames, words: PeopleWords,
               protected: frozenset[str] = frozenset()) -> dict[str, int]:
    """Strings that are people's full names, with their counts. `protected`: names an
    introduction gave (they skip the statistics but still need a count)."""
    generic = frozenset(words.generic_speakers)
    tails = frozenset(words.titles) | frozenset(words.kinship_forms)
    first: dict[str, int] = {}
    pending: dict[str, int] = {}
    """candidates the dictionary or silence leaves unproven: a list of people may prove them"""
    for s, n in stats.count.items():
        if n < MIN_COUNT or s in generic:
            continue
        surname = surnames.of(s)
        if surname is None or s == surname or s[len(surname):] in tails or s[-1:] in tails:
            continue
        if stats.after_determiner[s] > GENERIC_SHARE * n or generic_start(s, words):
            continue
        stats.spoken[s] += stats.given_spoken(s, surnames)  # spoken by the given name alone
        if is_word(s, surname) and not (_may_be_name(s) and stats.spoken[s] >= SPEAKS_OFTEN):
            pending[s] = n
        elif stats.spoken[s] >= MIN_SPOKEN or is_dictionary_name(s) or (
                n >= UNKNOWN_OFTEN and _plain_name(s, surname, words)):
            first[s] = n
        else:
            pending[s] = n
    first.update((s, pending[s]) for s, listed in listed_beside(stats.texts, first, pending).items()
                 if _listed_enough(s, listed, pending[s]))
    stats.count_titled([*first, *pending], office_titles(words), words.ruler_marks)
    first.update((s, n) for s, n in pending.items()
                 if stats.titled[s] >= MIN_TITLED and _titled_name(s, surnames.of(s) or "", words))
    first = {s: n for s, n in first.items() if not _holds_cue(s, words)}
    stats.neighbours(sorted(first))
    kept = {s: n for s, n in first.items()
            if not (absorbed(stats.left[s], n) and not _titled_whole(s, n, stats, surnames, words))
            and not absorbed(stats.right[s], n) and opens(stats, s, n)}
    kept = {s: n for s, n in kept.items() if not _part_of_shorter(s, n, kept)}
    for name in protected:
        kept[name] = max(stats.count[name], 1)
    return kept


def _plain_name(s: str, surname: str, words: PeopleWords) -> bool:
    """A surname and one character the dictionary knows as no word: the surname is no word of
    grammar on its own (于, 何, 从, 都: 于中, 何也 are phrases), the given name is no function
    character, verb or adverb (方出, 马不), and no group noun (吴军, 魏兵)."""
    given = s[len(surname):]
    if len(given) != 1 or dictionary_tag(s)[1] is not None or given in words.group_nouns:
        return False
    surname_tag, given_tag = dictionary_tag(surname)[1] or "", dictionary_tag(given)[1] or ""
    return not surname_tag.startswith(GRAMMAR_TAGS) and given not in FUNCTION_CHARS \
        and not given_tag.startswith(("v", "d", "p", "u", "r", "c"))


def listed_beside(texts: Sequence[str], names: Collection[str],
                  candidates: Collection[str]) -> Counter[str]:
    """How often each candidate is enumerated right beside one of the names (甲乙、丙丁 or
    丙丁、甲乙): the items of a list are of one kind, so a list of people proves a name."""
    listed: Counter[str] = Counter()
    for text in texts:
        at = text.find(LIST_MARK)
        while at >= 0:
            before = [text[at - k:at] for k in NAME_SIZES if at >= k]
            after = [text[at + 1:at + 1 + k] for k in NAME_SIZES]
            for a in before:
                for b in after:
                    if a in names and b in candidates:
                        listed[b] += 1
                    elif b in names and a in candidates:
                        listed[a] += 1
            at = text.find(LIST_MARK, at + 1)
    return listed


def _listed_enough(s: str, listed: int, n: int) -> bool:
    """Listed beside people often enough to be one (see `MIN_LISTED`); never a frequent
    dictionary word of a tag other than a noun's (a verb, an adverb)."""
    freq, tag = dictionary_tag(s)
    if tag is not None and freq >= COMMON_WORD_FREQ:
        if not tag.startswith("n"):
            return False
        return listed >= 2 * MIN_LISTED and listed >= LISTED_SHARE * n
    return listed >= MIN_LISTED and listed >= LISTED_SHARE * n


def office_titles(words: PeopleWords) -> list[str]:
    """The titles that stand before a name (太守, 将军, 国主): the genre's titles of two
    characters or more (one character, 郎 or 公, ends too many words) and its leaders' titles."""
    return [t for t in (*words.titles, *words.leader_titles_before) if len(t) >= 2]


GRAMMAR_TAGS = ("p", "d", "r", "f", "m", "v", "a", "c", "u")
"""Dictionary tags of words of grammar and of verbs and adjectives: a surname character that is one
(何, 都, 相, 闻, 高) after a title opens a phrase (将军何往, 相公都到), not a name."""
GIVEN_GRAMMAR_TAGS = ("p", "d", "r", "f", "c", "u")


def _titled_name(s: str, surname: str, words: PeopleWords) -> bool:
    """A string after an office title that may be a name: no frequent dictionary word, as a whole or
    as its given name (甲武师), no surname that is a word of grammar, no given character that is a
    preposition, adverb, pronoun, locative, conjunction or particle (师自, 庄上住)."""
    given = s[len(surname):]
    if not surname or not given or given in words.group_nouns:
        return False
    if any(_frequent(w) for w in (s, given) if len(w) >= 2):
        return False
    if (dictionary_tag(surname)[1] or "").startswith(GRAMMAR_TAGS):
        return False
    return not any((dictionary_tag(c)[1] or "").startswith(GIVEN_GRAMMAR_TAGS) for c in given)


def _titled_whole(s: str, n: int, stats: TextStats, surnames: Surnames, words: PeopleWords) -> bool:
    """The one neighbour before it is a title's end (甲主乙丙 in most of its uses): the name
    stands whole after the title, not inside a longer unit."""
    return stats.titled[s] >= ABSORBED * n and _titled_name(s, surnames.of(s) or "", words)


def _frequent(word: str) -> bool:
    freq, tag = dictionary_tag(word)
    return tag is not None and freq >= COMMON_WORD_FREQ


def _holds_cue(s: str, words: PeopleWords) -> bool:
    """甲大喜, 闻之: a speaker cue inside the string (a one-character cue only at its end)."""
    return any((cue in s) if len(cue) > 1 else s.endswith(cue) for cue in words.speaker_cues
               if cue not in words.name_characters)


def opens(stats: TextStats, s: str, n: int) -> bool:
    left = stats.left[s]
    total = sum(left.values()) or 1
    after_break = (sum(v for c, v in left.items() if not CJK_CHAR.match(c))
                   + stats.titled[s]) / total  # 太守甲乙 opens its phrase as 。甲乙 does
    if n >= OFTEN and after_break < NEVER_OPENS:
        return False  # 拜于地曰, 伏于地: a phrase after its verb, whatever follows it
    return after_break + 2 * stats.spoken[s] / n >= OPENING


def _part_of_shorter(s: str, n: int, kept: dict[str, int]) -> bool:
    """甲乙道 beside a far more frequent 甲乙: the longer string is the name and a word."""
    if len(s) < 3:
        return False
    return any(kept.get(part, 0) >= SHORTER_DOMINATES * n for part in (s[:-1], s[1:]))
