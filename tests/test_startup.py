"""What a command loads before it does anything: `kbx` starts without the heavy libraries, and the
answering stack without the OpenAI client when no LLM is configured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "pydantic", "pydantic_settings", "rich", "openai", "fastapi", "uvicorn",
         "networkx", "redis", "falkordb", "opencc", "httpx")


def _loaded(code: str, modules: tuple[str, ...]) -> list[str]:
    """The modules of `modules` that a fresh interpreter has loaded after running `code`."""
    probe = (f"{code}\nimport sys\n"
             f"print('LOADED:', *(m for m in {modules!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, check=True)
    return done.stdout.splitlines()[-1].split()[1:]


def test_the_cli_starts_without_heavy_libraries() -> None:
    assert _loaded("import cli.main", HEAVY) == []


def test_help_loads_nothing_heavy() -> None:
    code = ("import sys\nfrom cli.main import app\nsys.argv = ['kbx', '--help']\n"
            "try:\n    app()\nexcept SystemExit:\n    pass")
    assert _loaded(code, HEAVY) == []


@pytest.mark.parametrize("module", ["kb.answering.service", "api.services", "providers.factory",
                                    "cli.serve_commands", "cli.kb_commands"])
def test_no_openai_networkx_or_web_server_unless_used(module: str) -> None:
    """`kbx ask` and `kbx pair` go through these: no OpenAI client offline, no networkx with
    FalkorDB, no FastAPI or uvicorn outside `kbx serve`."""
    assert _loaded(f"import {module}", ("openai", "networkx", "fastapi", "uvicorn")) == []


def test_eval_strategies_follow_the_retriever() -> None:
    from cli.evaluate import EVAL_STRATEGIES
    from retrieval.retriever import STRATEGIES

    assert (*STRATEGIES, "kb") == EVAL_STRATEGIES


def test_the_app_is_built_without_the_mcp_sdk() -> None:
    """The MCP SDK (about a second of CPU to import) loads in the lifespan's own task, after the
    app serves: building the app does not load it."""
    code = "from api.app import create_app\ncreate_app()"
    assert _loaded(code, ("mcp", "api.mcp_server")) == []
