"""The figures of a library of books: build time and peak RSS of one book, the idle service's
memory with one book built and with ten, a cold book's first answer, and the same ten graphs
held by one FalkorDB server instead of one server per book (why each book has its own).

    .venv/bin/python scripts/bench_books.py [--books 10] [--port 8190] [--data DIR] [--json]

Everything is built in a fresh data directory (default: a temporary one, removed after): the
first book is 三国演义 through the README's route (`kbx build … --book sanguo`) under
`/usr/bin/time -v`; the others are copies of the shared 三国 and 水浒 texts under other names,
built from their text alone. Memory is the resident set (VmRSS) of the service process plus
every embedded FalkorDB server (redis-server) of the data directory, read from /proc; the
keepers (a small process per server) are counted apart. A cold book is one the service has not
opened (its store not running): its first answer is timed from the request to the response.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
KBX = REPO / ".venv" / "bin" / "kbx"
SHARED = REPO.parent / "shared" / "corpus"
SANGUO = SHARED / "sanguo" / "zh-hans"
SHUIHU = SHARED / "shuihu" / "zh-hant"
QUESTION = "{}是谁？"


def rss_kb(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(found.group(1)) if found else 0


def stores(data: Path) -> list[dict[str, int]]:
    """The running embedded servers of the data directory (their server.json)."""
    found = []
    for state in [data / "falkordb" / "server.json", *(data / "stores").glob("*/server.json")]:
        try:
            found.append(json.loads(state.read_text()))
        except (OSError, ValueError):
            continue
    return found


def memory(service_pid: int, data: Path) -> dict[str, float]:
    servers = stores(data)
    service = rss_kb(service_pid) / 1024
    store = sum(rss_kb(s["pid"]) for s in servers) / 1024
    keepers = sum(rss_kb(s.get("keeper", 0)) for s in servers) / 1024
    return {"service_mb": round(service, 1), "stores_mb": round(store, 1),
            "total_mb": round(service + store, 1), "keepers_mb": round(keepers, 1),
            "servers": len(servers)}


def env_for(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KBX_", "OPENAI_"))}
    env.pop("FALKORDB_URL", None)
    return {**env, "KBX_DATA_DIR": str(data), **extra}


def build(data: Path, corpus: Path, book: str) -> dict[str, float]:
    """`kbx build` under /usr/bin/time -v: wall seconds and peak RSS."""
    result = subprocess.run(["/usr/bin/time", "-v", str(KBX), "build", str(corpus), "--book", book,
                             "--json"], env=env_for(data), capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        raise SystemExit(f"kbx build {book} failed:\n{result.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", result.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    assert wall and peak
    parts = [float(p) for p in wall.group(1).split(":")]
    seconds = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    return {"seconds": round(seconds, 1), "peak_rss_mb": round(int(peak.group(1)) / 1024, 1)}


class Service:
    """`kbx serve` on the data directory, its default book `default`."""

    def __init__(self, data: Path, port: int, default: str, idle: float) -> None:
        self.data, self.base = data, f"http://127.0.0.1:{port}"
        log = (data / f"serve-{port}.log").open("w")
        self.process = subprocess.Popen(
            [str(KBX), "serve", "--port", str(port), "--no-access-log"],
            env=env_for(data, KBX_BOOK=default, KBX_BOOK_IDLE=str(idle)), stdout=log,
            stderr=subprocess.STDOUT)
        self.client = httpx.Client(base_url=self.base, timeout=60)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if self.client.get("/health").json().get("ready"):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"the service did not start; see {log.name}")

    def ask(self, book: str, name: str) -> float:
        mark = time.perf_counter()
        response = self.client.post("/ask", json={"question": QUESTION.format(name),
                                                  "book": book})
        elapsed = time.perf_counter() - mark
        response.raise_for_status()
        return elapsed

    def hub(self, book: str) -> str:
        return str(self.client.get(f"/books/{book}").json()["hubs"][0]["name"])

    def memory(self) -> dict[str, float]:
        return memory(self.process.pid, self.data)

    def stop(self) -> None:
        self.client.close()
        self.process.terminate()
        self.process.wait(30)


def settle(seconds: float = 3.0) -> None:
    time.sleep(seconds)


def one_server_for_all(data: Path, names: list[str]) -> dict[str, float]:
    """The same graphs loaded into one embedded server (graph kbx:<book> each): its RSS."""
    from core.books import for_book
    from core.settings import Settings
    from kb.knowledge.loading import load_active_bundle
    from providers.factory import open_provider

    root = Settings(data_dir=data)
    directory = data / "one-server"
    shutil.rmtree(directory, ignore_errors=True)  # a fresh server: no graph of an earlier run
    rss_one = 0.0
    providers = []
    for number, name in enumerate(names, start=1):
        cfg = for_book(root, name).model_copy(update={"store_dir": directory})
        provider = open_provider(cfg)
        provider.load(load_active_bundle(cfg))
        providers.append(provider)
        if number == 1:
            rss_one = sum(rss_kb(s["pid"]) for s in _states(directory)) / 1024
    rss_all = sum(rss_kb(s["pid"]) for s in _states(directory)) / 1024
    for provider in providers:
        provider.close()
    return {"one_graph_mb": round(rss_one, 1), "all_graphs_mb": round(rss_all, 1),
            "graphs": len(names)}


def _states(directory: Path) -> list[dict[str, int]]:
    try:
        return [json.loads((directory / "server.json").read_text())]
    except (OSError, ValueError):
        return []


def run(data: Path, count: int, port: int) -> dict[str, Any]:
    """One book in `data/one` (built fresh, measured), `count` books in `data/ten` (the copies
    kept from an earlier run of the same `--data` are reused)."""
    one_dir, ten_dir = data / "one", data / "ten"
    shutil.rmtree(one_dir, ignore_errors=True)
    one_dir.mkdir(parents=True)
    ten_dir.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"books": count}
    report["build_sanguo"] = build(one_dir, SANGUO, "sanguo")
    one = Service(one_dir, port, "sanguo", idle=5)
    one.ask("sanguo", one.hub("sanguo"))
    settle()
    report["idle_one_book"] = one.memory()
    one.stop()
    names = ["sanguo"]
    copies = [(SANGUO if i % 2 else SHUIHU, f"{'sanguo' if i % 2 else 'shuihu'}-copy{i}")
              for i in range(1, count)]
    builds = []
    for corpus, name in [(SANGUO, "sanguo"), *copies]:
        if not (ten_dir / name / "book.json").is_file():
            builds.append(build(ten_dir, corpus, name)["seconds"])
        if name != "sanguo":
            names.append(name)
    report["other_builds_seconds"] = builds
    many = Service(ten_dir, port + 1, "sanguo", idle=5)
    many.ask("sanguo", many.hub("sanguo"))
    settle()
    report["idle_ten_books"] = many.memory()
    cold = []
    for name in names[1:]:
        mark = time.perf_counter()
        many.ask(name, "刘备" if name.startswith("sanguo") else "宋江")
        cold.append(round(time.perf_counter() - mark, 3))
    report["cold_first_answer_s"] = {"each": cold, "max": max(cold),
                                     "median": statistics.median(cold)}
    report["all_touched"] = many.memory()
    settle(12)  # book_idle 5 s: every book but the default closes
    report["idle_after_touching_all"] = many.memory()
    many.stop()
    report["one_server_all_graphs"] = one_server_for_all(ten_dir, names)
    ratio = report["idle_ten_books"]["total_mb"] / report["idle_one_book"]["total_mb"]
    report["ten_over_one"] = round(ratio, 2)
    report["ten_over_one_after_touching_all"] = round(
        report["idle_after_touching_all"]["total_mb"] / report["idle_one_book"]["total_mb"], 2)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=int, default=10)
    parser.add_argument("--port", type=int, default=8190)
    parser.add_argument("--data", type=Path, default=None, help="kept after the run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="kbx-bench-books-"))
    data.mkdir(parents=True, exist_ok=True)
    try:
        report = run(data.resolve(), args.books, args.port)
    finally:
        subprocess.run([sys.executable, "-c", (
            "import sys; from pathlib import Path; from providers.embedded import EmbeddedServer;"
            "d = Path(sys.argv[1]); [s.stop(force=True) for p in [*d.glob('*/falkordb'),"
            " *d.glob('*/one-server'), *d.glob('*/stores/*')] if (s := EmbeddedServer(p)).running()]"),
            str(data)],
            cwd=REPO, check=False)
        if args.data is None:
            shutil.rmtree(data, ignore_errors=True)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    _print(report)


def _print(r: dict[str, Any]) -> None:
    b = r["build_sanguo"]
    print(f"build 三国演义 (kbx build … --book sanguo): {b['seconds']} s wall, peak RSS "
          f"{b['peak_rss_mb']} MB")
    if r["other_builds_seconds"]:
        print(f"the {r['books']} books' builds: {', '.join(map(str, r['other_builds_seconds']))} s")
    for key, label in (("idle_one_book", "idle, one book built"),
                       ("idle_ten_books", f"idle, {r['books']} books built"),
                       ("all_touched", f"right after a first answer from each of the {r['books']}"),
                       ("idle_after_touching_all", "idle again (the others closed)")):
        m = r[key]
        print(f"{label:<44} service {m['service_mb']:>6} MB + stores {m['stores_mb']:>6} MB "
              f"({m['servers']} servers) = {m['total_mb']:>6} MB  [keepers {m['keepers_mb']} MB]")
    print(f"{r['books']} books / one book, idle: {r['ten_over_one']}×  (after touching all: "
          f"{r['ten_over_one_after_touching_all']}×)")
    c = r["cold_first_answer_s"]
    print(f"a cold book's first answer: max {c['max']} s, median {c['median']} s over "
          f"{len(c['each'])} books ({', '.join(map(str, c['each']))})")
    o = r["one_server_all_graphs"]
    print(f"one FalkorDB server holding all {o['graphs']} graphs instead: {o['all_graphs_mb']} MB "
          f"(one graph: {o['one_graph_mb']} MB)")


if __name__ == "__main__":
    main()
