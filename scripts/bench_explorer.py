"""First paint of the explorer's graph, measured in Debian's chromium (headless) through Playwright.

Usage (against a running service, e.g. the one `make demo` leaves on :8000):

    .venv/bin/python scripts/bench_explorer.py [--url http://127.0.0.1:8000] [--person 宋江] [--runs 15]

Each run opens `#/person/<person>` in a fresh browser context (empty cache, as a first visit)
and reads `window.kbxTimings.firstGraphPaint`: milliseconds from navigation start to the second
animation frame after the graph was laid out and drawn. Also printed: when the page's files
were loaded (DOMContentLoaded), and when the neighbourhood's JSON arrived. One warm-up run first.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from urllib.parse import quote

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--person", default="宋江")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    target = f"{args.url}/#/person/{quote(args.person)}"
    rows: dict[str, list[float]] = {"DOMContentLoaded": [], "graph JSON received": [],
                                    "first graph paint": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True,
                                             args=CHROMIUM_ARGS)
        for run in range(args.runs + 1):
            # bypass_csp: wait_for_function evaluates a string, which the page's CSP forbids
            context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
            page = context.new_page()
            page.goto(target)
            page.wait_for_function("window.kbxTimings && window.kbxTimings.firstGraphPaint",
                                   timeout=60_000)
            timings = page.evaluate("window.kbxTimings")
            loaded = page.evaluate(
                "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
            context.close()
            if run == 0:
                continue  # warm-up: the server's first request for this person
            rows["DOMContentLoaded"].append(loaded)
            rows["graph JSON received"].append(timings["graphData"])
            rows["first graph paint"].append(timings["firstGraphPaint"])
        browser.close()
    print(f"{target}: {args.runs} runs, fresh browser context each (ms after navigation start)")
    print(f"{'':24} {'p50':>8} {'p90':>8} {'max':>8}")
    for name, values in rows.items():
        print(f"{name:24} {statistics.median(values):8.0f} {percentile(values, 0.9):8.0f} "
              f"{max(values):8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
