#!/usr/bin/env python3
"""Fault drills against a real `kbx serve` and `kbx kb load` (loopback only), printing figures.

    .venv/bin/python scripts/fault_drill.py kill      # kill -9 of the embedded server under traffic
    .venv/bin/python scripts/fault_drill.py stop      # SIGSTOP of it for 10 s under traffic
    .venv/bin/python scripts/fault_drill.py loads     # 20 loads killed with kill -9 mid-way
    .venv/bin/python scripts/fault_drill.py inputs    # the oversize inputs; the service's memory
    .venv/bin/python scripts/fault_drill.py security  # clients without the password; modes
    .venv/bin/python scripts/fault_drill.py windows   # 16 chapter windows of /search, then 80
                                                      # (40 at a time) with /health sampled
    .venv/bin/python scripts/fault_drill.py docs      # what /docs and /redoc load from outside
    .venv/bin/python scripts/fault_drill.py workers   # two services on one store: a follow-up and
                                                      # a reload through the other one
    .venv/bin/python scripts/fault_drill.py admin     # a one-letter admin key; 2,000 wrong keys
    .venv/bin/python scripts/fault_drill.py disk      # as root: a full disk (tmpfs), the log
                                                      # compaction failing, a read-only file
                                                      # system, no permission, ulimit -f

`--code DIR` runs the commands from another checkout of the code (`cli.main.app` run in DIR,
e.g. a worktree of an older commit), to measure what it did.
    .venv/bin/python scripts/fault_drill.py all

Settings come from the environment (KBX_DATA_DIR …) with the whole book ingested, extracted
and loaded (`make demo`), the embedded server (FALKORDB_URL unset). Each drill starts its own
service on a free port and stops it; `loads` needs no service.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))  # the fault tests' traffic (tests/traffic.py)

from traffic import Traffic  # noqa: E402

from core.settings import Settings  # noqa: E402
from kb.knowledge.loading import load_active_bundle  # noqa: E402
from providers import liveness  # noqa: E402
from providers.embedded import EmbeddedServer, probe_client, read_state  # noqa: E402
from providers.factory import open_provider  # noqa: E402
from providers.falkordb_provider import FalkorDBProvider  # noqa: E402
from providers.falkordb_schema import COUNT, expected_counts, graph_rows  # noqa: E402

KBX = str(Path(sys.executable).parent / "kbx")
KBX_CMD = [KBX]
"""How the drills run `kbx` (`--code DIR`: the checkout in DIR)."""
CODE_DIR: str | None = None
PAIR = "/kb/pair?a=林冲&b=鲁智深"
SEARCH = "/search?q=林冲和鲁智深怎么认识"
HEALTH = "/health"


# --- a service and traffic ---------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Service:
    def __init__(self, extra_env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, **(extra_env or {})}
        log = Path(env.get("KBX_DATA_DIR", "var")) / f"fault_drill_{self.port}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("wb") as out:
            self.process = subprocess.Popen([*KBX_CMD, "serve", "--port", str(self.port),
                                             "--no-access-log"], stdout=out, stderr=out,
                                            env=env, start_new_session=True, cwd=CODE_DIR)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the service exited; see {log}")
            try:
                body = httpx.get(self.url + HEALTH, timeout=2).json()
                if body["status"] == "ok" and body["ready"]:  # its parts open, not only serving
                    return
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.5)
        self.stop()
        raise SystemExit(f"the service did not become healthy; see {log}")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return round(ordered[min(len(ordered) - 1, max(0, int(share * len(ordered) + 0.999999) - 1))], 1)


def store_dir() -> Path:
    return Settings().resolved_data_dir() / "falkordb"


def zombies_of(pid: int) -> int:
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            fields = text[text.rfind(")") + 2:].split()
            count += fields[0] == "Z" and int(fields[1]) == pid
    return count


# --- the drills ------------------------------------------------------------------------------

def drill_kill() -> dict[str, Any]:
    """kill -9 of the embedded server under traffic: 503 within 1 s, 200 again within 2 s of a
    new server, no restart of the service, no zombie."""
    with Service() as service, Traffic(service.url, [PAIR, PAIR, PAIR, SEARCH, HEALTH], timeout=30) as t:
        time.sleep(3)
        state = read_state(store_dir())
        assert state is not None
        killed = time.monotonic()
        os.kill(state.pid, signal.SIGKILL)
        password = EmbeddedServer(store_dir()).password()
        new_at = None
        while time.monotonic() - killed < 30 and new_at is None:
            current = read_state(store_dir())
            if current is not None and current.pid != state.pid:
                try:
                    with probe_client(current.port, password, 0.5) as client:
                        new_at = time.monotonic() if client.ping() else None
                except Exception:  # noqa: BLE001 - not up yet
                    pass
            time.sleep(0.005)
        assert new_at is not None, "no new server"
        time.sleep(3)
        service_alive = service.process.poll() is None
        zombies = zombies_of(service.process.pid)
    after_kill = sorted(t.of(PAIR, killed), key=lambda a: a.ended)
    first_503 = next((a for a in after_kill if a.status == 503), None)
    back = next((a for a in after_kill if a.status == 200 and a.ended >= new_at), None)
    outage = t.of(PAIR, killed, new_at)
    return {
        "first_503_after_kill_s": round(first_503.ended - killed, 3) if first_503 else None,
        "new_server_after_kill_s": round(new_at - killed, 3),
        "first_200_after_new_server_s": round(back.ended - new_at, 3) if back else None,
        "graph_answers_during_outage": {str(s): sum(a.status == s for a in outage)
                                        for s in sorted({a.status for a in outage})},
        "graph_max_ms_during_outage": round(max((a.ms for a in outage), default=0), 1),
        "search_non_200": sum(a.status != 200 for a in t.of(SEARCH)),
        "health_non_200": sum(a.status != 200 for a in t.of(HEALTH)),
        "service_restarted": not service_alive, "zombies": zombies,
        "old_server_gone": not liveness.alive(state.pid),
    }


def drill_stop(seconds: float = 10.0) -> dict[str, Any]:
    """SIGSTOP of the embedded server for `seconds` under traffic."""
    with Service() as service, Traffic(service.url, [PAIR, PAIR, PAIR, SEARCH, HEALTH], timeout=30) as t:
        time.sleep(3)
        normal_from = time.monotonic()
        time.sleep(seconds)
        state = read_state(store_dir())
        assert state is not None
        stopped = time.monotonic()
        os.kill(state.pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            os.kill(state.pid, signal.SIGCONT)
        resumed = time.monotonic()
        time.sleep(3)
        after = read_state(store_dir())
        replaced = after is None or after.pid != state.pid
    normal = [a.ms for a in t.of(SEARCH, normal_from, stopped) if a.status == 200]
    during = [a.ms for a in t.of(SEARCH, stopped, resumed) if a.status == 200]
    graph = [a for a in t.of(PAIR, stopped - 30, resumed) if a.ended >= stopped]
    health = t.of(HEALTH, stopped, resumed)
    back = next((a for a in sorted(t.of(PAIR, resumed), key=lambda a: a.ended)
                 if a.status == 200), None)
    return {
        "search_normal": {"n": len(normal), "p50_ms": pct(normal, .5), "p99_ms": pct(normal, .99)},
        "search_stopped": {"n": len(during), "p50_ms": pct(during, .5), "p99_ms": pct(during, .99),
                           "non_200": sum(a.status != 200 for a in t.of(SEARCH, stopped, resumed))},
        "graph_stopped": {"n": len(graph), "max_ms": round(max((a.ms for a in graph), default=0), 1),
                          "statuses": {str(s): sum(a.status == s for a in graph)
                                       for s in sorted({a.status for a in graph})}},
        "health_stopped": {"n": len(health),
                           "max_ms": round(max((a.ms for a in health), default=0), 1),
                           "non_200": sum(a.status != 200 for a in health)},
        "graph_200_after_resume_s": round(back.ended - resumed, 3) if back else None,
        "server_replaced": replaced,
    }


def drill_loads(runs: int = 20) -> dict[str, Any]:
    """`kbx kb load` killed with kill -9 at 20 points of its graph work: when its staging graph
    holds 0%, 6%, … 94% of the nodes it will hold, and four times right after the RENAME (in
    the log rewrite). The live graph is checked after each kill, the staging graphs after the
    next complete load, the processes after every user has gone."""
    settings = Settings()
    provider = open_provider(settings)
    assert isinstance(provider, FalkorDBProvider), "the drill needs FalkorDB"
    total_nodes = expected_counts(graph_rows(load_active_bundle(settings)))[0]
    whole = provider.stats()
    expected = (whole.people, whole.events, whole.relations, whole.states)
    results = []
    try:
        for run in range(runs):
            share = run / (runs - 4) if run < runs - 4 else None  # None: after the rename
            loader = subprocess.Popen([KBX, "kb", "load"], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
            seen = _wait_for_point(provider, loader, share, total_nodes)
            loader.kill()
            loader.wait()
            stats = provider.stats()
            results.append({"point": "after rename" if share is None else f"{share:.0%} written",
                            "reached": seen, "exit": loader.returncode,
                            "live_whole": (stats.people, stats.events, stats.relations,
                                           stats.states) == expected,
                            "staging_after_kill": len(provider.staging_graphs())})
        subprocess.run([KBX, "kb", "load"], check=True, capture_output=True)
        left = len(provider.staging_graphs())
        aof = EmbeddedServer(store_dir()).status()["aof_bytes"]
    finally:
        provider.close()
    time.sleep(2.0)  # the keeper's grace
    return {"runs": runs, "killed": sum(r["exit"] == -9 for r in results),
            "killed_at_their_point": sum(bool(r["reached"]) for r in results),
            "live_graph_whole_after_every_kill": all(r["live_whole"] for r in results),
            "staging_left_by_kills": sum(r["staging_after_kill"] for r in results),
            "staging_left_after_next_load": left, "aof_bytes_after": aof,
            "processes_left_after_all_exit": len(_processes_of(store_dir())),
            "runs_detail": results}


def _wait_for_point(provider: FalkorDBProvider, loader: subprocess.Popen[bytes],
                    share: float | None, total: int) -> bool:
    """Poll until the loader's staging graph holds `share` of its nodes (None: until it was
    renamed away); False if the load ended first."""
    seen_staging = False
    while loader.poll() is None:
        staging = provider.staging_graphs()
        if staging:
            seen_staging = True
            if share is not None:
                try:
                    nodes = provider._run(staging[0], COUNT)[0][0]
                except Exception:  # noqa: BLE001 - renamed between the two calls
                    continue
                if nodes >= share * total:
                    return True
        elif seen_staging and share is None:
            return True
        time.sleep(0.001)
    return False


def _processes_of(directory: Path) -> list[int]:
    needle = str(directory.resolve())
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                    errors="replace")
            except OSError:
                continue
            if needle in command and liveness.alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def _raw(port: int, data: bytes, timeout: float = 30) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = sock.recv(65536)
            if not chunk:
                break
            response += chunk
        head, _, body = response.partition(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length")), 0)
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    return int(head.split(b" ")[1]), body


def drill_inputs() -> dict[str, Any]:
    """Each oversize or malformed input of the issue; the service's resident memory."""
    with Service() as service:
        for _ in range(20):  # warm: every route once, caches filled
            for path in (PAIR, SEARCH, "/kb/journey/林冲", HEALTH):
                httpx.get(service.url + path, timeout=30)
        idle = service.rss_mb()
        cases: list[tuple[str, int, bytes]] = []

        def get(name: str, path: str) -> None:
            head = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
            status, body = _raw(service.port, head)
            cases.append((name, status, body))

        get("chapters=1-99999999999", "/search?q=a&chapters=1-99999999999")
        get("chapters=1-100000", "/search?q=a&chapters=1-100000")
        get("100 KB record id", "/kb/records/" + "x" * 100_000)
        get("NUL in a name", "/kb/people/%E6%9E%97%00%E5%86%B2")
        get("/kb/people/abc%2F%2F", "/kb/people/abc%2F%2F")
        get("q=%1C", "/search?q=%1C")
        big = 100 * 1024 * 1024
        status, body = _raw(service.port, (
            "POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {big}\r\n\r\n").encode() + b'{"question": "')
        cases.append(("100 MB body declared", status, body))
        with socket.create_connection(("127.0.0.1", service.port), timeout=60) as sock:
            sock.sendall(b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"x" * 65536
            frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
            sent = 0
            try:
                while sent < big:
                    sock.sendall(frame)
                    sent += len(chunk)
            except OSError:
                pass
            sock.settimeout(10)
            try:
                reply = sock.recv(65536)
            except OSError:
                reply = b""
        cases.append((f"chunked body ({sent // 1024 // 1024} MB sent)",
                      int(reply.split(b" ")[1]) if reply.startswith(b"HTTP") else 0,
                      reply.partition(b"\r\n\r\n")[2]))
        for name, payload in (("knowledge_budget false",
                               b'{"question": "x", "knowledge_budget": false}'),
                              ("invalid UTF-8 body", b'{"question": "\xff\xfe"}')):
            head = (f"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n").encode()
            status, body = _raw(service.port, head + payload)
            cases.append((name, status, body))
        after = service.rss_mb()
    return {"idle_rss_mb": round(idle, 1), "after_rss_mb": round(after, 1),
            "delta_mb": round(after - idle, 1),
            "cases": [{"input": n, "status": s, "bytes": len(b),
                       "detail": json.loads(b).get("detail") if b.startswith(b"{") else None}
                      for n, s, b in cases]}


def _windows(count: int, offset: int) -> list[str]:
    """`count` different chapter windows of a 120-chapter book: starts 1 to 40, lengths 30 to
    80 chapters (a window of a few chapters costs little whatever the code does)."""
    starts = [1 + (offset + 7 * i) % 40 for i in range(count)]
    return [f"{a}-{a + 29 + (offset + 13 * i) % 51}" for i, a in enumerate(starts)]


HEALTH_SAMPLER = r"""
import select, socket, sys, time
port = int(sys.argv[1])
request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
sock = socket.create_connection(("127.0.0.1", port))
def ask():
    began = time.monotonic()
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int([l.split(b":")[1] for l in head.split(b"\r\n")
                  if l.lower().startswith(b"content-length")][0])
    while len(body) < length:
        body += sock.recv(65536)
    return (time.monotonic() - began) * 1000
ask()
print("ready", flush=True)
times = []
while not select.select([sys.stdin], [], [], 0.02)[0]:
    times.append(ask())
print(" ".join(f"{t:.1f}" for t in times), flush=True)
"""
"""/health asked over and over (a 20 ms pause between answers) on one keep-alive connection, from
a process of its own: the 40 threads of the burst must not delay the sampler's own reading."""


def drill_windows(sequential: int = 16, burst: int = 80, at_once: int = 40) -> dict[str, Any]:
    """`/search?chapters=…` with chapter windows never asked before: `sequential` of them one
    after another (the service's memory before and after, each one's time), then a burst of
    `burst` more, `at_once` at a time, while one client asks `/health` over and over."""
    from concurrent.futures import ThreadPoolExecutor

    question = "/search?q=%E6%9E%97%E5%86%B2%E5%92%8C%E9%B2%81%E6%99%BA%E6%B7%B1&chapters="
    with Service() as service:
        with httpx.Client(base_url=service.url, timeout=120) as http:
            for _ in range(5):  # warm: the plain search and /health
                http.get(SEARCH)
                http.get(HEALTH)
            plain = []
            for _ in range(20):
                began = time.monotonic()
                http.get(question.split("&")[0])  # the same question over the whole book
                plain.append((time.monotonic() - began) * 1000)
            idle = service.rss_mb()
            times = []
            for window in _windows(sequential, 0):
                began = time.monotonic()
                status = http.get(question + window).status_code
                times.append((time.monotonic() - began) * 1000)
                assert status == 200, (window, status)
            after_sequential = service.rss_mb()
        sampler = subprocess.Popen([sys.executable, "-c", HEALTH_SAMPLER, str(service.port)],
                                   stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True)
        assert sampler.stdout is not None and sampler.stdin is not None
        sampler.stdout.readline()  # its first answer: sampling

        def one(window: str) -> tuple[int, float]:
            began = time.monotonic()
            status = httpx.get(service.url + question + window, timeout=120).status_code
            return status, (time.monotonic() - began) * 1000

        began = time.monotonic()
        with ThreadPoolExecutor(at_once) as pool:
            answers = list(pool.map(one, _windows(burst, 3)))
        burst_s = time.monotonic() - began
        out, _ = sampler.communicate("stop\n", timeout=60)
        health = [float(x) for x in out.split()]
        after_burst = service.rss_mb()
    burst_ms = [ms for _, ms in answers]
    return {
        "plain_search_ms": {"p50": pct(plain, .5), "max": round(max(plain), 1)},
        "rss_mb": {"before": round(idle, 1), "after_16_windows": round(after_sequential, 1),
                   "after_burst": round(after_burst, 1)},
        "growth_16_windows_mb": round(after_sequential - idle, 1),
        "window_ms": {"p50": pct(times, .5), "slowest": round(max(times), 1),
                      "each": [round(t) for t in times]},
        "burst": {"requests": burst, "at_once": at_once, "seconds": round(burst_s, 2),
                  "non_200": sum(s != 200 for s, _ in answers),
                  "p50_ms": pct(burst_ms, .5), "p99_ms": pct(burst_ms, .99)},
        "health_during_burst": {"n": len(health), "p50_ms": pct(health, .5),
                                "p99_ms": pct(health, .99),
                                "max_ms": round(max(health, default=0), 1),
                                "each": [round(t) for t in health]},
        "load_average_at_end": round(os.getloadavg()[0], 2),
    }


INTRUDER = Path(__file__).with_name("intruder.py")
"""What a second local user tries (a plain system python, the redis protocol by hand)."""


def drill_security() -> dict[str, Any]:
    """The store of the configured data dir: a client without the password (and with a wrong
    one) reads, writes and deletes nothing; the directory is 0700 and its files 0600; as root,
    the user `nobody` tries the files and the port."""
    settings = Settings()
    provider = open_provider(settings)
    assert isinstance(provider, FalkorDBProvider), "the drill needs FalkorDB"
    graph = provider.graph_name
    try:
        before = provider.stats()
        state = read_state(store_dir())
        assert state is not None
        refused: dict[str, str] = {}
        for password in (None, "wrong-password"):
            with probe_client(state.port, password, 2.0) as client:
                for command in (("GRAPH.RO_QUERY", graph, "MATCH (n) RETURN count(n)"),
                                ("GRAPH.QUERY", graph, "CREATE (:Owned)"), ("DEL", graph),
                                ("FLUSHALL",), ("CONFIG", "GET", "dir")):
                    key = f"{command[0]} ({'no' if password is None else 'wrong'} password)"
                    try:
                        client.execute_command(*command)
                        refused[key] = "ANSWERED"
                    except Exception as exc:  # noqa: BLE001 - the refusal is the figure
                        refused[key] = type(exc).__name__
        after = provider.stats()
        modes = {"directories_not_0700": [], "files_not_0600": []}
        for root, _dirs, files in os.walk(store_dir()):
            if stat.S_IMODE(os.stat(root).st_mode) != 0o700:
                modes["directories_not_0700"].append(root)
            for name in files:
                path = os.path.join(root, name)
                if stat.S_IMODE(os.stat(path).st_mode) != 0o600:
                    modes["files_not_0600"].append(path)
        second_user: dict[str, Any] | str = "not run (needs root and a system python3)"
        python = shutil.which("python3", path="/usr/bin:/bin")
        if os.geteuid() == 0 and python is not None:
            nobody = pwd.getpwnam("nobody")

            def become_nobody() -> None:
                os.setgroups([])
                os.setgid(nobody.pw_gid)
                os.setuid(nobody.pw_uid)

            run = subprocess.run([python, "-c", INTRUDER.read_text(), str(store_dir().resolve()),
                                  str(state.port), graph], capture_output=True, text=True,
                                 timeout=60, preexec_fn=become_nobody, cwd="/",
                                 env={"PATH": "/usr/bin:/bin"})
            second_user = json.loads(run.stdout) if run.returncode == 0 else run.stderr[-300:]
    finally:
        provider.close()
    return {"refused": refused, "graph_unchanged": before == after, **modes,
            "user_nobody": second_user}


# --- I/O errors: a full disk, the store's compaction, read-only, permission, ulimit -f ---------

DISK_MB = 200
COMMANDS = [["ingest"], ["extract", "--offline"], ["kb", "load"], ["kb", "manifest", "{bundle}"],
            ["ask", "鲁智深和林冲怎么认识？"], ["search", "林冲"], ["status"]]


def _kbx(args: list[str], env: dict[str, str], preexec: Any = None,
         prefix: list[str] | None = None) -> dict[str, Any]:
    """One `kbx` command: its exit status, how many lines it wrote to stderr, the last one."""
    done = subprocess.run([*(prefix or []), *KBX_CMD, *args], capture_output=True, text=True,
                          env=env,
                          timeout=600, preexec_fn=preexec, cwd=CODE_DIR or "/")
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return {"command": "kbx " + " ".join(args), "exit": done.returncode,
            "stderr_lines": len(lines), "last_line": lines[-1][:240] if lines else "",
            "other_lines": [line[:200] for line in lines[:-1]][:3],
            "stdout_tail": done.stdout.strip().splitlines()[-1][:240] if done.stdout.strip()
            else ""}


def _env(data: Path) -> dict[str, str]:
    """The environment of the commands: this data directory, the corpus as this code finds it
    (a checkout outside /work would not find `../shared/corpus`)."""
    return {**os.environ, "KBX_DATA_DIR": str(data), "KBX_CORPUS": str(Settings().corpus)}


def _fill(mount: Path, leave_mb: float = 0) -> None:
    """A file that takes the disk's space but `leave_mb` MB."""
    free = shutil.disk_usage(mount).free - int(leave_mb * 1024 * 1024)
    with (mount / "filler").open("wb") as out:
        chunk = b"\0" * (1 << 20)
        try:
            while free > 0:
                free -= out.write(chunk[:min(len(chunk), free)])
                out.flush()
        except OSError:
            pass


def _mount(size_mb: int) -> Path:
    where = Path(tempfile.mkdtemp(prefix="kbx-disk-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(where)],
                   check=True)
    return where


def _unmount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], check=False)
    with contextlib.suppress(OSError):
        where.rmdir()


