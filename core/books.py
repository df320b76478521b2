"""The book registry: each built book's data under `<data_dir>/<book>/` with its manifest.

A book is one corpus with its own data directory (blocks, discovered names, extracted records,
the bundle the service loads) and its own graph `kbx:<book>`. `kbx build` writes `book.json`
last, so a directory without one is not a book (an interrupted build leaves none behind). The
corpus the settings name (`KBX_CORPUS`, `KBX_BUNDLE`, by default 水浒传 and its curated bundle)
is the default book even without a manifest: `make demo` and every older data directory keep
working as they did.

A book built by `kbx build` keeps its graph in an embedded server of its own
(`<data_dir>/stores/<book>/`), so that a book closed when idle takes its graph out of memory;
the default book without a manifest keeps `<data_dir>/falkordb`.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError, NotFound
from core.settings import Settings

MANIFEST_FILE = "book.json"
STORES_DIR = "stores"
BOOK_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,39}$"
"""A book's name: its directory, its graph (`kbx:<book>`) and what `--book` takes."""
Source = Literal["curated", "extracted", "llm"]


class BookCounts(BaseModel):
    model_config = ConfigDict(extra="ignore")

    people: int = 0
    aliases: int = 0
    events: int = 0
    relations: int = 0
    states: int = 0
    chapters: int = 0


class BookManifest(BaseModel):
    """`<data_dir>/<book>/book.json`: what was built, from which text, and how."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(pattern=BOOK_PATTERN)
    title: str = Field(description="the novel's title, from the text or --title")
    corpus: Path = Field(description="the chapter directory or the one text file it was built from")
    chunk_size: int = Field(ge=100, le=5000)
    built_at: str = Field(description="ISO 8601, UTC")
    source: Source = Field(description="where the knowledge came from: a curated bundle, the "
                                       "offline extractor, or an LLM")
    curated_bundle: Path | None = Field(default=None,
                                        description="the curated bundle, for a curated book")
    counts: BookCounts = Field(default_factory=BookCounts)
    text_chapters: int = Field(default=0, description="chapters of the text")
    seconds: float = Field(default=0.0, description="how long the build took")
    ambiguous: int = Field(default=0, description="name forms two people share")
    llm: dict[str, float] = Field(default_factory=dict, description="LLM calls, tokens and cost")


class UnknownBook(NotFound):
    """A book that was never built; the message names it and the built ones."""


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def check_book_name(name: str) -> str:
    if not re.fullmatch(BOOK_PATTERN, name):
        raise ConfigError(f"--book: {name!r} is not a book name (lower-case letters, digits, "
                          "- and _, at most 40, e.g. sanguo)")
    return name


def default_book(settings: Settings) -> str:
    return settings.book or settings.corpus_name


def book_dir(settings: Settings, name: str) -> Path:
    return settings.resolved_data_dir() / name


def read_manifest(settings: Settings, name: str) -> BookManifest | None:
    """The book's manifest, None when there is none; a broken one names its file."""
    path = book_dir(settings, name) / MANIFEST_FILE
    if not path.is_file():
        return None
    try:
        return BookManifest.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "input"
        raise ConfigError(f"{path}: {field}: {err['msg']}") from None


def write_manifest(manifest: BookManifest, directory: Path) -> None:
    text = manifest.model_dump_json(indent=2)
    (directory / MANIFEST_FILE).write_text(text + "\n", encoding="utf-8")


def built_books(settings: Settings) -> list[str]:
    """The names of the books with a manifest, and the configured corpus (always readable: from
    its block store, else from its text)."""
    root = settings.resolved_data_dir()
    names = {p.parent.name for p in root.glob(f"*/{MANIFEST_FILE}")
             if re.fullmatch(BOOK_PATTERN, p.parent.name)} if root.is_dir() else set()
    return sorted(names | {settings.corpus_name})


def for_book(settings: Settings, name: str | None = None) -> Settings:
    """The settings that read one book: its corpus, bundle, data directory and store.

    `name` None is the default book (`KBX_BOOK`, else the configured corpus, shuihu). A book
    with a manifest reads what it was built from; the configured corpus without one reads the
    settings as they are (its corpus and curated bundle); any other name is an UnknownBook."""
    wanted = check_book_name(name) if name is not None else default_book(settings)
    manifest = read_manifest(settings, wanted)
    if manifest is None:
        if wanted == settings.corpus_name:
            return settings
        raise unknown_book(settings, wanted)
    return settings_of(settings, manifest)


def settings_of(settings: Settings, manifest: BookManifest) -> Settings:
    """The settings that read a built book (what `for_book` gives once its manifest is in
    place)."""
    root = book_dir(settings, manifest.name)
    bundle = manifest.curated_bundle if manifest.source == "curated" else None
    return settings.model_copy(update={
        "corpus_name": manifest.name, "corpus": manifest.corpus,
        "chunk_size": manifest.chunk_size, "bundle": bundle or root / "bundle",
        "store_dir": settings.resolved_data_dir() / STORES_DIR / manifest.name})


def unknown_book(settings: Settings, name: str) -> UnknownBook:
    built = built_books(settings)
    listed = ", ".join(built) if built else "none yet (kbx build PATH --book NAME)"
    return UnknownBook(f"unknown book {name!r}; built books: {listed}", built)


def title_of(settings: Settings) -> str:
    """A book's title: its manifest's, else its bundle profile's, else its name."""
    manifest = read_manifest(settings, settings.corpus_name)
    if manifest is not None:
        return manifest.title
    try:
        profile = json.loads((settings.bundle / "profile.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return settings.corpus_name
    title = profile.get("title") if isinstance(profile, dict) else None
    return title if isinstance(title, str) and title else settings.corpus_name
