"""Shared pytest fixtures; each engineer's fixtures live in their own namespaced section."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# --- markers: what a test needs, from the fixtures it uses -----------------------------------
# `make test-fast` runs `-m "not slow and not browser and not llm"`; `make test` runs everything.
# A test is marked by the fixtures it asks for (so a new test on the whole book is slow without
# anyone remembering to say so), and by a `pytestmark` of its own where no fixture tells.
NEEDS: dict[str, frozenset[str]] = {
    "slow": frozenset({"chapters", "whole_book", "kb_curated_bundle", "explorer"}),
    "browser": frozenset({"page", "browser", "playwright_session", "screenshots"}),
    "falkordb": frozenset({"kb_falkordb", "kb_falkordb_server", "api_falkordb"}),
    "llm": frozenset({"openai_stub"}),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in NEEDS.items():
            if used & fixtures:
                item.add_marker(marker)


# --- LLM boundary (kb/llm.py): no test may reach a paid model -------------------------------
os.environ["KBX_BLOCK_REAL_LLM"] = "1"

from openai_stub import OpenAIStub  # noqa: E402


@pytest.fixture
def openai_stub() -> Iterator[OpenAIStub]:
    """A real OpenAI-protocol HTTP server on 127.0.0.1 (free port) with scripted replies."""
    stub = OpenAIStub().start()
    try:
        yield stub
    finally:
        stub.stop()
# --- end LLM boundary ------------------------------------------------------------------------


# --- knowledge base and relation providers (tests/kb_fixtures.py) ----------------------------
from kb_fixtures import (  # noqa: E402, F401
    kb_blocks,
    kb_chapters,
    kb_curated_bundle,
    kb_falkordb,
    kb_falkordb_server,
    kb_mini_bundle,
)

# --- end knowledge base ----------------------------------------------------------------------
