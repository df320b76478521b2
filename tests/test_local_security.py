"""Other local users do not own the graph: the embedded server refuses every client without the
password (generated at the first start, kept 0600), the data directory is 0700 and its files
0600, and the password is on no command line. As root, a real second user (`nobody`) tries."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from providers.embedded import PASSWORD_FILE, EmbeddedServer, probe_client

pytestmark = pytest.mark.falkordb

INTRUDER = Path(__file__).resolve().parent.parent / "scripts" / "intruder.py"


@pytest.fixture
def server() -> Iterator[EmbeddedServer]:
    """A server in a directory whose parent anyone may enter, so only our modes protect it."""
    base = Path(tempfile.mkdtemp(prefix="kbx-security-"))
    os.chmod(base, 0o755)
    own = EmbeddedServer(base / "falkordb")
    own.ensure_running()
    own_graph = probe_client(own.state.port if own.state else 0, own.password())
    own_graph.execute_command("GRAPH.QUERY", "kbx:secure", "CREATE (:Person {name: 'x'})")
    own_graph.close()
    try:
        yield own
    finally:
        own.stop(force=True)
        shutil.rmtree(base, ignore_errors=True)


def test_the_data_directory_is_owner_only(server: EmbeddedServer) -> None:
    for root, _dirs, files in os.walk(server.directory):
        assert stat.S_IMODE(os.stat(root).st_mode) == 0o700, root
        for name in files:
            path = os.path.join(root, name)
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
    assert len((server.directory / PASSWORD_FILE).read_text().strip()) >= 32


def test_an_older_open_data_dir_is_tightened_at_start(tmp_path: Path) -> None:
    directory = tmp_path / "falkordb"
    directory.mkdir(mode=0o755)
    os.chmod(directory, 0o755)
    (directory / "server.log").write_text("old\n")
    os.chmod(directory / "server.log", 0o644)
    server = EmbeddedServer(directory)
    server.ensure_running()
    try:
        assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(directory / "server.log").st_mode) == 0o600
    finally:
        server.stop()


def test_a_client_without_the_password_can_neither_read_nor_write(server: EmbeddedServer
                                                                  ) -> None:
    assert server.state is not None
    for password in (None, "wrong-password"):
        with probe_client(server.state.port, password) as client:
            for command in (("GRAPH.RO_QUERY", "kbx:secure", "MATCH (n) RETURN count(n)"),
                            ("GRAPH.QUERY", "kbx:secure", "CREATE (:Owned)"),
                            ("DEL", "kbx:secure"), ("FLUSHALL",), ("CONFIG", "GET", "dir")):
                with pytest.raises(redis.AuthenticationError):
                    client.execute_command(*command)
    with probe_client(server.state.port, server.password()) as owner:
        rows = owner.execute_command("GRAPH.RO_QUERY", "kbx:secure", "MATCH (n) RETURN count(n)")
        assert "1" in str(rows)  # nothing was added or deleted


def test_the_password_is_on_no_command_line(server: EmbeddedServer) -> None:
    assert server.state is not None
    for pid in (server.state.pid, server.state.keeper):
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        assert server.password().encode() not in command


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second user")
def test_another_local_user_is_refused(server: EmbeddedServer) -> None:
    assert server.state is not None
    nobody = pwd.getpwnam("nobody")

    def become_nobody() -> None:
        os.setgroups([])
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3 for the second user")
    run = subprocess.run([python, "-c", INTRUDER.read_text(), str(server.directory),
                          str(server.state.port), "kbx:secure"], capture_output=True, text=True, timeout=60,
                         preexec_fn=become_nobody, cwd="/", env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    for name in ("server.json", "password", "redis.conf", "appendonlydir"):
        assert seen[name] == "PermissionError", seen
    for command in ("GRAPH.RO_QUERY", "GRAPH.QUERY", "DEL", "KEYS", "CONFIG"):
        assert seen[command].startswith("-NOAUTH"), seen
