"""Whose death a sentence tells. Two ways a sentence of fiction says 甲 died:

- **a death word said of them** (亡, 死, 卒 — the genre's `death_words`): 甲 is the person named
  last before the word, or the last one opening a clause when the one named after them stands
  inside a clause (甲弃乙于地，投井而死: 乙 is acted on; 甲闻乙死 is 乙's death). Not the agent
  after a passive marker (甲被乙所杀: 甲 dies); not a word said in a speech the name stands
  outside of (甲嘱曰：「我死之后」); not a death only feared, threatened or feigned between the
  name and the word (甲拔剑欲自刎 — the genre's `fate_doubt`); not 死 of a manner (死战: the
  language's `dead_after` says what may follow a death); and not the doer of a killing word
  that ends in the death word (甲搠死数人: others die);
- **a killing done to them**: a killing word of the language (`states_kill`, `asserts_kill`: 杀,
  斩, 打死) with 甲 right after it (乙拔剑杀甲).

A person of a historical novel is named by the one-character given name once the scene has them
(飞大叫一声而亡), a titled one by the title alone (夫人投井而死): those forms count where they open
a clause or follow a killing word.

Read by the passage reader: a question about how, where or when someone died reads the sentences
around the one that tells that person's death; the book tells the deaths of hundreds of others."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from core.text import CJK_CLASS, to_simplified
from kb.answering.people_index import PeopleIndex
from kb.knowledge.genre import genre
from kb.knowledge.language import language
from kb.knowledge.surnames import surnames

REACH = 30
"""The dying person is named at most this many characters before the death word."""
AFTER_KILL = 2
KILL_GAPS = ("", "了", "死", "死了")
"""What may stand between a killing word and the one killed (斩甲, 杀了甲, 打死了甲)."""
CJK = re.compile(f"[{CJK_CLASS}]")
OPEN_MARKS, CLOSE_MARKS = "「『“", "」』”"
SPEECH = re.compile(r"[「『“][^「『“」』”]*[」』”]")
DOUBT_REACH = 2
"""Characters before a killing word where a doubt makes it a threat (誓杀甲, 欲杀甲)."""


@cache
def kill_words() -> tuple[str, ...]:
    """The language's words of a killing (`states_kill`, `asserts_kill`: 杀, 斩, 打死)."""
    lang = language()
    return tuple(dict.fromkeys((*lang.words_of("states_kill"), *lang.words_of("asserts_kill"))))


def said(sentence: str) -> bool:
    """The sentence holds a speech (an opening quotation mark)."""
    return any(mark in sentence for mark in OPEN_MARKS)


def forms_of(pid: str, people: PeopleIndex) -> tuple[set[str], set[str]]:
    """The person's names of two characters or more, and the short forms read only at a clause's
    start or after a killing word: the given name alone (甲乙 → 乙), the title alone (甲夫人 → 夫人)."""
    names = [to_simplified(n) for n in people.people[pid].all_names]
    full = names[0] if names else ""
    surname = surnames().of(full)
    short = {full[len(surname):]} if surname and len(full) > len(surname) else set()
    return {n for n in names if len(n) >= 2} - short, short


def named_at(text: str, forms: Iterable[str], short: Iterable[str], kills: Iterable[str]
              ) -> list[tuple[int, int]]:
    spans = [(m.start(), m.end()) for form in forms for m in re.finditer(re.escape(form), text)]
    for form in short:
        for m in re.finditer(re.escape(form), text):
            before = text[max(0, m.start() - AFTER_KILL - 2):m.start()]
            opens = m.start() == 0 or not CJK.match(text[m.start() - 1])
            if opens or any(k in before for k in kills):
                spans.append((m.start(), m.end()))
    return [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o != s for o in spans)]


def _opens(text: str, at: int) -> bool:
    return at == 0 or not CJK.match(text[at - 1])


def _in_speech(between: str) -> bool:
    """More quotation marks open than close: what follows is said, not told."""
    opened = sum(between.count(m) for m in OPEN_MARKS)
    return opened > sum(between.count(m) for m in CLOSE_MARKS)


def _told(between: str) -> str:
    """The narrative between a name and a word: speech between them left out (甲曰：「…」言讫而亡)."""
    return SPEECH.sub("", between)


def dies_in(sentence: str, person: str, people: PeopleIndex, before: str = "") -> bool:
    """The sentence tells `person`'s death (rule in the module docstring); `before`: the
    sentence before it, whose names may be the subject of a death word that has none of its own
    (言讫而亡)."""
    head = to_simplified(before)
    text = head + to_simplified(sentence)
    g, lang = genre(), language()
    passive = tuple(lang.extraction.passive) if lang.extraction else ("被",)
    kills = kill_words()
    others = {pid for pid, _ in people.find(before + sentence) if pid in people.people} - {person}
    named = [(s, e, pid) for pid in [*others, person]
             for s, e in named_at(text, *forms_of(pid, people), kills)]
    for start, _ in ((s, e) for s, e, pid in named if pid == person and s >= len(head)):
        # a killing done to them: 杀甲, 杀了甲 (not 杀奔甲寨, not 誓杀甲)
        for k in kills:
            for gap in KILL_GAPS:
                if text.endswith(k + gap, 0, start):
                    at = start - len(gap) - len(k)
                    if not g.fate_doubt.search(text, max(0, at - DOUBT_REACH), at):
                        return True
    dead, dead_after = lang.chars.dead, lang.chars.dead_after
    for death in g.death_words.finditer(text, len(head)):
        after = text[death.end():death.end() + 1]
        if death.group() == dead and dead_after and CJK.match(after) and after not in dead_after:
            continue  # 死战, 死救: a manner, not a death
        near = sorted(n for n in named if n[1] <= death.start()
                      and len(_told(text[n[1]:death.start()])) <= REACH)
        while near and text[max(0, near[-1][0] - 1):near[-1][0]] in passive:
            near.pop()  # 被乙: 乙 is the agent, the one named before dies
        if not near:
            continue
        dying = near[-1]
        subject = next((n for n in reversed(near) if _opens(text, n[0])), dying)
        if not _opens(text, dying[0]) and \
                not g.fate_hearsay.search(text, subject[1], dying[0]):
            dying = subject  # 甲弃乙于地，…而死: 乙 is acted on (but 甲闻乙死: 乙 dies)
        if dying[2] != person:
            continue
        between = text[dying[1]:death.start()]
        killed_by_them = any(text.endswith(k, 0, death.end()) for k in kills if len(k) > 1) and \
            not any(p in between for p in passive)
        if not killed_by_them and not _in_speech(between) and \
                not g.fate_doubt.search(_told(between)):
            return True
    return False
