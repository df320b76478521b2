"""Generic code and the language's and genre's data name no character of a novel: the corpus is
swappable, and everything about one novel (names, places, wordings, prompts' title) lives beside
its bundle as data. The names are the bundled novel's lexicon and, where the 三国 dev set is in
the checkout, the people it lists (never the held-out file; read here only to scan for them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.settings import DEFAULT_BUNDLE, REPO_ROOT
from core.text import to_simplified
from kb.knowledge.genre import genre

GENERIC = ("core", "ingest", "retrieval", "kb", "providers", "extract", "benchmarks")
"""Packages below api and cli (whose help texts and API examples may name characters), and the
benchmarks."""
LANGUAGE_DATA = ("kb/data/genre", "kb/data/lang")
"""The genre's and the language's words, which every novel shares: no book's names either."""
MIN_NAME = 2
SANGUO_DEV = REPO_ROOT / "eval" / "sanguo" / "people_dev.jsonl"
"""The 三国 dev set's people: the second book, built from its text alone."""


def _genre_words() -> set[str]:
    """Words of the genre (皇叔-like titles, 天子-like generic speakers and address terms): a
    reader's label may list a bare title as someone's alias, but a title is the genre's word,
    not the book's name."""
    words = genre()
    people = words.people
    return {*people.titles, *people.sovereign_titles, *people.kinship_forms,
            *people.generic_speakers, *words.address_terms}


def _names(path: Path) -> set[str]:
    names: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            names.update(to_simplified(n) for n in [row["name"], *row.get("aliases", [])])
    return {n for n in names if len(n) >= MIN_NAME}


def _lexicon_names() -> set[str]:
    return _names(DEFAULT_BUNDLE / "lexicon.jsonl")


def _sanguo_names() -> set[str]:
    return _names(SANGUO_DEV) - _genre_words()


def _hits(names: set[str], paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        text = to_simplified(path.read_text(encoding="utf-8"))
        for number, line in enumerate(text.splitlines(), start=1):
            hits = sorted(n for n in names if n in line)
            if hits:
                found.append(f"{path.relative_to(REPO_ROOT)}:{number}: {', '.join(hits)}")
    return found


def _code() -> list[Path]:
    return [p for package in GENERIC for p in sorted((REPO_ROOT / package).rglob("*.py"))]


def _data() -> list[Path]:
    return [p for d in LANGUAGE_DATA for p in sorted((REPO_ROOT / d).rglob("*.json"))]


def test_no_name_of_the_lexicon_in_generic_code() -> None:
    found = _hits(_lexicon_names(), _code())
    assert not found, "names of the novel in generic code:\n" + "\n".join(found)


def test_no_name_of_the_lexicon_in_language_data() -> None:
    assert _data(), "no genre or language data found"
    found = _hits(_lexicon_names() - _genre_words(), _data())
    assert not found, "names of the novel in language data:\n" + "\n".join(found)


@pytest.mark.skipif(not SANGUO_DEV.exists(), reason="the 三国 dev set is not in this checkout")
def test_no_name_of_the_second_book_in_generic_code_or_language_data() -> None:
    found = _hits(_sanguo_names(), _code() + _data())
    assert not found, "names of 三国 in generic code or data:\n" + "\n".join(found)


def test_the_scan_finds_a_name() -> None:
    assert "林冲" in _lexicon_names() and "豹子头" in _lexicon_names()


@pytest.mark.skipif(not SANGUO_DEV.exists(), reason="the 三国 dev set is not in this checkout")
def test_the_second_scan_finds_a_name() -> None:
    assert "刘备" in _sanguo_names() and "玄德" in _sanguo_names()


ENGLISH = ("kb/data/lang/en.json", "kb/answering/english.py", "kb/answering/english_items.py",
           "kb/answering/english_order.py", "kb/knowledge/pinyin_names.py",
           "kb/knowledge/english_words.py")
"""The English language file and the English reader: a book's names are not there in pinyin
either (the people are found by the pinyin of the loaded bundle's own names)."""


def _pinyin_forms(names: set[str]) -> re.Pattern[str]:
    """Each name of two syllables or more as an English text writes it: Title Case apart or
    hyphenated (Jia Yi, Jia-Yi), run together (JiaYi, jiayi, from 6 letters: 'a man' is no
    name), or as an id (jia_yi)."""
    from kb.knowledge.pinyin_names import usual_pinyin

    forms: set[str] = set()
    for name in names:
        syllables = usual_pinyin(name)
        if len(syllables) < 2 or len(syllables) != len(name):
            continue
        titled = [s.capitalize() for s in syllables]
        forms |= {" ".join(titled), "-".join(titled), "_".join(syllables), "".join(titled)}
        if len("".join(syllables)) >= 6:
            forms.add("".join(syllables))
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
                      + r")\b")


def test_no_name_of_either_book_in_pinyin_in_the_english_reader() -> None:
    names = _lexicon_names() | (_sanguo_names() if SANGUO_DEV.exists() else set())
    pattern = _pinyin_forms(names - _genre_words())
    found = [f"{path}:{number}: {match.group(0)}" for path in ENGLISH
             for number, line in enumerate((REPO_ROOT / path).read_text(encoding="utf-8")
                                           .splitlines(), start=1)
             for match in pattern.finditer(line)]
    assert not found, "names of a book in pinyin:\n" + "\n".join(found)


def test_the_pinyin_scan_finds_a_name() -> None:
    pattern = _pinyin_forms({"林冲"})
    assert pattern.search("Why did Lin Chong go?") and pattern.search("linchong")
    assert not pattern.search("a man of the lin tribe")
