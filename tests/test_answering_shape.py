"""The answering code keeps its shape (scripts/code_shape.py reads the same figures): small
functions and modules, and its words in the language's data rather than in the code."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from code_shape import shape  # noqa: E402

MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 450
MAX_CJK_LITERALS = 150


def test_functions_and_modules_are_small() -> None:
    s = shape(ROOT / "kb" / "answering")
    assert {f: n for f, n in s.function_lines.items() if n > MAX_FUNCTION_LINES} == {}
    assert {m: n for m, n in s.module_lines.items() if n > MAX_MODULE_LINES} == {}


def test_the_words_are_data_and_the_code_keeps_its_templates() -> None:
    s = shape(ROOT / "kb" / "answering")
    assert len(s.literals) <= MAX_CJK_LITERALS, sorted(s.literals)
