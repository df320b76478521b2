"""Shared pytest fixtures; each engineer's fixtures live in their own namespaced section."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

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
