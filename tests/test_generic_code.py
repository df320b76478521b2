"""Generic code and the language's and genre's data name no character of a novel: the corpus is
swappable, and everything about one novel (names, places, wordings, prompts' title) lives beside
its bundle as data. The names are the bundled novel's lexicon and, where the 三国 dev set is in
the checkout, the people it lists (never the held-out file; read here only to scan for them)."""

from __future__ import annotations

import json
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
    return {*people.titles, *people.kinship_forms, *people.generic_speakers, *words.address_terms}


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
