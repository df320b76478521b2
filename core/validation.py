"""The one validation of what a caller sends, for every entry point (CLI, API, MCP, the answering
service): the same checks, and the same words after the field's name.

The API also writes these rules as the patterns and lengths of its OpenAPI document
(`api.inputs` takes them from here): pydantic refuses what a pattern forbids before a route
runs, with the message this module gives for that pattern (`MESSAGES`), and the routes then call
the same functions the CLI calls. So `kbx search $'林\\x01冲'` and `GET /search?q=林%01冲` are
refused alike ("question: …" and "q: …", the same words after the colon); `--chapters 0-99999`
names the corpus's range as `chapters=0-99999` does, never clamps it; `kbx path A A` is refused
as `kbx pair A A` is; an unknown session is an error, not a new conversation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.errors import NotFound, QueryRejected

CONTROL = r"\x00-\x1f\x7f-\x9f"
"""Unicode control characters (category Cc): never accepted in a name, id or question."""
TEXT_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
"""The control characters refused in free text, which may hold tabs and line breaks."""

NAME_PATTERN = f"^[^{CONTROL}]*$"
"""Names, aliases, record, block and session ids: any text without control characters."""
TEXT_PATTERN = f"^[^{TEXT_CONTROL}]*[^\\s{CONTROL}][^{TEXT_CONTROL}]*$"
"""A question: at least one character that is not blank, no control character but tab, CR, LF."""
CHAPTERS_SYNTAX = r"^\d{1,4}(-\d{1,4})?(,\d{1,4}(-\d{1,4})?)*$"
"""The shape of a chapter selection before the corpus is known."""

MAX_NAME = 100
MAX_ID = 100
MAX_TEXT = 10_000
"""A hard cap on free text; the service's own limit (`max_question_chars`) is lower."""
MAX_CHAPTERS_SPEC = 200

NAME_MESSAGE = "must not hold control characters"
TEXT_MESSAGE = "must hold a character that is not blank, and no control characters"
CHAPTERS_MESSAGE = "use chapter numbers, e.g. 7-11 or 7,9,12-14"
MESSAGES = {NAME_PATTERN: NAME_MESSAGE, TEXT_PATTERN: TEXT_MESSAGE,
            CHAPTERS_SYNTAX: CHAPTERS_MESSAGE}
"""What a caller is told when a value does not match one of the patterns."""

_TEXT = re.compile(TEXT_PATTERN)
_NAME = re.compile(NAME_PATTERN)


def checked_question(text: str, max_chars: int, field: str = "question") -> str:
    """The question stripped; blank, holding a control character (but tab and line breaks) or
    longer than `max_chars` is rejected naming the field."""
    if not _TEXT.fullmatch(text):
        raise QueryRejected(f"{field}: {TEXT_MESSAGE}")
    question = text.strip()
    if len(question) > max_chars:
        raise QueryRejected(f"{field}: {len(question)} characters, more than the limit of "
                            f"{max_chars}")
    return question


def checked_name(text: str, field: str, max_chars: int = MAX_NAME) -> str:
    """A name, alias or id as given: no control character, at most `max_chars` characters (the
    API's words for a string too long)."""
    if not _NAME.fullmatch(text):
        raise QueryRejected(f"{field}: {NAME_MESSAGE}")
    if len(text) > max_chars:
        raise QueryRejected(f"{field}: String should have at most {max_chars} characters")
    return text


def two_people(a_id: str, b_id: str, what: str) -> None:
    """A pair or a path is between two different people."""
    if a_id == b_id:
        raise QueryRejected(f"a {what} needs two different people")


def unknown_session(session_id: str, field: str = "session_id") -> NotFound:
    """The error for a session no answer began (or one that expired)."""
    return NotFound(f"{field}: unknown session {session_id[:MAX_ID]!r}; ask without it to "
                    "begin one (each answer gives its session)")


def parse_chapters(spec: str, chapters: Iterable[int], field: str = "chapters") -> set[int]:
    """The chapters a selection names (`7-11`, `7,9,12-14`, a range either way round), every
    one in the corpus, else an error naming the corpus's range; nothing is expanded before the
    selection is known to stay within it, and the message never echoes it."""
    available = set(chapters)
    if not available:
        raise QueryRejected(f"{field}: the corpus holds no chapter")
    lo, hi = min(available), max(available)
    if len(spec) > MAX_CHAPTERS_SPEC or not re.fullmatch(chapters_pattern(available), spec):
        raise QueryRejected(f"{field}: use chapter numbers from {lo} to {hi}, e.g. "
                            f"{lo}-{min(hi, lo + 4)} or {lo},{hi}")
    selected: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        a, b = int(first), int(last or first)
        selected.update(range(min(a, b), max(a, b) + 1))
    selected &= available
    if not selected:
        raise QueryRejected(f"{field}: none of the chapters named is in the corpus")
    return selected


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
