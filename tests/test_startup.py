"""What a command loads before it does anything: `kbx` starts without the heavy libraries, and the
answering stack without the OpenAI client when no LLM is configured."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def test_the_collector_is_paused_inside_and_back_after() -> None:
    import gc

    from cli.common import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a failing command")
    assert gc.isenabled()


def test_what_a_paused_block_made_is_old_after_it() -> None:
    """The objects made while paused end in the oldest generation, none frozen: the young
    collections that follow do not walk them again."""
    import gc

    from cli.common import collector_paused

    with collector_paused():
        made = [[i] for i in range(50_000)]
    gc.disable()  # no allocation in between that could start a collection, which empties gen 0
    try:
        young = len(gc.get_objects(generation=0))
        old = {id(o) for o in gc.get_objects(generation=2)}
    finally:
        gc.enable()
    assert young < 1_000
    assert id(made[-1]) in old
    assert gc.get_freeze_count() == 0


def test_a_paused_block_leaves_a_paused_collector_paused() -> None:
    """Nested, or inside a caller that paused it: the inner block does not turn it back on."""
    import gc

    from cli.common import collector_paused

    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_quick_commands_run_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ask`, `pair` and the other read commands open their data with the collector paused;
    it is on again once they end (here, as they fail at that point)."""
    import contextlib
    import gc
    from collections.abc import Iterator

    from typer.testing import CliRunner

    import api.services
    import cli.kb_commands
    from cli.main import app
    from core.errors import ProviderUnavailable

    seen: dict[str, bool] = {}

    def opening(name: str) -> Callable[..., Any]:
        def probe(*args: object, **kwargs: object) -> None:
            seen[name] = gc.isenabled()
            raise ProviderUnavailable("probed")
        return probe

    @contextlib.contextmanager
    def session(*args: object, **kwargs: object) -> Iterator[None]:
        opening("kb")()
        yield

    monkeypatch.setattr(api.services, "open_services", opening("ask"))
    monkeypatch.setattr(cli.kb_commands, "session", session)
    runner = CliRunner()
    for name, args in (("ask", ["ask", "林冲是谁？"]), ("pair", ["pair", "林冲", "鲁智深"]),
                       ("people", ["people"]), ("journey", ["journey", "林冲"])):
        seen.clear()
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (name, result.output)
        assert seen == {"ask" if name == "ask" else "kb": False}, name
        assert gc.isenabled(), name


def test_kbx_starts_numpy_without_blas_threads() -> None:
    """Nothing in kbx multiplies matrices: numpy is loaded with one BLAS thread (its thread pool
    doubled the CPU of `import numpy`), unless the environment says otherwise."""
    code = "import os\nimport cli.main\nprint(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          check=True, env=env)
    assert done.stdout.split() == ["1"]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          check=True, env={**env, "OPENBLAS_NUM_THREADS": "2"})
    assert done.stdout.split() == ["2"]


def test_ask_opens_its_store_before_the_answering_stack_loads() -> None:
    """So that a cold embedded server starts in a thread while `api.services` and the answering
    code are imported, instead of after them."""
    code = ("import sys\nimport providers.factory\n"
            "def probe(*args, **kwargs):\n"
            "    print('LOADED:', *(m for m in ('api.services', 'kb.answering.service', 'numpy')"
            " if m in sys.modules))\n"
            "    raise SystemExit(0)\n"
            "providers.factory.open_provider = probe\n"
            "from cli.main import app\nsys.argv = ['kbx', 'ask', '林冲是谁？']\napp()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          check=True)
    assert done.stdout.splitlines()[-1] == "LOADED:"
