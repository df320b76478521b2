"""README's figures are docs/figures.json's, the file scripts/figures.py writes from one run of
every evaluation and benchmark: the block in README.md and the one in docs/figures.md are exactly
its rendering (the README once gave the `kb` strategy's whole-book figures three ways in three
places, none of them today's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.figures import (
    ANSWER_SETS,
    BEGIN,
    END,
    RETRIEVAL_SETS,
    STRATEGIES,
    block_of,
    read_figures,
    render_all,
    render_key,
    with_block,
)
from tests.figures_support import FIGURES

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("name", "render"), [("README.md", render_key),
                                              ("docs/figures.md", render_all)])
def test_the_block_is_the_rendering_of_the_figures_file(name: str, render: object) -> None:
    block = block_of((ROOT / name).read_text(encoding="utf-8"))
    assert block is not None, f"{name} has no figures block"
    assert block == render(read_figures(FIGURES)), (  # type: ignore[operator]
        f"{name}'s figures are not docs/figures.json's: python scripts/figures.py --render")


def test_the_figures_file_holds_every_set_and_strategy() -> None:
    figures = read_figures(FIGURES)
    assert set(figures["retrieval"]) == set(RETRIEVAL_SETS)
    assert all(set(figures["retrieval"][name]) == set(STRATEGIES) for name in RETRIEVAL_SETS)
    assert set(figures["answers"]) == set(ANSWER_SETS)
    assert figures["measured"]["commands"] and figures["measured"]["commit"]


def test_a_block_is_replaced_whole_and_only_it() -> None:
    text = f"intro\n{BEGIN}\nold\nlines\n{END}\nrest\n"
    replaced = with_block(text, "new")
    assert block_of(replaced) == "new" and replaced.startswith("intro\n") and replaced.endswith("rest\n")
    with pytest.raises(ValueError, match="no figures block"):
        with_block("no markers here", "new")
