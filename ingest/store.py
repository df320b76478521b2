"""The block store on disk: chapters and blocks as JSON Lines, and a manifest.

The retrieval layer writes its indexes into the same directory (`retrieval.corpus`), so the
whole store is replaced at once."""

from __future__ import annotations

import json
import time
from pathlib import Path

from core.errors import ConfigError
from ingest.chunking import Block
from ingest.corpus import Chapter

FORMAT_VERSION = 3
"""Bumped when normalization or the index layout changes: older stores must be rebuilt.
3: indexes as memory-mappable `.npy` arrays with their posting weights; folded chapters."""


def store_dir(data_dir: Path, corpus_name: str) -> Path:
    """The block store of a corpus, beside (not above) its extracted and merged bundles."""
    return data_dir / corpus_name / "blocks"


def write_blocks(directory: Path, chapters: dict[int, Chapter], blocks: list[Block],
                 manifest: dict[str, object]) -> None:
    """Write chapters, blocks and the manifest into `directory` (an empty temporary one)."""
    with (directory / "chapters.jsonl").open("w", encoding="utf-8") as out:
        for c in chapters.values():
            row = {"number": c.number, "title": c.title, "text": c.text}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    with (directory / "blocks.jsonl").open("w", encoding="utf-8") as out:
        for b in blocks:
            out.write(b.model_dump_json() + "\n")
    meta = {"format": FORMAT_VERSION, "saved_at": time.time(), **manifest}
    (directory / "manifest.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2))


def read_blocks(directory: Path) -> tuple[dict[int, Chapter], list[Block]]:
    """Chapters and blocks of a store; a missing or outdated store names the fix."""
    manifest_path = directory / "manifest.json"
    if not manifest_path.exists():
        raise ConfigError(f"{directory}: no block store here (run `kbx ingest` first)")
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("format") != FORMAT_VERSION:
        raise ConfigError(f"{directory}: store format {manifest.get('format')} is not "
                          f"{FORMAT_VERSION}; run `kbx ingest` again")
    chapters = {}
    with (directory / "chapters.jsonl").open(encoding="utf-8") as lines:  # a line at a time:
        for line in lines:  # the whole file as one string would stay in the process's heap
            row = json.loads(line)
            chapters[row["number"]] = Chapter(row["number"], row["title"], row["text"])
    with (directory / "blocks.jsonl").open("rb") as raw:  # pydantic reads UTF-8 bytes itself:
        blocks = [Block.model_validate_json(line) for line in raw if line.strip()]  # no decode
    return chapters, blocks


def has_store(directory: Path) -> bool:
    return (directory / "manifest.json").exists()


def manifest_of(directory: Path) -> dict[str, object]:
    path = directory / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else {}