def _copy_data(target: Path) -> Path:
    """The corpus's ingested store and bundles (not the caches) in `target/var`."""
    source = Settings().corpus_dir()
    data = target / "var"
    shutil.copytree(source, data / source.name, ignore=shutil.ignore_patterns("cache"))
    return data


def _health(url: str) -> dict[str, Any]:
    try:
        body = httpx.get(url + HEALTH, timeout=5).json()
    except (httpx.HTTPError, ValueError) as exc:
        return {"error": str(exc)}
    store = body.get("store") or {}
    return {"status": body.get("status"), "reachable": store.get("reachable"),
            "error": store.get("error"), "persistence": store.get("persistence")}


def _store_persistence(env: dict[str, str]) -> Any:
    done = subprocess.run([*KBX_CMD, "status", "--json"], capture_output=True, text=True,
                          env=env, timeout=60, cwd=CODE_DIR or "/")
    try:
        return json.loads(done.stdout).get("persistence", "(not shown)")
    except ValueError:
        return done.stdout[-200:]


def _wait_writable(env: dict[str, str], seconds: float = 20) -> None:
    """After the disk is freed: the store writes again (it retries by itself)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _kbx(["kb", "load"], env)["exit"] == 0:
            return
        time.sleep(1)


def drill_disk(compaction_free_mb: float = 36.0) -> dict[str, Any]:
    """Every command on a full disk (a tmpfs of DISK_MB MB, filled), with a service running
    there; then a load that fits but whose log compaction does not (`compaction_free_mb` left:
    a whole-book load appends about 36 MB to the store's log, the rewrite needs 10 more); a
    read-only file system; a data directory the user may not write; a file size limit."""
    if os.geteuid() != 0:
        raise SystemExit("the disk drill mounts file systems: run it as root")
    result: dict[str, Any] = {}
    mount = _mount(DISK_MB)
    try:
        data = _copy_data(mount)
        env = _env(data)
        bundle = str(data / Settings().corpus_name / "bundle")
        commands = [[a.format(bundle=bundle) for a in c] for c in COMMANDS]
        loaded = _kbx(["kb", "load"], env)
        assert loaded["exit"] == 0, loaded
        with Service(env) as service:
            _fill(mount)
            result["full"] = [_kbx(c, env) for c in commands]
            result["full_health"] = _health(service.url)
            result["full_status_persistence"] = _store_persistence(env)
            (mount / "filler").unlink()
            _wait_writable(env)
            _fill(mount, compaction_free_mb)
            result["compaction"] = {"load": _kbx(["kb", "load"], env),
                                    "status_persistence": _store_persistence(env)}
            time.sleep(2.5)  # the service's store figures are kept 2 s
            result["compaction"]["health"] = _health(service.url)
            (mount / "filler").unlink()
            _wait_writable(env)
            time.sleep(2.5)
            result["after_freeing"] = {"health": _health(service.url),
                                       "status_persistence": _store_persistence(env)}
    finally:
        _unmount(mount)
    result["read_only"] = _read_only()
    result["permission"] = _not_permitted()
    result["file_size_limit"] = _file_size_limit()
    return result


def _read_only() -> list[dict[str, Any]]:
    """A data directory on a file system mounted read-only (no store server runs there)."""
    mount = _mount(DISK_MB)
    try:
        data = _copy_data(mount)
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        env = _env(data)
        bundle = str(data / Settings().corpus_name / "bundle")
        return [_kbx([a.format(bundle=bundle) for a in c], env) for c in COMMANDS[:4]]
    finally:
        _unmount(mount)


def _not_permitted() -> list[dict[str, Any]]:
    """A data directory the user may read but not write: its directories 0555 and files 0444,
    the commands run as root without the capabilities that override file modes
    (`setpriv`), so the owner's bits apply (EACCES)."""
    where = Path(tempfile.mkdtemp(prefix="kbx-perm-"))
    try:
        data = _copy_data(where)
        for path in [*data.rglob("*"), data]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        env = _env(data)
        bundle = str(data / Settings().corpus_name / "bundle")
        drop = "-dac_override,-dac_read_search"
        prefix = ["setpriv", f"--inh-caps={drop}", f"--bounding-set={drop}", "--"]
        return [_kbx([a.format(bundle=bundle) for a in c], env, prefix=prefix)
                for c in COMMANDS[:4]]
    finally:
        for path in [where, *where.rglob("*")]:
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(where, ignore_errors=True)


def _file_size_limit() -> list[dict[str, Any]]:
    """`ulimit -f` of 1 MB: a write past it fails with EFBIG (Python ignores SIGXFSZ)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    where = Path(tempfile.mkdtemp(prefix="kbx-fsize-"))
    try:
        return [_kbx(["ingest"], _env(where / "var"), limit)]
    finally:
        shutil.rmtree(where, ignore_errors=True)


def drill_docs() -> dict[str, Any]:
    """The addresses `/docs` and `/redoc` name in their HTML (scripts, styles, icons) that are
    not of this origin (the browser test, tests/test_docs_offline.py, loads them)."""
    import re

    found: dict[str, Any] = {}
    with Service() as service:
        for path in ("/docs", "/redoc"):
            page = httpx.get(service.url + path, timeout=30)
            names = re.findall(r'(?:src|href|url)[=:]\s*["\']([^"\']+)["\']', page.text)
            found[path] = {"status": page.status_code, "named": len(names),
                           "outside": [n for n in names if n.startswith(("http:", "https:", "//"))
                                       and "127.0.0.1" not in n],
                           "csp": page.headers.get("content-security-policy")}
    return found


ADMIN_KEY = "drill-admin-key-0123456789"


def drill_workers() -> dict[str, Any]:
    """Two services (two workers of one store and data directory): a question asked of the
    first, its follow-up (`session_id`) of the second; then a new alias written into a copy of
    the curated bundle, `/admin/reload` through the first, and how long until the second's
    name suggestions know it (at most 20 s)."""
    with tempfile.TemporaryDirectory(prefix="kbx-workers-") as scratch:
        bundle = Path(scratch) / "bundle"
        shutil.copytree(Settings().bundle, bundle, ignore=shutil.ignore_patterns("review"))
        env = {"KBX_BUNDLE": str(bundle), "KBX_API_KEY": ADMIN_KEY}
        with Service(env) as first, Service(env) as second:
            began = httpx.post(first.url + "/ask", json={"question": "鲁智深和林冲怎么认识？"},
                               timeout=60).json()
            followed = httpx.post(second.url + "/ask", timeout=60, json={
                "question": "他们后来怎么样了？", "session_id": began["session_id"]})
            body = followed.json()
            result: dict[str, Any] = {
                "first": {"people": began["plan"]["people"]},
                "follow_up_on_second": {
                    "status": followed.status_code,
                    "follow_up": body.get("plan", {}).get("follow_up"),
                    "people": body.get("plan", {}).get("people"),
                    "detail": body.get("detail")}}
            alias = "沧州囚徒"
            shard = bundle / "shards" / "ch007.jsonl"
            lines = shard.read_text(encoding="utf-8").splitlines()
            for n, line in enumerate(lines):
                row = json.loads(line)
                if row.get("record") == "person" and row.get("id") == "lin_chong":
                    row["aliases"] = [*row.get("aliases", []), alias]
                    lines[n] = json.dumps(row, ensure_ascii=False)
                    break
            shard.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            from kb.knowledge.manifest import write_manifest

            write_manifest(bundle)
            before = httpx.get(second.url + "/kb/suggest", params={"q": alias}).json()
            reloaded = httpx.post(first.url + "/admin/reload", timeout=300,
                                  headers={"X-API-Key": ADMIN_KEY})
            done = time.monotonic()
            seen = None
            while time.monotonic() - done < 20:
                if httpx.get(second.url + "/kb/suggest", params={"q": alias}).json():
                    seen = round(time.monotonic() - done, 2)
                    break
                time.sleep(0.1)
            result["reload_through_first"] = {
                "status": reloaded.status_code, "second_knew_before": bool(before),
                "second_knows_after_s": seen if seen is not None else "not within 20 s"}
    return result


def drill_admin(attempts: int = 2000) -> dict[str, Any]:
    """`KBX_API_KEY=a`: what /admin/reload answers; with a long key, `attempts` wrong keys as
    fast as one client sends them: the statuses, and the time they took."""
    result: dict[str, Any] = {}
    with Service({"KBX_API_KEY": "a"}) as service:
        answer = httpx.post(service.url + "/admin/reload", headers={"X-API-Key": "a"}, timeout=60)
        result["key_a"] = {"status": answer.status_code, "detail": answer.json().get("detail")}
    with Service({"KBX_API_KEY": ADMIN_KEY}) as service, \
            httpx.Client(base_url=service.url, timeout=30) as http:
        statuses: dict[str, int] = {}
        began = time.monotonic()
        for n in range(attempts):
            status = http.post("/admin/reload", headers={"X-API-Key": f"guess-{n:06d}"}
                               ).status_code
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        result["wrong_keys"] = {"attempts": attempts, "seconds": round(time.monotonic() - began, 2),
                                "statuses": statuses}
    return result


DRILLS = {"kill": drill_kill, "stop": drill_stop, "loads": drill_loads, "inputs": drill_inputs,
          "security": drill_security, "windows": drill_windows, "disk": drill_disk,
          "docs": drill_docs, "workers": drill_workers, "admin": drill_admin}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("drill", choices=[*DRILLS, "all"])
    parser.add_argument("--code", help="run `kbx` from this checkout (its cli.main)")
    args = parser.parse_args()
    if args.code:
        global CODE_DIR
        CODE_DIR = str(Path(args.code).resolve())
        KBX_CMD[:] = [sys.executable, "-c", "from cli.main import app; app()"]
    names = list(DRILLS) if args.drill == "all" else [args.drill]
    load = os.getloadavg()[0]
    for name in names:
        started = time.monotonic()
        result = DRILLS[name]()
        result["seconds"] = round(time.monotonic() - started, 1)
        result["load_average_at_start"] = round(load, 2)
        print(json.dumps({name: result}, ensure_ascii=False, indent=2))
        load = os.getloadavg()[0]


if __name__ == "__main__":
    main()
