"""Names without a surname of the common list (a singer's or a maid's name, a rare surname, a
foreigner's name): two-character strings that speak, alone, at the start of a clause, often.

A name with a surname of the list is found by `extract.name_stats`, which may start from the
surname; a name without one has nothing to start from but what people do in fiction: they speak
(乙丙曰, 乙丙笑道) at the head of a clause. That makes many strings candidates that are no name
(又问曰, 大喝曰, 其略曰, 甲笑曰: a one-character given name and a verb), so a candidate must pass
every check a name passes in the language and the genre:

- it speaks `MIN_SPOKEN` times at a clause's head and is used `MIN_USES` times;
- the dictionary does not know it as a word of another kind than a name, nor as a frequent noun
  (夫人, 使者); it is no generic speaker or title of the genre;
- no character of it begins a cue (大 of 大怒, 笑 of 笑道, 又 of 又道): such a string is the
  speaker's verb phrase; its first character is no determiner or numeral (其人, 二将);
- its neighbours vary on both sides (the tail of a longer name is always preceded by the same
  character, a given name + verb always followed by 曰), it opens clauses and ends some (a
  phrase never does), it follows a determiner rarely and no two surnames (那府尹, 甲府尹: a post);
- the segmenter cuts it as one word where it speaks (乃/关公, 人/报知 are pieces of others).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence

from core.text import CJK_CLASS
from extract.name_stats import RARE_NOUN_FREQ, TextStats, absorbed, dictionary_tag, opens
from kb.knowledge.genre import PeopleWords
from kb.knowledge.surnames import Surnames

MIN_SPOKEN = 3
MIN_USES = 10
"""Without a surname to start from, a string must be used this often to be told from a phrase."""
SIZE = 2
ENDS_CLAUSE = 0.05
"""A name ends a clause (乙丙。, 乙丙、) in this share of its uses at least; a phrase (却不, 我只)
never does."""
GENERIC_SHARE = 0.2
"""A string after a determiner this often is a noun of a role (那差拨, 那府尹)."""
ONE_WORD = 0.5
"""The segmenter reads the string as one word in this share of the clauses where it speaks
(乃/关公, 来/人, 人/报知 are pieces of other words)."""
TITLED_BY = 2
"""Preceded by this many different surnames (甲府尹, 乙府尹), the string is a post: a given name
follows one surname only (甲乙丙 → 乙丙)."""
MIN_TITLED = 3
FUNCTION_TAGS = frozenset("cpdrufv")
"""A surname character that is also a function word (和 'and', 于 'at') says nothing before a
string (封 before a name is a verb): the segmenter's tags of conjunctions, prepositions, adverbs,
pronouns, particles, directions and verbs."""
SAMPLE = 30
CJK_CHAR = f"[{CJK_CLASS}]"
SPEECH_MARKS = frozenset("：:「『“")


def speaking_names(texts: Sequence[str], names_of: Surnames, words: PeopleWords,
                   numerals: Collection[str] = ()) -> dict[str, int]:
    """Two-character names without a listed surname, with their uses (see the module)."""
    cues = sorted(words.speaker_cues, key=len, reverse=True)
    speaks = re.compile(rf"(?<!{CJK_CHAR})({CJK_CHAR}{{{SIZE}}})(?:{'|'.join(map(re.escape, cues))})")
    spoken: Counter[str] = Counter()
    clauses: dict[str, list[str]] = {}
    for text in texts:
        for m in speaks.finditer(text):
            spoken[m.group(1)] += 1
            clauses.setdefault(m.group(1), []).append(m.group())
    heads = {c[0] for c in cues if len(c) > 1}
    determiners = frozenset(words.determiners)
    barred = determiners | frozenset(numerals) | heads
    known = frozenset(words.generic_speakers) | frozenset(words.titles) | \
        frozenset(words.kinship_forms)
    candidates = [s for s, n in spoken.items() if n >= MIN_SPOKEN and names_of.of(s) is None and
                  s not in known and not (set(s) & heads) and s[0] not in barred and
                  _may_be_a_name(s)]
    stats = TextStats(texts)
    stats.neighbours(candidates)
    found = {}
    for s in candidates:
        left, right = stats.left[s], stats.right[s]
        uses = sum(left.values())
        stats.spoken[s] = spoken[s]
        if uses < MIN_USES or absorbed(left, uses) or absorbed(right, uses) or \
                not opens(stats, s, uses):
            continue
        ends = sum(n for c, n in right.items() if not re.match(CJK_CHAR, c) and c not in SPEECH_MARKS)
        generic = sum(n for c, n in left.items() if c in determiners)
        surnamed = [c for c, n in left.items() if n >= MIN_TITLED and names_of.of(c + s) == c and
                    (dictionary_tag(c)[1] or "")[:1] not in FUNCTION_TAGS]
        if ends >= ENDS_CLAUSE * uses and generic <= GENERIC_SHARE * uses and \
                len(surnamed) < TITLED_BY and _one_word(s, clauses[s]):
            found[s] = uses
    return found


def _may_be_a_name(s: str) -> bool:
    """Unknown to the dictionary, or a noun it knows rarely (its famous people are nouns there)."""
    freq, tag = dictionary_tag(s)
    return tag is None or (tag.startswith("n") and freq < RARE_NOUN_FREQ)


def _one_word(s: str, clauses: Sequence[str]) -> bool:
    """The segmenter cuts the string as one word in most of its speaking clauses."""
    from extract.name_stats import segment

    sample = clauses[:SAMPLE]
    whole = sum(1 for clause in sample if s in segment(clause))
    return whole >= ONE_WORD * len(sample)
