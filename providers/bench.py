"""Relation provider benchmark: load time and pair, journey and path latency, side by side."""

from __future__ import annotations

import functools
import gc
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.journey import journey_of
from kb.knowledge.protocol import RelationProvider

PAIR_TARGETS_MS = {"p50": 1.0, "p99": 3.0}
"""Issue 3: a pair lookup through FalkorDB within 1 ms at p50 and 3 ms at p99."""


class Latency(BaseModel):
    """Milliseconds per call; percentiles by nearest rank (the ⌈q·n⌉-th smallest sample)."""

    n: int
    p50_ms: float
    p99_ms: float
    mean_ms: float


class BackendFigures(BaseModel):
    backend: str
    load_s: float = 0.0
    pair: Latency
    journey: Latency
    path: Latency


class BenchReport(BaseModel):
    bundle: dict[str, int]
    samples: int
    backends: list[BackendFigures]
    pair_targets_ms: dict[str, float] = PAIR_TARGETS_MS
    gc_during_timing: bool = False
    falkordb_meets_targets: bool | None = None


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest rank: the ⌈q·n⌉-th smallest value (q in (0, 1])."""
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


def measure(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def latency(calls: Sequence[Callable[[], object]], samples: int) -> Latency:
    """Time `samples` calls cycling through `calls`, after one warm-up pass over them.

    As `timeit` does, the garbage collector is off while timing (and run just before), so a
    collection triggered by earlier allocations is not charged to one unlucky call."""
    for call in calls:
        call()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        times = sorted(measure(calls[i % len(calls)]) for i in range(samples))
    finally:
        if enabled:
            gc.enable()
    return Latency(n=samples, p50_ms=round(percentile(times, 0.5), 4),
                   p99_ms=round(percentile(times, 0.99), 4),
                   mean_ms=round(statistics.fmean(times), 4))


@dataclass(frozen=True)
class Workload:
    pairs: list[tuple[str, str]]
    people: list[str]
    paths: list[tuple[str, str]]


def workload(bundle: KnowledgeBundle, n_paths: int = 100, seed: int = 0) -> Workload:
    """Every related pair, everyone with events, and random pairs of people for paths."""
    pairs = sorted({(r.source, r.target) for r in bundle.relations})
    people = sorted({p for e in bundle.events for p in e.person_ids})
    ids = sorted(p.id for p in bundle.people)
    rng = random.Random(seed)
    paths = [tuple(rng.sample(ids, 2)) for _ in range(n_paths)] if len(ids) > 1 else []
    return Workload(pairs, people, [(a, b) for a, b in paths])


def _calls(provider: RelationProvider, work: Workload
           ) -> dict[str, list[Callable[[], object]]]:
    return {
        "pair": [functools.partial(provider.pair, a, b) for a, b in work.pairs],
        "journey": [functools.partial(journey_of, provider, p) for p in work.people],
        "path": [functools.partial(provider.path, a, b) for a, b in work.paths],
    }


def bench_provider(name: str, provider: RelationProvider, bundle: KnowledgeBundle,
                   samples: int, loads: int = 3) -> BackendFigures:
    """Median of `loads` loads (a replayed load replaces the graph), then the latencies."""
    load_times = [provider.load(bundle).seconds for _ in range(loads)]
    calls = _calls(provider, workload(bundle))
    figures = {op: latency(fns, samples) for op, fns in calls.items() if fns}
    empty = Latency(n=0, p50_ms=0.0, p99_ms=0.0, mean_ms=0.0)
    return BackendFigures(backend=name, load_s=round(statistics.median(load_times), 4),
                          pair=figures.get("pair", empty), journey=figures.get("journey", empty),
                          path=figures.get("path", empty))


def run_bench(providers: Mapping[str, RelationProvider], bundle: KnowledgeBundle,
              samples: int = 2000) -> BenchReport:
    backends = [bench_provider(name, p, bundle, samples) for name, p in providers.items()]
    falkor = next((b for b in backends if b.backend == "falkordb"), None)
    meets = None if falkor is None else (falkor.pair.p50_ms <= PAIR_TARGETS_MS["p50"]
                                         and falkor.pair.p99_ms <= PAIR_TARGETS_MS["p99"])
    return BenchReport(bundle=bundle.counts(), samples=samples, backends=backends,
                       falkordb_meets_targets=meets)
