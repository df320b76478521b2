"""Bounds on what a request may carry, written once and used both to check and to document.

Every pattern here is what the OpenAPI document shows and what the service enforces (pydantic
checks the patterns of parameters and bodies; chapter selections are checked against the corpus
with the very pattern the document shows), so a request the document allows is one the service
accepts, and the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.errors import QueryRejected

CONTROL = r"\x00-\x1f\x7f-\x9f"
"""Unicode control characters (category Cc): never accepted in a name, id or question."""
TEXT_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
"""The control characters refused in free text, which may hold tabs and line breaks."""

NAME_PATTERN = f"^[^{CONTROL}]*$"
"""Names, aliases, record, block and session ids: any text without control characters."""
TEXT_PATTERN = f"^[^{TEXT_CONTROL}]*[^\\s{CONTROL}][^{TEXT_CONTROL}]*$"
"""A question: at least one character that is not blank, no control character but tab, CR, LF."""
CHAPTERS_SYNTAX = r"^\d{1,4}(-\d{1,4})?(,\d{1,4}(-\d{1,4})?)*$"
"""The shape of a chapter selection before the corpus is known (the document then shows the
exact chapters of the corpus, see `chapters_pattern`)."""

MAX_NAME = 100
MAX_ID = 100
MAX_TEXT = 10_000
"""A hard cap on free text; the service's own limit (`max_question_chars`) is lower."""
MAX_CHAPTERS_SPEC = 200

MESSAGES = {
    NAME_PATTERN: "must not hold control characters",
    TEXT_PATTERN: "must hold a character that is not blank, and no control characters",
    CHAPTERS_SYNTAX: "use chapter numbers, e.g. 7-11 or 7,9,12-14",
}
"""What a caller is told when a value does not match one of the patterns."""


def _same_length(lo: str, hi: str) -> list[str]:
    """Regex alternatives for the numbers from `lo` to `hi`, both of the same number of digits."""
    if lo == hi:
        return [lo]
    if len(lo) == 1:
        return [f"[{lo}-{hi}]"]
    if lo[0] == hi[0]:
        return [lo[0] + tail for tail in _same_length(lo[1:], hi[1:])]
    parts: list[str] = []
    width = len(lo) - 1
    low_tail, high_tail = lo[1:], hi[1:]
    first, last = int(lo[0]), int(hi[0])
    if low_tail != "0" * width:
        parts += [lo[0] + tail for tail in _same_length(low_tail, "9" * width)]
        first += 1
    if high_tail != "9" * width:
        parts_high = [hi[0] + tail for tail in _same_length("0" * width, high_tail)]
        last -= 1
    else:
        parts_high = []
    if first <= last:
        head = str(first) if first == last else f"[{first}-{last}]"
        parts.append(head + r"\d" * width if width else head)
    return parts + parts_high


def int_range_pattern(lo: int, hi: int) -> str:
    """A regex (no anchors) matching exactly the decimal numbers lo..hi, without leading zeros."""
    if not 0 <= lo <= hi:
        raise ValueError(f"bad range {lo}..{hi}")
    parts: list[str] = []
    start = lo
    while start <= hi:
        digits = len(str(start))
        end = min(hi, 10 ** digits - 1)
        parts += _same_length(str(start), str(end))
        start = end + 1
    return "(?:" + "|".join(parts) + ")"


def chapters_pattern(chapters: Iterable[int]) -> str:
    """The chapter selections this corpus accepts: `7-11`, `7,9,12-14`, every number a chapter
    between the corpus's first and last (a range may be written either way round)."""
    numbers = sorted(chapters)
    if not numbers:
        return CHAPTERS_SYNTAX
    one = int_range_pattern(numbers[0], numbers[-1])
    part = f"{one}(?:-{one})?"
    return f"^{part}(?:,{part})*$"


def parse_chapters(spec: str, chapters: Iterable[int]) -> set[int]:
    """The chapters a selection names, all of them in the corpus; nothing is expanded before the
    selection is known to stay within the corpus, and the message never echoes it."""
    available = set(chapters)
    if not available:
        raise QueryRejected("chapters: the corpus holds no chapter")
    lo, hi = min(available), max(available)
    if len(spec) > MAX_CHAPTERS_SPEC or not re.fullmatch(chapters_pattern(available), spec):
        raise QueryRejected(f"chapters: use chapter numbers from {lo} to {hi}, e.g. "
                            f"{lo}-{min(hi, lo + 4)} or {lo},{hi}")
    selected: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        a, b = int(first), int(last or first)
        selected.update(range(min(a, b), max(a, b) + 1))
    selected &= available
    if not selected:
        raise QueryRejected("chapters: none of the chapters named is in the corpus")
    return selected
