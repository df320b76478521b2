"""Shared data for the retrieval tests: the real corpus, read once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import DEFAULT_CORPUS
from ingest.corpus import Chapter, read_corpus
from retrieval.corpus import Corpus, build_corpus

CORPUS_PATH = DEFAULT_CORPUS
DEV_SET = Path(__file__).resolve().parent.parent / "eval" / "questions" / "dev_ch7_11.jsonl"


@pytest.fixture(scope="session")
def chapters() -> list[Chapter]:
    return read_corpus(CORPUS_PATH)


@pytest.fixture(scope="session")
def whole_book(chapters: list[Chapter]) -> Corpus:
    return build_corpus(chapters, 600)
