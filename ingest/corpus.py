"""Reading a novel: a directory of `NNN.txt` chapters, or one UTF-8 file with 第…回 headings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from core.errors import CorpusError, EncodingError
from core.utf8 import read_utf8

CHAPTER_FILE = re.compile(r"^(\d{1,4})\.txt$")
HEADING = re.compile(r"^\s*第([〇零一二两三四五六七八九十百千\d]+)回")
_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}


@dataclass(frozen=True)
class Chapter:
    """One chapter: its number (第七回 = 7, 引首 = 0), title line and body text.

    The body is the paragraphs joined by newlines; every character offset in the project counts
    into this body.
    """

    number: int
    title: str
    text: str


def chinese_number(numeral: str) -> int:
    """Parse 七, 十一, 一百二十, 一百零五 or ASCII digits."""
    if numeral.isdigit():
        return int(numeral)
    total, current = 0, 0
    for ch in numeral:
        if ch in _DIGITS:
            current = _DIGITS[ch]
        elif ch in _UNITS:
            total += (current or 1) * _UNITS[ch]
            current = 0
        else:
            raise ValueError(f"not a Chinese numeral: {numeral!r}")
    return total + current


def _read_utf8(path: Path) -> str:
    try:
        return read_utf8(path)
    except EncodingError as exc:
        raise CorpusError(str(exc)) from exc
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read ({exc.strerror})") from exc


def _body(lines: list[str]) -> str:
    return "\n".join(line.strip().lstrip("\u3000") for line in lines if line.strip())


def _read_directory(directory: Path) -> list[Chapter]:
    files = sorted(
        (int(m.group(1)), p) for p in directory.iterdir() if (m := CHAPTER_FILE.match(p.name))
    )
    if not files:
        raise CorpusError(f"{directory}: no chapter files (expected NNN.txt, e.g. 007.txt)")
    chapters = []
    for number, path in files:
        lines = _read_utf8(path).splitlines()
        if not lines or not lines[0].strip():
            raise CorpusError(f"{path}: empty chapter file (line 1 should be the title)")
        chapters.append(Chapter(number, lines[0].strip(), _body(lines[1:])))
    return chapters


def _read_single_file(path: Path) -> list[Chapter]:
    lines = _read_utf8(path).splitlines()
    chapters: list[Chapter] = []
    title, number = "引首", 0
    body: list[str] = []
    seen_heading = False
    for line_no, line in enumerate(lines, start=1):
        match = HEADING.match(line)
        if match:
            if body and _body(body):
                chapters.append(Chapter(number, title, _body(body)))
            try:
                number = chinese_number(match.group(1))
            except ValueError as exc:
                raise CorpusError(f"{path}:{line_no}: bad chapter heading {line.strip()!r}") from exc
            title, body, seen_heading = line.strip(), [], True  # noqa: SIM113
        else:
            body.append(line)
    if not seen_heading:
        raise CorpusError(f"{path}: no chapter heading found (expected lines like 第一回 …)")
    if _body(body):
        chapters.append(Chapter(number, title, _body(body)))
    return chapters


def read_corpus(path: Path, chapters: set[int] | None = None) -> list[Chapter]:
    """All chapters (or the selected ones) in order; a CorpusError names the offending file."""
    if not path.exists():
        raise CorpusError(f"{path}: no such file or directory")
    found = _read_directory(path) if path.is_dir() else _read_single_file(path)
    numbers = [c.number for c in found]
    if len(set(numbers)) != len(numbers):
        raise CorpusError(f"{path}: chapter numbers repeat")
    if chapters is not None:
        found = [c for c in found if c.number in chapters]
        if not found:
            raise CorpusError(f"{path}: none of the selected chapters is in the corpus")
    return found


def parse_chapter_range(spec: str | None) -> set[int] | None:
    """`7-11`, `7,9,12-14` or None (all chapters)."""
    if not spec:
        return None
    selected: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                if lo > hi:
                    raise ValueError
                selected.update(range(lo, hi + 1))
            else:
                selected.add(int(part))
        except ValueError as exc:
            raise CorpusError(f"--chapters: cannot read {part!r} (use e.g. 7-11 or 7,9,12-14)") from exc
    return selected
