#!/usr/bin/env python3
"""Load test: start `kbx serve`, drive a fixed mix of pair, journey, search and ask requests from
N concurrent keep-alive clients for a bounded time, print requests/s, p50, p99 and errors.

    .venv/bin/python scripts/load_test.py --clients 200 --seconds 60 --workers 2

The service runs on the settings of the environment (KBX_DATA_DIR …): ingest, extract and
`kbx kb load` first (`make demo` does all three). Loopback only. The clients are one asyncio
process speaking HTTP/1.1 over raw sockets, so that the load generator costs far less CPU than
the service it measures (on a two-core machine they share the cores).

Every client cycles through the same fixed list of requests (25% each kind) from its own offset:
a run is the same mix whatever the concurrency. An error is any answer that is not 200, a
connection failure, or a request that did not finish within `--timeout`.

Where the CPU went: the CPU time of every process involved is read from /proc/<pid>/stat at the
start and at the end of the measured window (after the warm-up) and printed per role: the
serving worker(s), the supervisor of several workers, the embedded FalkorDB server and its
keeper, this load generator, and the rest of the machine (other users). The load average at both
ends is printed beside it, since on a shared machine throughput follows the share of the cores
the service gets.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PEOPLE = ["林冲", "鲁智深", "武松", "宋江", "李逵", "杨志", "晁盖", "吴用", "史进", "柴进", "花荣",
          "卢俊义", "燕青", "高俅", "王伦", "戴宗"]
PAIRS = [("林冲", "鲁智深"), ("宋江", "李逵"), ("武松", "宋江"), ("杨志", "鲁智深"), ("晁盖", "吴用"),
         ("林冲", "高俅"), ("史进", "鲁智深"), ("宋江", "花荣"), ("卢俊义", "燕青"), ("林冲", "王伦")]
QUESTIONS = ["鲁智深和林冲怎么认识？", "武松打虎是在第几回", "林冲后来怎么样了？", "宋江为什么上梁山",
             "杨志卖刀的经过", "智取生辰纲是谁的主意", "李逵和宋江是什么关系", "鲁智深倒拔垂杨柳",
             "林冲雪夜上梁山", "燕青和卢俊义怎么认识", "花荣箭术如何", "武松醉打蒋门神"]


def quote(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def requests_mix() -> list[tuple[str, bytes]]:
    """(kind, raw HTTP/1.1 request): pair, journey, search, ask in turn."""
    out: list[tuple[str, bytes]] = []
    for i in range(max(len(PAIRS), len(PEOPLE), len(QUESTIONS))):
        a, b = PAIRS[i % len(PAIRS)]
        out.append(("pair", _get(f"/kb/pair?a={quote(a)}&b={quote(b)}")))
        out.append(("journey", _get(f"/kb/journey/{quote(PEOPLE[i % len(PEOPLE)])}")))
        out.append(("search", _get(f"/search?q={quote(QUESTIONS[i % len(QUESTIONS)])}")))
        body = json.dumps({"question": QUESTIONS[(i + 5) % len(QUESTIONS)]}).encode()
        out.append(("ask", b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                           b"application/json\r\nContent-Length: " + str(len(body)).encode()
                    + b"\r\n\r\n" + body))
    return out


def _get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a live process has used; 0 when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def machine_cpu() -> tuple[float, float]:
    """CPU seconds since boot, all cores: (busy, every user; stolen by the hypervisor)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle, steal = values[3] + values[4], values[7]  # idle + iowait; steal
    return (sum(values[:7]) - idle) / CLOCK_TICKS, steal / CLOCK_TICKS


