"""Generic code and the language's and genre's data name no character of a novel: the corpus is
swappable, and everything about one novel (names, places, wordings, prompts' title) lives beside
its bundle as data. The names are the bundled novel's lexicon and, where the eval set of another
novel is present, the people it lists (never a lexicon: read here only to scan for them)."""

from __future__ import annotations

import json
from pathlib import Path

from core.settings import DEFAULT_BUNDLE, REPO_ROOT
from core.text import to_simplified
from kb.knowledge.genre import genre

GENERIC = ("core", "ingest", "retrieval", "kb", "providers", "extract", "benchmarks")
"""Packages below api and cli (whose help texts and API examples may name characters), and the
benchmarks."""
MIN_NAME = 2
SHARED_DATA = ("kb/data/genre", "kb/data/lang")
"""The data every novel shares: no book's names in it."""
OTHER_BOOKS = ("eval/sanguo/people_dev.jsonl",)
"""Eval people of the other novels, when present: their names and the aliases the text uses."""


def _lexicon_names() -> set[str]:
    names: set[str] = set()
    for line in (DEFAULT_BUNDLE / "lexicon.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            names.update(to_simplified(n) for n in [row["name"], *row.get("aliases", [])])
    return {n for n in names if len(n) >= MIN_NAME}


def _other_names() -> set[str]:
    names: set[str] = set()
    for relative in OTHER_BOOKS:
        path = REPO_ROOT / relative
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                forms = [row.get("name", ""), *row.get("aliases", [])]
                names.update(to_simplified(n) for n in forms if isinstance(n, str))
    return {n for n in names if len(n) >= MIN_NAME}


def _hits(paths: list[Path], names: set[str]) -> list[str]:
    found = []
    for path in paths:
        text = to_simplified(path.read_text(encoding="utf-8"))
        for number, line in enumerate(text.splitlines(), start=1):
            hits = sorted(n for n in names if n in line)
            if hits:
                found.append(f"{Path(path).relative_to(REPO_ROOT)}:{number}: {', '.join(hits)}")
    return found


def test_no_name_of_the_lexicon_in_generic_code() -> None:
    paths = [p for package in GENERIC for p in sorted((REPO_ROOT / package).rglob("*.py"))]
    found = _hits(paths, _lexicon_names() | _other_names())
    assert not found, "names of the novel in generic code:\n" + "\n".join(found)


def test_no_name_of_a_novel_in_the_genre_and_language_data() -> None:
    paths = [p for folder in SHARED_DATA for p in sorted((REPO_ROOT / folder).rglob("*.json"))]
    assert paths
    titles = set(genre().address_terms)  # 天子: a title the genre says denotes no one person
    found = _hits(paths, (_lexicon_names() | _other_names()) - titles)
    assert not found, "names of a novel in the shared data:\n" + "\n".join(found)


def test_the_scan_finds_a_name() -> None:
    assert "林冲" in _lexicon_names() and "豹子头" in _lexicon_names()
