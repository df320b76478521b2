"""Generic code names no character of the bundled novel: the corpus is swappable, and everything
about one novel (names, places, wordings, prompts' title) lives beside its bundle as data."""

from __future__ import annotations

import json
from pathlib import Path

from core.settings import DEFAULT_BUNDLE, REPO_ROOT
from core.text import to_simplified

GENERIC = ("core", "ingest", "retrieval", "kb", "providers", "extract", "benchmarks")
"""Packages below api and cli (whose help texts and API examples may name characters), and the
benchmarks."""
MIN_NAME = 2


def _lexicon_names() -> set[str]:
    names: set[str] = set()
    for line in (DEFAULT_BUNDLE / "lexicon.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            names.update(to_simplified(n) for n in [row["name"], *row.get("aliases", [])])
    return {n for n in names if len(n) >= MIN_NAME}


def test_no_name_of_the_lexicon_in_generic_code() -> None:
    names = _lexicon_names()
    found = []
    for package in GENERIC:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            text = to_simplified(path.read_text(encoding="utf-8"))
            for number, line in enumerate(text.splitlines(), start=1):
                hits = sorted(n for n in names if n in line)
                if hits:
                    found.append(f"{Path(path).relative_to(REPO_ROOT)}:{number}: {', '.join(hits)}")
    assert not found, "names of the novel in generic code:\n" + "\n".join(found)


def test_the_scan_finds_a_name() -> None:
    assert "林冲" in _lexicon_names() and "豹子头" in _lexicon_names()