def children(pid: int) -> list[int]:
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def service_roles(service_pid: int, workers: int) -> dict[str, list[int]]:
    """The processes whose CPU is counted, by role: with one worker uvicorn serves in the process
    it started in; with several, that process supervises worker children."""
    roles: dict[str, list[int]] = {"generator": [os.getpid()]}
    if workers == 1:
        roles["worker"] = [service_pid]
    else:
        roles["supervisor"] = [service_pid]
        number = 0
        for pid in sorted(children(service_pid)):
            if b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                roles["tracker"] = [pid]  # multiprocessing's own helper
                continue
            number += 1
            roles[f"worker{number}"] = [pid]  # each apart: an uneven share shows
    state = store_state()
    if state.get("pid"):
        roles["falkordb"] = [int(state["pid"])]
    if state.get("keeper_pid"):
        roles["keeper"] = [int(state["keeper_pid"])]
    return roles


def store_state() -> dict[str, object]:
    """`kbx status --json`: the pids of the embedded server and its keeper (empty for a URL)."""
    kbx = Path(sys.executable).parent / "kbx"
    done = subprocess.run([str(kbx), "status", "--json"], capture_output=True, text=True,
                          check=False)
    try:
        state: dict[str, object] = json.loads(done.stdout)
    except ValueError:
        return {}
    return state


@dataclass
class CpuWindow:
    """CPU seconds per role, and of the whole machine, over the measured window."""

    roles: dict[str, list[int]]
    start: dict[str, float] = field(default_factory=dict)
    end: dict[str, float] = field(default_factory=dict)
    load: list[float] = field(default_factory=list)

    def mark(self, into: dict[str, float]) -> None:
        for role, pids in self.roles.items():
            into[role] = sum(process_cpu(pid) for pid in pids)
        into["machine"], into["steal"] = machine_cpu()
        self.load.append(round(os.getloadavg()[0], 2))

    def split(self, seconds: float, requests: int) -> dict[str, object]:
        """CPU seconds by role; `others` is the rest of the machine, `steal` what the
        hypervisor gave to other guests; `serving_ms_per_request` the workers' CPU a request."""
        used = {role: self.end[role] - self.start[role] for role in self.start}
        ours = sum(v for role, v in used.items() if role in self.roles)
        serving = sum(v for role, v in used.items() if role.startswith("worker"))
        cores = os.cpu_count() or 1
        cpu = {role: used[role] for role in self.roles}
        cpu.update(others=used["machine"] - ours, steal=used["steal"],
                   idle=cores * seconds - used["machine"] - used["steal"])
        return {"cpu_s": {role: round(value, 1) for role, value in cpu.items()},
                "serving_ms_per_request": round(serving * 1000 / requests, 2) if requests
                else None, "cores": cores, "load_average": self.load}


async def observe(window: CpuWindow, start: float, deadline: float) -> None:
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    window.mark(window.start)
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    window.mark(window.end)


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)


async def read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    await reader.readexactly(length)
    return status


async def client(port: int, offset: int, mix: list[tuple[str, bytes]], start: float,
                 deadline: float, timeout: float, tally: Tally) -> None:
    reader = writer = None
    i = offset
    while time.monotonic() < deadline:
        kind, raw = mix[i % len(mix)]
        i += 1
        began = time.monotonic()
        try:
            if writer is None:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", port), timeout)
            assert reader is not None
            writer.write(raw)
            status = await asyncio.wait_for(read_response(reader), timeout)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            status = 0
            if writer is not None:
                writer.close()
            reader = writer = None
        ended = time.monotonic()
        if began < start:
            continue  # warm-up
        tally.statuses[status] = tally.statuses.get(status, 0) + 1
        if status == 200:
            tally.latencies.setdefault(kind, []).append(ended - began)
        else:
            tally.errors[kind] = tally.errors.get(kind, 0) + 1
    if writer is not None:
        writer.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(share * len(ordered) + 0.999999) - 1))]


