"""An English question as items: the book's names found by their pinyin
(`kb.knowledge.pinyin_names`), then each word or phrase of the English file (longest first, an
inflected form by its base: killed → kill, wives → wife), numbers, the possessive 's, and the
words the file does not hold (kept, to say what was not read). `kb.answering.english` puts the
items in the order of the Chinese question."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from kb.knowledge.english_words import English
from kb.knowledge.pinyin_names import PinyinHit, PinyinIndex, usual_pinyin

_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|\d+|'s\b|[,;:]", re.UNICODE)
"""Words (hyphenated ones whole), numbers, the possessive 's, and the marks that end a clause."""
NP_PARTS = frozenset({"name", "place", "pronoun", "noun", "unit", "number", "numeral", "poss",
                      "genitive",
                      "prefix", "link", "chapter"})
"""Items a noun phrase is made of ('the wife of Jia Yi', 'Bing Ding's saber', 'Jia and Bing')."""
REGULAR = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
           ("ing", ""), ("ing", "e"))
"""Regular English endings and what replaces them for the base form, tried in order."""


@dataclass(frozen=True)
class Item:
    """One unit of the question: a part of speech (`kb.knowledge.english_words.Part`) or name,
    place, number, poss (the 's), comma, unknown; its Chinese; the English words it stands for."""

    part: str
    zh: str
    words: tuple[str, ...]
    past: bool = False
    """The word is a past form (killed, met): its act takes 了."""
    candidates: tuple[tuple[str, str], ...] = ()
    """A name's people (id, Chinese name), best first."""


def _fold(word: str) -> str:
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
    return plain.lower()


def tokens(question: str) -> list[str]:
    """The question's words as written (a hyphenated word split unless the file may hold it)."""
    return [t for t in _TOKEN.findall(question)]


def base_form(word: str, file: English) -> tuple[str, bool] | None:
    """The form of the word the file holds, and whether the word was a past form."""
    if file.lookup(word):
        return word, False
    if word in file.irregular:
        return file.irregular[word], True
    for end, replace in REGULAR:
        if word.endswith(end) and len(word) > len(end) + 1:
            stem = word[: -len(end)] + replace
            for candidate in (stem, stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""):
                if candidate and file.lookup(candidate):
                    return candidate, end == "ed" or end == "ied"
    return None


def read_items(question: str, file: English, index: PinyinIndex) -> list[Item]:
    """The items of the question, in its order (rules in the module docstring)."""
    raw = tokens(question)
    words: list[str] = []
    capital: list[bool] = []
    for token in raw:  # a hyphenated name (Jia-Yi) is its parts; father-in-law is one word
        parts = [token] if "-" not in token or file.lookup(_fold(token)) else token.split("-")
        words += [_fold(p) for p in parts]
        capital += [p[:1].isupper() for p in parts]
    lower = not any(capital[1:])
    known = [file.lookup(w) is not None or base_form(w, file) is not None for w in words]
    spelled = [_spelled(w, file) for w in words]
    hits = {h.start: h for h in index.find(words, known, [c or lower for c in capital], spelled)}
    items: list[Item] = []
    i = 0
    while i < len(words):
        hit = hits.get(i)
        if hit is not None:
            items.append(_name_item(hit, words))
            i = hit.end
            continue
        item, i = _word_item(words, i, file)
        items.append(item)
    return items


def _spelled(word: str, file: English) -> str:
    """A noun of one or two Chinese characters in pinyin (family → jia, marshal → taiwei), as a
    place name or a titled name writes it (Zhu Family Manor, Marshal Hong)."""
    found = file.lookup(word)
    if found is None or found[0] != "noun" or len(found[1]) > 2:
        return ""
    return "".join(usual_pinyin(found[1]))


def _name_item(hit: PinyinHit, words: Sequence[str]) -> Item:
    return Item("name" if hit.kind == "person" else "place", hit.candidates[0][1],
                tuple(words[hit.start:hit.end]),
                candidates=hit.candidates)


def _word_item(words: Sequence[str], i: int, file: English) -> tuple[Item, int]:
    """The longest phrase of the file starting at word i (or the word by its base form)."""
    word = words[i]
    first = base_form(word, file) if file.lookup(word) is None else None
    for j in range(min(len(words), i + file.longest), i + 1, -1):
        found = file.lookup(" ".join(words[i:j]))
        if found:
            return Item(found[0], found[1], tuple(words[i:j])), j
        if first is not None:  # a phrase by its first word's base form: passed away → pass away
            found = file.lookup(" ".join([first[0], *words[i + 1:j]]))
            if found:
                return Item(found[0], found[1], tuple(words[i:j]), past=first[1]), j
    if word in ",;:":
        return Item("comma", "", (word,)), i + 1
    if word == "'s":
        return Item("poss", "的", (word,)), i + 1
    if word.isdigit():
        return Item("number", word, (word,)), i + 1
    based = base_form(word, file)
    if based is not None:
        part, zh = file.lookup(based[0]) or ("unknown", "")
        return Item(part, zh, (word,), past=based[1]), i + 1
    return Item("unknown", "", (word,)), i + 1
