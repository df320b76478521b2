"""Reading the text files a user hands us, and saying exactly where one is not UTF-8.

Python's own message ("can't decode byte 0xb5 in position 0") names neither the file nor a line,
and a novel saved in GBK fails at its very first character, so "byte 0" alone tells a user
nothing they can act on. Every reader of a user's file (corpus, question sets, bundles, lexicon,
profile) goes through here, so every such error names the file, the real byte offset, the line
and column of the bad byte, the byte itself, and the encoding the file does read as when it is
one a Chinese text is often saved in (with the command that converts it).
"""

from __future__ import annotations

from pathlib import Path

from core.errors import EncodingError

OTHER_ENCODINGS = ("utf-16", "gb18030", "big5")
"""Encodings a Chinese text file is often in; tried only to say which one the file reads as."""


def utf8_problem(data: bytes, exc: UnicodeDecodeError) -> str:
    """The message: `not UTF-8 text at byte N (line L, column C: 0x..)` and, when the whole file
    decodes in one of `OTHER_ENCODINGS`, which one and how to convert it."""
    start = exc.start
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    bad = " ".join(f"0x{b:02x}" for b in data[start:max(exc.end, start + 1)][:4])
    message = f"not UTF-8 text at byte {start} (line {line}, column {column}: {bad})"
    # UTF-8 text before the bad byte: a damaged UTF-8 file, not one in another encoding
    guess = _reads_as(data) if data[:start].isascii() else None
    if guess:
        message += (f"; it reads as {guess.upper()}: convert it with "
                    f"`iconv -f {guess.upper()} -t UTF-8`")
    return message


def _reads_as(data: bytes) -> str | None:
    for encoding in OTHER_ENCODINGS:
        if encoding == "utf-16" and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            continue  # without a byte-order mark almost any even-length bytes "decode"
        try:
            data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return encoding
    return None


def decode_utf8(data: bytes, path: Path | str) -> str:
    """The text of `data` read from `path`; EncodingError (a ConfigError) names where it is not
    UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EncodingError(f"{path}: {utf8_problem(data, exc)}") from exc


def read_utf8(path: Path) -> str:
    """The file's text; EncodingError names the byte, line and column that are not UTF-8.
    OSError (missing, unreadable) is the caller's to report."""
    return decode_utf8(path.read_bytes(), path)
