"""A question's own words: the question normalized for the rules (`asked_form`), its content words
once names, asking words and frame words are cut out (`focus_words`), and how many characters of
content it carries (`content_chars`). The words are the language's (`kb.knowledge.language`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from core.text import is_cjk, normalize
from kb.knowledge.language import language
from retrieval.analyzers import FUNCTION_CHARS

CLAUSE_MARKS = re.compile(r"[，。？！；：,.?!;:…—\s]+")
"""Where a question's clauses part: kept as a space, so that no word is read across them (搭了车，
那妇人 holds no 车那)."""


def asked_form(question: str) -> str:
    """The normalized question, its clauses parted by a space, with the old spellings of asking
    words folded (甚么 → 什么) and the colloquial ones (啥 → 什么)."""
    text = " ".join(part for part in map(normalize, CLAUSE_MARKS.split(question)) if part)
    lang = language()
    for old, new in lang.script_folds:
        text = text.replace(old, new)
    return fold_colloquial(text)


def fold_colloquial(text: str) -> str:
    """Colloquial asking words folded to the plain ones (啥 → 什么, 咋 → 怎么, 干嘛 → 为什么): a
    reader's 啥差事 asks 什么差事, and 啥 is never the question's content."""
    for old, new in language().colloquial_folds:
        text = text.replace(old, new)
    return text


def has_any(text: str, words: Iterable[str]) -> bool:
    return any(w in text for w in words)


def strip_words(text: str, words: Iterable[str]) -> str:
    """Longest words first; among words of one length, in a fixed order (a set's order changes
    from one process to the next, and 什么人 before 是什么 cuts 是什么人 differently)."""
    for word in sorted({w for w in words if w}, key=lambda w: (-len(w), w)):
        text = text.replace(word, " ")
    return text


def not_content() -> tuple[str, ...]:
    """Words that are never a question's content: frame, journey, moment, asking and follow-up
    words."""
    lang = language()
    return (*lang.words_of("frame"), *lang.words_of("journey"), *lang.words_of("end"),
            *lang.words_of("start"), *lang.words_of("asking"), *lang.words_of("follow_up"))


def focus_words(question: str, names: Iterable[str]) -> tuple[str, ...]:
    """The question's content words: runs of characters left once names, asking words, frame,
    journey and moment words and function characters are cut out."""
    lang = language()
    text = strip_words(asked_form(question), [normalize(n) for n in names])
    cut = not_content()
    text = strip_words(text, [w for w in cut if len(w) >= 2])
    text = lang.patterns.lone_de.sub(r"\1\2", text)  # 在哪里打的虎: 打虎, not two lone characters
    text = strip_words(text, [w for w in cut if len(w) < 2])
    breaks = lang.chars.focus_breaks
    text = "".join(ch if is_cjk(ch) and ch not in FUNCTION_CHARS and ch not in breaks
                   else " " for ch in text)
    units = lang.chars.units
    return tuple(dict.fromkeys(w for w in text.split() if len(w) >= 2 or w in units))


def content_chars(cleaned: str, names: Sequence[str], words: Sequence[str] = (),
                  ignore: str = "") -> int:
    """Characters of the question's own content: names, journey, follow-up, frame and function
    words, the given `words` and the `ignore` characters (the novel's most frequent places) taken
    out."""
    lang = language()
    text = normalize(cleaned)
    cut = [*map(normalize, names), *lang.words_of("journey"), *lang.words_of("follow_up"),
           *lang.words_of("frame"), *words]
    for word in sorted(cut, key=len, reverse=True):
        text = text.replace(word, "")
    return sum(1 for ch in text if ch not in FUNCTION_CHARS and ch not in ignore)
