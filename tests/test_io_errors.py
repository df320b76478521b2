"""I/O errors are one line naming the path, exit 2 (a file size limit; as root, a full disk and a
read-only file system, on small tmpfs mounts of the test's own); the graph store on a full disk
keeps answering reads while `persistence` names what it could not write, and writes again once
there is room."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kb_fixtures import free_port

from core.errors import ProviderUnavailable
from core.settings import DEFAULT_CORPUS
from kb.knowledge.bundle import KnowledgeBundle
from providers.embedded import EmbeddedServer
from providers.falkordb_provider import FalkorDBProvider

KBX = str(Path(sys.executable).parent / "kbx")
CHAPTERS = "7-9"


def _kbx(data_dir: Path, *args: str, limit_bytes: int | None = None
         ) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    env = {**os.environ, "KBX_DATA_DIR": str(data_dir), "KBX_CORPUS": str(DEFAULT_CORPUS),
           "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    return subprocess.run([KBX, *args], capture_output=True, text=True, env=env, timeout=300,
                          preexec_fn=limited)


def _one_line(done: subprocess.CompletedProcess[str], path: Path, *words: str) -> None:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: {path}"), lines[0]
    assert any(w in lines[0] for w in words), lines[0]


def test_a_file_size_limit_is_one_line_naming_the_path(tmp_path: Path) -> None:
    done = _kbx(tmp_path / "var", "ingest", "--chapters", CHAPTERS, limit_bytes=64 * 1024)
    _one_line(done, tmp_path / "var", "file too large", "file size limit reached")
    assert not any(p.name.startswith(".") for p in (tmp_path / "var" / "shuihu").iterdir())


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs of this test's own (root only)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    where = tmp_path / "disk"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("tmpfs cannot be mounted here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(where: Path, leave: int = 0) -> None:
    with (where / "filler").open("wb") as out:
        try:
            while shutil.disk_usage(where).free > leave:
                out.write(b"\0" * min(1 << 20, max(4096, shutil.disk_usage(where).free - leave)))
                out.flush()
        except OSError:
            pass


@pytest.mark.falkordb
def test_a_full_disk_is_one_line_naming_the_path(tiny_disk: Path) -> None:
    _fill(tiny_disk)
    done = _kbx(tiny_disk / "var", "ingest", "--chapters", CHAPTERS)
    _one_line(done, tiny_disk / "var", "no space left on the device", "the disk is full")


def test_a_read_only_file_system_is_one_line_naming_the_path(tiny_disk: Path) -> None:
    (tiny_disk / "var").mkdir()
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    done = _kbx(tiny_disk / "var", "ingest", "--chapters", CHAPTERS)
    _one_line(done, tiny_disk / "var", "read-only file system")


@pytest.mark.falkordb
def test_the_store_on_a_full_disk_reads_says_why_and_writes_again(
        tiny_disk: Path, kb_mini_bundle: KnowledgeBundle) -> None:
    server = EmbeddedServer(tiny_disk / "falkordb", port=free_port())
    provider = FalkorDBProvider(server=server, graph_name="kbx:disk-test")
    try:
        assert provider.load(kb_mini_bundle).persistence == []
        assert provider.persistence() == []
        _fill(tiny_disk)
        with pytest.raises(ProviderUnavailable) as refused:
            provider.load(kb_mini_bundle)  # its writes cannot reach the log
        assert str(refused.value).startswith(f"{tiny_disk / 'falkordb'}: the graph store "
                                             "cannot write its files")
        provider.ping(1.0)  # it answers: the service stays up for reads
        assert provider.person("lin_chong").name == "林冲"
        problems = provider.persistence()
        assert problems and all(p.startswith(str(tiny_disk / "falkordb")) for p in problems)
        assert provider.store_status()["persistence"] == problems
        (tiny_disk / "filler").unlink()
        assert _writes_again(provider, kb_mini_bundle)
        assert provider.store_status()["persistence"] == "ok"
    finally:
        provider.close()
        server.stop(force=True)


def _writes_again(provider: FalkorDBProvider, bundle: KnowledgeBundle) -> bool:
    """The store retries its log by itself once there is room (within about a second)."""
    import time

    for _ in range(100):
        try:
            provider.load(bundle)
            return True
        except ProviderUnavailable:
            time.sleep(0.1)
    return False
