"""Names no surname of the list starts (a foreign king's, a chieftain's): strings the text writes
right after a leader's title (国主乙丙，番王乙丙) or right before one (乙丙元帅, 乙丙洞主), that
also stand whole on their own.

Such a name seldom speaks and has no surname to start a statistic from (`extract.name_stats`), but
the genre names these people by their rank, and the rank is written beside the name. A string
beside a title is a candidate; it is a name when it passes what a name passes in the language:

- it is written `MIN_USES` times in the book, and at least `MIN_BREAKS` times at a clause's edge;
- its neighbours vary on both sides (a piece of a longer word is always beside the same character);
- the segmenter reads it as one word or as nouns only (a verb phrase, 伏望 or 去了, is neither),
  and the dictionary does not know it as a frequent word (大将军, 士卒);
- it starts with no function character or numeral (三洞元帅 is the third cave's), and it is no
  one's form yet, nor part of one (that person is found already).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence

from core.text import CJK_CLASS
from extract.name_stats import COMMON_WORD_FREQ, TextStats, absorbed, dictionary_tag
from kb.knowledge.genre import PeopleWords
from retrieval.analyzers import FUNCTION_CHARS

SIZES = (2, 3, 4)
MIN_USES = 4
MIN_BREAKS = 2
GRAMMAR_TAGS = ("v", "d", "p", "c", "u", "r", "m", "t", "l", "f", "q")
"""The segmenter's tags of verbs, adverbs, prepositions, conjunctions, particles, pronouns,
numerals, times, idioms, directions and measures: a string read with one is a phrase."""
CJK = f"[{CJK_CLASS}]"


def titled_names(texts: Sequence[str], words: PeopleWords, numerals: Collection[str],
                 taken: Collection[str]) -> dict[str, int]:
    """The names beside a leader's title (see the module), with their uses in the book."""
    joined = "\n".join(texts)
    beside = _beside_titles(joined, words)
    barred = FUNCTION_CHARS | frozenset(numerals) | frozenset(words.determiners)
    candidates = [s for s in beside if s[0] not in barred and joined.count(s) >= MIN_USES
                  and not any(s in form or form in s for form in taken)]
    stats = TextStats(texts)
    stats.neighbours(candidates)
    found: dict[str, int] = {}
    for s in candidates:
        left, right = stats.left[s], stats.right[s]
        uses = sum(left.values())
        breaks = sum(n for c, n in (*left.items(), *right.items()) if not re.match(CJK, c))
        if absorbed(left, uses) or absorbed(right, uses) or breaks < MIN_BREAKS:
            continue
        if dictionary_tag(s)[0] >= COMMON_WORD_FREQ or not _read_as_name(s):
            continue
        found[s] = uses
    return {s: n for s, n in found.items() if not any(s != t and s in t for t in found)}


def _beside_titles(text: str, words: PeopleWords) -> Counter[str]:
    """Every string of a name's size right after a leader's title and ending a clause or before
    a speaker's cue, or right before a title."""
    cues = "|".join(map(re.escape, sorted(words.speaker_cues, key=len, reverse=True)))
    end = f"(?:[^{CJK_CLASS}]|{cues})" if cues else f"[^{CJK_CLASS}]"
    found: Counter[str] = Counter()
    for size in SIZES:
        for title in words.leader_titles_before:
            for m in re.finditer(f"(?={re.escape(title)}({CJK}{{{size}}}){end})", text):
                found[m.group(1)] += 1
        for title in words.leader_titles_after:
            for m in re.finditer(f"(?=({CJK}{{{size}}}){re.escape(title)})", text):
                found[m.group(1)] += 1
    return found


def _read_as_name(s: str) -> bool:
    """The segmenter cuts the string as one word of no grammatical tag, or as nouns only."""
    import jieba.posseg

    tokens = [(w.word, w.flag) for w in jieba.posseg.cut(s)]
    if len(tokens) == 1:
        return not tokens[0][1].startswith(GRAMMAR_TAGS)
    return all(flag.startswith("n") for _, flag in tokens)