async def drive(port: int, clients: int, seconds: float, warmup: float, timeout: float,
                window: CpuWindow) -> tuple[Tally, float]:
    mix = requests_mix()
    tally = Tally()
    start = time.monotonic() + warmup
    deadline = start + seconds
    await asyncio.gather(observe(window, start, deadline),
                         *(client(port, k * 7, mix, start, deadline, timeout, tally)
                           for k in range(clients)))
    return tally, seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    kbx = Path(sys.executable).parent / "kbx"
    with log.open("wb") as out:
        service = subprocess.Popen([str(kbx), "serve", "--port", str(port), "--workers",
                                    str(workers), "--no-access-log"], stdout=out, stderr=out,
                                   start_new_session=True)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if service.poll() is not None:
            raise SystemExit(f"the service exited; see {log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(_get("/health"))
                answer = sock.recv(65536)  # ready: its parts open, not only serving
                if b'"status":"ok"' in answer and b'"ready":true' in answer:
                    return service
        except OSError:
            pass
        time.sleep(0.5)
    stop_service(service)
    raise SystemExit(f"the service did not become healthy; see {log}")


def stop_service(service: subprocess.Popen[bytes]) -> None:
    os.killpg(service.pid, signal.SIGINT)
    try:
        service.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(service.pid, signal.SIGKILL)
        service.wait()


def report(tally: Tally, seconds: float, clients: int, workers: int) -> dict[str, object]:
    every = [x for values in tally.latencies.values() for x in values]
    total = len(every) + sum(tally.errors.values())
    kinds = {kind: {"requests": len(values) + tally.errors.get(kind, 0),
                    "p50_ms": round(percentile(values, 0.5) * 1000, 1) if values else None,
                    "p99_ms": round(percentile(values, 0.99) * 1000, 1) if values else None,
                    "errors": tally.errors.get(kind, 0)}
             for kind, values in sorted(tally.latencies.items())}
    return {"clients": clients, "workers": workers, "seconds": seconds, "requests": total,
            "requests_per_s": round(total / seconds, 1),
            "p50_ms": round(percentile(every, 0.5) * 1000, 1) if every else None,
            "p99_ms": round(percentile(every, 0.99) * 1000, 1) if every else None,
            "mean_ms": round(statistics.fmean(every) * 1000, 1) if every else None,
            "errors": sum(tally.errors.values()), "statuses": tally.statuses, "kinds": kinds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    parser.add_argument("--url", help="drive a service that is already running (port only)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    service = None
    if args.url:
        port = int(urllib.parse.urlsplit(args.url).port or 80)
    else:
        port = free_port()
        log = Path(os.environ.get("KBX_DATA_DIR", "var")) / f"load_test_{port}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        service = start_service(port, args.workers, log)
    try:
        roles = (service_roles(service.pid, args.workers) if service is not None
                 else {"generator": [os.getpid()]})
        window = CpuWindow(roles)
        tally, seconds = asyncio.run(drive(port, args.clients, args.seconds, args.warmup,
                                           args.timeout, window))
    finally:
        if service is not None:
            stop_service(service)
    result = report(tally, seconds, args.clients, args.workers)
    result.update(window.split(seconds, int(result["requests"])))  # type: ignore[call-overload]
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    print(f"{args.clients} clients × {seconds:.0f} s, {args.workers} worker(s): "
          f"{result['requests_per_s']} requests/s, p50 {result['p50_ms']} ms, "
          f"p99 {result['p99_ms']} ms, errors {result['errors']} of {result['requests']}")
    for kind, figures in result["kinds"].items():  # type: ignore[union-attr]
        print(f"  {kind:8} {figures['requests']:7} requests  p50 {figures['p50_ms']} ms  "
              f"p99 {figures['p99_ms']} ms  errors {figures['errors']}")
    cpu = result["cpu_s"]
    print(f"  CPU s over the {seconds:.0f} s on {result['cores']} cores: "
          + ", ".join(f"{role} {value}" for role, value in cpu.items())  # type: ignore[union-attr]
          + f"; load average {' -> '.join(map(str, result['load_average']))}")  # type: ignore[call-overload]
    print(f"  serving CPU per request: {result['serving_ms_per_request']} ms")


if __name__ == "__main__":
    main()
