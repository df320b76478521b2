"""The figures README reports (docs/figures.json, written by scripts/figures.py from its runs):
the floors of the tests that measure the same thing read them here, so a test fails when the
product falls below what the README says, and a new run moves README and floor together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.figures import read_figures

FIGURES = Path(__file__).resolve().parent.parent / "docs" / "figures.json"


def reported(*keys: str) -> Any:
    """docs/figures.json's value at `keys`, e.g. reported("answers", "answers_dev",
    "states_answer")."""
    value: Any = read_figures(FIGURES)
    for key in keys:
        value = value[key]
    return value
