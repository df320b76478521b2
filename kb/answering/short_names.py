"""Who a one-character name in a quoted sentence is (乙大怒，拔剑杀丁: 乙 is 甲乙, 丁 丙丁): a
historical novel names a person by the given name alone once the passage has named them in
full, and a reader of one quoted sentence has not read the passage. The forms are read as
`kb.answering.dying` reads them (at a clause's start or after a killing word), of the people the
sentence's block names in full."""

from __future__ import annotations

from core.text import to_simplified
from kb.answering.dying import forms_of, kill_words, named_at
from kb.answering.people_index import PeopleIndex


def short_names(sentence: str, block_text: str, people: PeopleIndex) -> list[tuple[str, str]]:
    """(the short form, the person id) for each person of the block the sentence names only
    by a short form, in the sentence's order; a form two of them share is left out."""
    text = to_simplified(sentence)
    kills = kill_words()
    found: dict[str, list[tuple[int, str]]] = {}
    for pid, _ in people.find(block_text):
        if pid not in people.people:
            continue
        full, short = forms_of(pid, people)
        if any(f in text for f in full):
            continue
        for form in short:
            spans = named_at(text, (), {form}, kills)
            if spans:
                found.setdefault(form, []).append((spans[0][0], pid))
    return [(form, hits[0][1]) for form, hits in sorted(found.items(), key=lambda kv: kv[1][0][0])
            if len(hits) == 1]


def people_in(sentence: str, block_text: str | None, people: PeopleIndex) -> list[tuple[int, str]]:
    """(position, person id) of everyone the sentence names, by full name or, given its block, by
    the given name alone (`short_names`), in the sentence's order."""
    text = to_simplified(sentence)
    at = [(text.find(to_simplified(w)), pid) for pid, w in people.find(sentence)]
    if block_text is not None:
        at += [(text.find(short), pid) for short, pid in short_names(sentence, block_text, people)]
    return sorted(at)
