"""Reproduce the figures of docs/performance.md: whole commands under /usr/bin/time, the service's
start and memory, and the server time of the knowledge routes.

Usage (from the repository, after `kbx ingest` and `kbx kb load`; settings from the environment):
  python scripts/perf.py commands [--runs 5] [--baseline DIR]
                                               kbx --help, pair, ask: cold store and warm store
                                               (DIR: another checkout, run alternately beside)
  python scripts/perf.py health [--runs 5] [--workers 1]
                                               `kbx serve` start → /health ok, and → ready
                                               (its parts open); idle RSS and PSS
  python scripts/perf.py api [--requests 200]  server time (the access log's ms) and bytes of
                                               GET /kb/journey/{hub} and /kb/pair by name and id

Medians of the runs; every figure comes from a process of its own (no warm caches in Python).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
KBX = str(BIN / "kbx")
TIME = "/usr/bin/time"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def timed(command: list[str], runs: int, env: dict[str, str],
          baseline: Path | None = None) -> dict[str, object]:
    """Medians over `runs` of wall, user and system seconds and peak RSS (MiB), by /usr/bin/time.
    With `baseline` (another checkout of this repository) the same command also runs on its code
    (PYTHONPATH), alternating which goes first, and both medians are reported side by side."""
    sides = {"this": (env, REPO)}
    if baseline is not None:
        sides["baseline"] = ({**env, "PYTHONPATH": str(baseline)}, baseline)
    rows: dict[str, list[tuple[float, float, float, float]]] = {side: [] for side in sides}
    for run in range(runs):
        for side in (list(sides) if run % 2 == 0 else list(reversed(sides))):
            side_env, cwd = sides[side]
            with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
                subprocess.run([TIME, "-o", out.name, "-f", "%e %U %S %M", *command],
                               env=side_env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=False, cwd=cwd)
                wall, user, system, rss = out.read().split()[-4:]
            rows[side].append((float(wall), float(user), float(system), int(rss) / 1024))
    medians = {side: {key: round(statistics.median(r[i] for r in found), 3)
                      for i, key in enumerate(("wall_s", "user_s", "sys_s", "max_rss_mib"))}
               for side, found in rows.items()}
    return medians["this"] if baseline is None else medians


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serving(workers: int = 1, log: Path | None = None, env: dict[str, str] | None = None
            ) -> Iterator[tuple[str, subprocess.Popen[bytes], float, float]]:
    """`kbx serve` on a free port until /health says ok and ready: (base url, process, seconds
    to the first ok, seconds to ready). The service serves (`ok`, `ready: false`) while it still
    opens its parts (corpus, store, answers: requests wait for them), then says `ready: true`."""
    port = free_port()
    started = time.perf_counter()
    stderr = log.open("wb") if log else subprocess.DEVNULL
    process = subprocess.Popen([KBX, "serve", "--port", str(port), "--workers", str(workers)],
                               env=env or _env(), stdout=subprocess.DEVNULL, stderr=stderr,
                               cwd=REPO, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    ok: float | None = None
    try:
        with httpx.Client(timeout=5) as client:
            while True:
                if process.poll() is not None:
                    raise SystemExit(f"kbx serve exited with {process.returncode}")
                try:
                    body = client.get(f"{base}/health").json()
                except httpx.HTTPError:
                    body = {}
                if body.get("status") == "ok":
                    ok = ok if ok is not None else time.perf_counter() - started
                    if body.get("ready", True):
                        break
                time.sleep(0.005)
        yield base, process, ok, time.perf_counter() - started
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if log:
            stderr.close()  # type: ignore[union-attr]


def memory_of(pid: int) -> dict[str, float | str]:
    """RSS and PSS (MiB) of a process: PSS shares each shared page among the processes that map
    it, so the PSS of several workers adds up to what they really hold together."""
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            values[key.lower() + "_mib"] = int(rest.split()[0]) / 1024
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    return {**values, "command": " ".join(c.decode(errors="replace") for c in command[:3])}


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def cmd_commands(args: argparse.Namespace) -> None:
    # one data directory for both sides of a comparison (the default `var` is the cwd's)
    env = _env(KBX_DATA_DIR=os.environ.get("KBX_DATA_DIR", str(REPO / "var")))
    base = args.baseline.resolve() if args.baseline else None
    subprocess.run([KBX, "--help"], env=env, stdout=subprocess.DEVNULL, check=True)  # bytecode
    question = "林冲和鲁智深怎么认识的？"
    pair, ask = [KBX, "pair", "林冲", "鲁智深"], [KBX, "ask", question]
    for warm_up in (pair, ask) if base else ():
        subprocess.run(warm_up, env={**env, "PYTHONPATH": str(base)}, cwd=base, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report: dict[str, object] = {"load_before": os.getloadavg()[0],
                                 "help": timed([KBX, "--help"], args.runs, env, base)}
    report["pair_cold_store"] = timed(pair, args.runs, env, base)
    report["ask_cold_store"] = timed(ask, args.runs, env, base)
    with serving(env=env):  # a service holds the store: commands reuse it, as beside `make demo`
        report["pair_warm_store"] = timed(pair, args.runs, env, base)
        report["ask_warm_store"] = timed(ask, args.runs, env, base)
    report["load_after"] = os.getloadavg()[0]
    print(json.dumps(report, ensure_ascii=False, indent=2))


def cmd_health(args: argparse.Namespace) -> None:
    starts, readies, memory = [], [], []
    for _ in range(args.runs):
        with serving(args.workers) as (_base, process, seconds, ready):
            starts.append(seconds)
            readies.append(ready)
            time.sleep(args.idle)
            pids = [process.pid, *children(process.pid)]  # the supervisor and its workers
            memory.append([memory_of(p) for p in pids])
    last = [m for m in memory[-1] if "redis-server" not in str(m["command"])]  # the store apart
    print(json.dumps({
        "workers": args.workers, "runs": args.runs,
        "health_ok_after_s": round(statistics.median(starts), 3),
        "all_s": [round(s, 3) for s in starts],
        "ready_after_s": round(statistics.median(readies), 3),
        "all_ready_s": [round(s, 3) for s in readies],
        "idle_rss_mib_sum": round(sum(float(m["rss_mib"]) for m in last), 1),
        "idle_pss_mib_sum": round(sum(float(m["pss_mib"]) for m in last), 1),
        "per_process": memory[-1]}, indent=2))


def cmd_api(args: argparse.Namespace) -> None:
    """The access log names the path without its query, in the order requests were served: the
    client asks one at a time, so each logged time is matched to the request it timed."""
    hubs = args.hubs.split(",")
    paths = [*(f"/kb/journey/{h}" for h in hubs),
             "/kb/pair?a=林冲&b=鲁智深", "/kb/pair?a=lin_chong&b=lu_zhishen",
             "/kb/pair?a=宋江&b=吴用", "/kb/pair?a=song_jiang&b=wu_yong"]
    asked: list[str] = []
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "serve.log"
        with serving(log=log, env=_env(KBX_LOG_LEVEL="INFO")) as (base, _process, _ok, _ready), \
                httpx.Client(base_url=base, timeout=10) as client:
            for round_ in range(args.requests + 1):  # round 0 warms up and is not counted
                for path in paths:
                    response = client.get(path)
                    response.raise_for_status()
                    sizes[path] = len(response.content)
                    asked.append(path if round_ else "")
        logged = []
        for line in log.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):
                row = json.loads(line)
                if row.get("msg") == "request" and row.get("path", "").startswith("/kb/"):
                    logged.append(float(row["ms"]))
    if len(logged) != len(asked):
        raise SystemExit(f"{len(logged)} logged requests for {len(asked)} asked")
    report = {}
    for path in paths:
        samples = sorted(ms for p, ms in zip(asked, logged, strict=True) if p == path)
        report[path] = {"bytes": sizes[path], "server_ms_p50": statistics.median(samples),
                        "server_ms_p99": samples[min(len(samples) - 1,
                                                     int(0.99 * len(samples)))],
                        "n": len(samples)}
    print(json.dumps(report, ensure_ascii=False, indent=2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    commands = sub.add_parser("commands")
    commands.add_argument("--runs", type=int, default=5)
    commands.add_argument("--baseline", type=Path, help="another checkout: its code side by side")
    health = sub.add_parser("health")
    health.add_argument("--runs", type=int, default=5)
    health.add_argument("--workers", type=int, default=1)
    health.add_argument("--idle", type=float, default=2.0, help="seconds idle before RSS")
    api = sub.add_parser("api")
    api.add_argument("--requests", type=int, default=200)
    api.add_argument("--hubs", default="宋江,林冲")
    args = parser.parse_args()
    {"commands": cmd_commands, "health": cmd_health, "api": cmd_api}[args.what](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
