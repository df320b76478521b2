"""Who keeps the embedded server running: leases, the keeper, and `kill -9` of its users.

The server stops when the last process that uses it is gone, also when that process was killed
with `kill -9` (it had no chance to say so); it outlives a killed user while another one remains;
nothing is left behind (no server, no keeper, no zombie)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hardening_support import processes_of, wait_for, zombie_children

from providers import liveness
from providers.embedded import LEASES, EmbeddedServer, live_leases, read_state

pytestmark = [pytest.mark.falkordb, pytest.mark.slow]  # kill -9 drills and waits for keepers

USER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from providers.embedded import EmbeddedServer
    EmbeddedServer(Path(sys.argv[1])).ensure_running()
    print("up", flush=True)
    time.sleep(120)
""")


@pytest.fixture
def directory(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "falkordb"
    try:
        yield path
    finally:  # whatever a failure left behind
        EmbeddedServer(path).stop(force=True)


def start_user(directory: Path) -> subprocess.Popen[str]:
    """Another process that starts (or reuses) the server and keeps using it."""
    user = subprocess.Popen([sys.executable, "-c", USER, str(directory)], text=True,
                            stdout=subprocess.PIPE)
    assert user.stdout is not None and user.stdout.readline().strip() == "up"
    return user


def kill_9(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait()


def test_kill_9_of_the_only_user_stops_the_server(directory: Path) -> None:
    user = start_user(directory)
    state = read_state(directory)
    assert state is not None and liveness.alive(state.pid) and liveness.alive(state.keeper)
    kill_9(user)
    assert wait_for(lambda: not liveness.alive(state.pid) and not liveness.alive(state.keeper),
                    10)
    assert read_state(directory) is None
    assert processes_of(directory) == [] and zombie_children() == []
    assert not list((directory / LEASES).iterdir())  # the dead user's lease is gone too


def test_the_server_outlives_a_killed_user_while_another_remains(directory: Path) -> None:
    starter = start_user(directory)
    state = read_state(directory)
    assert state is not None
    mine = EmbeddedServer(directory)
    mine.ensure_running()  # reuses it: a second user
    assert mine.state == state and not mine.started_here
    kill_9(starter)
    time.sleep(2.0)  # longer than the keeper's grace
    assert mine.running() == state and len(live_leases(directory)) == 1
    mine.stop()  # the last user: stops it now
    assert not liveness.alive(state.pid) and read_state(directory) is None
    assert wait_for(lambda: processes_of(directory) == [], 5)


def test_a_normal_close_by_the_last_user_stops_it_at_once(directory: Path) -> None:
    server = EmbeddedServer(directory)
    server.ensure_running()
    state = server.state
    assert state is not None
    server.stop()
    assert not liveness.alive(state.pid) and read_state(directory) is None


def test_a_dead_server_is_replaced_from_its_data_on_the_same_port(directory: Path) -> None:
    server = EmbeddedServer(directory)
    url = server.ensure_running()
    old = server.state
    assert old is not None
    subprocess.run(["kill", "-9", str(old.pid)], check=True)
    assert wait_for(lambda: not liveness.alive(old.pid), 5)
    assert server.recover() == url
    new = server.state
    assert new is not None and new.pid != old.pid and new.port == old.port
    server.stop()
