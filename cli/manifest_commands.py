"""`kbx kb manifest [DIR]`: write (or, with `--check`, compare) a bundle's manifest.

Every bundle the product writes carries its manifest already (`kb.knowledge.manifest`); this is
for a bundle edited by hand, above all the curated one (`kb/data/<book>/`, shard by shard): after
an edit, write the manifest again so that the next load accepts the files as they now are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import console, settings

DirArg = Annotated[Path | None, typer.Argument(
    help="the bundle directory (default: the curated bundle, KBX_BUNDLE)")]


def manifest_command(directory: DirArg = None,
                     check: Annotated[bool, typer.Option(
                         "--check", help="compare only; exit 2 naming what differs")] = False
                     ) -> None:
    """Write the manifest of a bundle (records, bytes and sha256 of each file)."""
    from core.errors import BundleError
    from kb.knowledge.manifest import MANIFEST_FILE, check_manifest, write_manifest

    where = directory or settings().bundle
    if not where.is_dir():
        raise BundleError(f"{where}: no such bundle directory")
    if check:
        if not check_manifest(where):
            raise BundleError(f"{where}: no {MANIFEST_FILE}")
        console.print(f"{where}: every file matches its {MANIFEST_FILE}", highlight=False)
        return
    manifest = write_manifest(where)
    files = manifest["files"]
    records = sum(entry.get("records", 0) for entry in files.values())
    console.print(f"wrote {where / MANIFEST_FILE}: {len(files)} files, {records:,} records",
                  highlight=False)
