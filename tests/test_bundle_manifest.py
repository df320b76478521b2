"""A bundle's manifest: written by every writer, checked by every load, naming what differs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from kb_fixtures import KB_MINI
from typer.testing import CliRunner

from cli.main import app
from core.errors import BundleError
from core.settings import DEFAULT_BUNDLE
from ingest.chunking import Block
from kb.knowledge.bundle import KnowledgeBundle, load_bundle, write_bundle
from kb.knowledge.manifest import (
    MANIFEST_FILE,
    bundle_files,
    check_manifest,
    read_manifest,
    write_manifest,
)


@pytest.fixture
def written(tmp_path: Path, kb_mini_bundle: KnowledgeBundle) -> Path:
    """The mini bundle as the product writes one (the five files, then the manifest)."""
    target = tmp_path / "bundle"
    write_bundle(kb_mini_bundle, target)
    return target


def _error(directory: Path, blocks: list[Block]) -> str:
    with pytest.raises(BundleError) as caught:
        load_bundle(directory, blocks)
    return str(caught.value)


def test_every_written_bundle_has_a_manifest_of_its_files(written: Path,
                                                          kb_mini_bundle: KnowledgeBundle) -> None:
    listed = read_manifest(written)
    assert listed is not None and set(listed) == set(bundle_files(written))
    counts = kb_mini_bundle.counts()
    for kind in ("people", "events", "relations", "states", "chapters"):
        assert listed[f"{kind}.jsonl"]["records"] == counts[kind]
    assert check_manifest(written)


def test_a_bundle_cut_at_a_line_boundary_is_refused_naming_the_file(
        written: Path, kb_blocks: list[Block]) -> None:
    path = written / "relations.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) >= 2
    path.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    message = _error(written, kb_blocks)
    assert f"relations.jsonl: {len(lines) // 2} records, the manifest says {len(lines)}" in message


def test_a_changed_byte_of_the_same_size_is_refused(written: Path,
                                                    kb_blocks: list[Block]) -> None:
    path = written / "people.jsonl"
    data = path.read_bytes()
    at = data.index(b'"profile": "') + len(b'"profile": "')
    path.write_bytes(data[:at] + (b"X" if data[at:at + 1] != b"X" else b"Y") + data[at + 1:])
    assert "people.jsonl: sha256 " in _error(written, kb_blocks)


def test_a_missing_file_and_a_file_not_listed_are_refused(written: Path,
                                                          kb_blocks: list[Block]) -> None:
    (written / "states.jsonl").unlink()
    (written / "shards").mkdir()
    (written / "shards" / "ch007.jsonl").write_text("", encoding="utf-8")
    message = _error(written, kb_blocks)
    assert "states.jsonl: missing, the manifest lists it" in message
    assert "shards/ch007.jsonl: not in the manifest" in message


def test_a_bundle_without_a_manifest_loads_with_a_warning(
        tmp_path: Path, kb_blocks: list[Block], caplog: pytest.LogCaptureFixture) -> None:
    target = tmp_path / "bundle"
    shutil.copytree(KB_MINI, target)
    assert not (target / MANIFEST_FILE).exists()
    assert load_bundle(target, kb_blocks).people
    assert "no manifest" in caplog.text


def test_the_curated_bundle_matches_its_manifest() -> None:
    """After an edit of a shard, `kbx kb manifest kb/data/<book>` writes the manifest again."""
    assert check_manifest(DEFAULT_BUNDLE), f"{DEFAULT_BUNDLE} has no {MANIFEST_FILE}"


def test_kbx_kb_manifest_writes_and_checks(tmp_path: Path) -> None:
    target = tmp_path / "bundle"
    shutil.copytree(KB_MINI, target)
    runner = CliRunner()
    done = runner.invoke(app, ["kb", "manifest", str(target)])
    assert done.exit_code == 0, done.output
    assert json.loads((target / MANIFEST_FILE).read_text())["files"]
    assert runner.invoke(app, ["kb", "manifest", str(target), "--check"]).exit_code == 0
    with (target / "events.jsonl").open("a", encoding="utf-8") as handle:
        handle.write("\n")  # a blank line: the same records, other bytes
    refused = runner.invoke(app, ["kb", "manifest", str(target), "--check"])
    assert refused.exit_code == 2 and "events.jsonl" in refused.output
    assert write_manifest(target)["files"]["events.jsonl"]["records"] > 0
