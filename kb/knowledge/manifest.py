"""A bundle's manifest: what each of its files holds (records, bytes, sha256), checked at load.

A bundle cut short at a line boundary (a copy stopped half-way, a disk that filled, a file edited
by hand and saved too soon) is still valid JSON Lines: without a record of what was written, a
load serves what is left (800 of 1,630 relations, exit 0). So every writer of a bundle
(`kb.knowledge.bundle.write_bundle`, which the extractor's bundles go through too) writes
`manifest.json` last, beside the files it describes, and every load compares each file with it
first: a file missing, cut, grown or changed, or a record file the manifest does not list, is a
`BundleError` that names the file and what differs.

The curated bundle (`kb/data/<book>/`, written by hand, chapter shard by shard) keeps its
manifest in the repository: after editing a shard, write it again with
`kbx kb manifest kb/data/<book>`. A directory without a manifest (a bundle written by hand, or
before manifests) is loaded unchecked, with a warning.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from core.atomic import write_text
from core.errors import BundleError

log = logging.getLogger(__name__)

MANIFEST_FILE = "manifest.json"
FORMAT = 1
RECORD_FILES = ("people.jsonl", "events.jsonl", "relations.jsonl", "states.jsonl",
                "chapters.jsonl", "lexicon.jsonl")
"""The top-level JSON Lines files a load reads (the five record files; a curated bundle's
lexicon). The JSON files beside them (`profile.json`, `roles.json`) are not listed: one cut
short is no longer JSON and the load already refuses it, naming it; a JSON Lines file cut at a
line is valid, and only a record of what was written tells it from a whole one."""
SHARDS = "shards"


def bundle_files(directory: Path) -> list[str]:
    """The JSON Lines files of a bundle that a load reads, relative to it, in a fixed order."""
    names = [n for n in RECORD_FILES if (directory / n).is_file()]
    shards = directory / SHARDS
    if shards.is_dir():
        names += [f"{SHARDS}/{p.name}" for p in sorted(shards.glob("ch*.jsonl")) if p.is_file()]
    return names


def describe(path: Path) -> dict[str, Any]:
    """One file's entry: its bytes, sha256 and records (non-blank lines)."""
    data = path.read_bytes()
    entry: dict[str, Any] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if path.suffix == ".jsonl":
        entry["records"] = sum(1 for line in data.split(b"\n") if line.strip())
    return entry


def write_manifest(directory: Path) -> dict[str, Any]:
    """Describe every file of the bundle in `directory` and write the manifest (atomically)."""
    manifest = {"format": FORMAT,
                "files": {name: describe(directory / name) for name in bundle_files(directory)}}
    write_text(directory / MANIFEST_FILE, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    return manifest


def read_manifest(directory: Path) -> dict[str, dict[str, Any]] | None:
    """The files the manifest lists; None when the directory has no manifest."""
    path = directory / MANIFEST_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        if data.get("format") != FORMAT or not isinstance(files, dict):
            raise ValueError(f"format {data.get('format')!r}")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise BundleError(f"{path}: not a bundle manifest ({exc})") from None
    return files


def _difference(name: str, listed: dict[str, Any], found: dict[str, Any]) -> str | None:
    if "records" in listed and listed["records"] != found.get("records"):
        return (f"{name}: {found.get('records')} records, the manifest says {listed['records']} "
                f"({found['bytes']:,} bytes of {listed.get('bytes', 0):,})")
    if listed.get("bytes") != found["bytes"]:
        return f"{name}: {found['bytes']:,} bytes, the manifest says {listed.get('bytes', 0):,}"
    if listed.get("sha256") != found["sha256"]:
        return f"{name}: sha256 {found['sha256'][:12]}…, the manifest says " \
               f"{str(listed.get('sha256'))[:12]}… (same size: changed, not cut)"
    return None


def check_manifest(directory: Path) -> bool:
    """Every file of the bundle as its manifest describes it, else a `BundleError` naming each
    file and what differs. False (and a warning) when there is no manifest to check against."""
    listed = read_manifest(directory)
    if listed is None:
        log.warning("bundle has no manifest: its files are not checked",
                    extra={"bundle": str(directory)})
        return False
    problems = []
    for name, entry in listed.items():
        path = directory / name
        if not path.is_file():
            problems.append(f"{name}: missing, the manifest lists it"
                            + (f" ({entry['records']} records)" if "records" in entry else ""))
            continue
        difference = _difference(name, entry, describe(path))
        if difference:
            problems.append(difference)
    problems += [f"{name}: not in the manifest" for name in bundle_files(directory)
                 if name not in listed]
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more"
                                           if len(problems) > 5 else "")
        raise BundleError(f"{directory}: does not match its {MANIFEST_FILE}: {shown} (cut or "
                          "changed after it was written: write the bundle again; after an edit "
                          f"by hand on purpose, `kbx kb manifest {directory}`)")
    return True
