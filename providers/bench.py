"""Relation provider benchmark: load time, and pair (by id and by name), journey and path latency,
FalkorDB and networkx side by side, hub characters' journeys apart.

Pairs are timed the way people ask for them too: by name (`person_id` of both names through the
resolver, then the pair), beside the same pairs by id. Journeys are read as stored at load: the
whole skeleton (`journey`, what `/ask` uses) for everyone with events, and for the `HUBS` people
with the most events the skeleton and the default view (`journey_digest`, what
`GET /kb/journey/{person}` returns). Each timing round goes over every operation; `runs` rounds
are reported one by one, so that a target is seen met (or not) run after run.
"""

from __future__ import annotations

import functools
import gc
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.protocol import RelationProvider

PAIR_TARGETS_MS = {"p50": 1.0, "p99": 3.0}
"""A pair lookup through FalkorDB within 1 ms at p50 and 3 ms at p99."""
HUBS = 10
OPERATIONS = ("pair", "pair_by_name", "journey", "journey_hubs", "digest_hubs", "path")


class Latency(BaseModel):
    """Milliseconds per call; percentiles by nearest rank (the ⌈q·n⌉-th smallest sample)."""

    n: int
    p50_ms: float
    p99_ms: float
    mean_ms: float


class BackendFigures(BaseModel):
    backend: str
    load_s: float = 0.0
    runs: list[dict[str, Latency]]
    """one entry per timing round: operation → latency"""

    def median_p50(self, op: str) -> float:
        return statistics.median(run[op].p50_ms for run in self.runs if op in run)


class BenchReport(BaseModel):
    bundle: dict[str, int]
    samples: int
    hubs: list[str]
    backends: list[BackendFigures]
    pair_targets_ms: dict[str, float] = PAIR_TARGETS_MS
    gc_during_timing: bool = False
    falkordb_runs_meeting_targets: int | None = None
    name_over_id_p50: dict[str, float] = {}


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
    named_pairs: list[tuple[str, str]]
    """the same pairs by the people's names (those whose names denote them)"""
    people: list[str]
    hubs: list[str]
    paths: list[tuple[str, str]]


def workload(bundle: KnowledgeBundle, provider: RelationProvider, n_paths: int = 100,
             seed: int = 0) -> Workload:
    """Every related pair (by ids, and by names), everyone with events, the hubs (most events)
    and random pairs of people for paths."""
    pairs = sorted({(r.source, r.target) for r in bundle.relations})
    names = {p.id: p.name for p in bundle.people}
    named = [(names[a], names[b]) for a, b in pairs
             if _denotes(provider, names[a], a) and _denotes(provider, names[b], b)]
    events = Counter(p for e in bundle.events for p in dict.fromkeys(e.person_ids))
    people = sorted(events)
    hubs = [pid for pid, _ in sorted(events.items(), key=lambda kv: (-kv[1], kv[0]))[:HUBS]]
    ids = sorted(p.id for p in bundle.people)
    rng = random.Random(seed)
    paths = [tuple(rng.sample(ids, 2)) for _ in range(n_paths)] if len(ids) > 1 else []
    return Workload(pairs, named, people, hubs, [(a, b) for a, b in paths])


def _denotes(provider: RelationProvider, name: str, person_id: str) -> bool:
    try:
        return provider.person_id(name) == person_id
    except Exception:  # an ambiguous name is left out of the by-name workload
        return False


def _by_name(provider: RelationProvider, a: str, b: str) -> object:
    return provider.pair(provider.person_id(a), provider.person_id(b))


def _calls(provider: RelationProvider, work: Workload
           ) -> dict[str, list[Callable[[], object]]]:
    return {
        "pair": [functools.partial(provider.pair, a, b) for a, b in work.pairs],
        "pair_by_name": [functools.partial(_by_name, provider, a, b) for a, b in work.named_pairs],
        "journey": [functools.partial(provider.journey, p) for p in work.people],
        "journey_hubs": [functools.partial(provider.journey, p) for p in work.hubs],
        "digest_hubs": [functools.partial(provider.journey_digest, p) for p in work.hubs],
        "path": [functools.partial(provider.path, a, b) for a, b in work.paths],
    }


def bench_provider(name: str, provider: RelationProvider, bundle: KnowledgeBundle,
                   samples: int, loads: int = 3, runs: int = 1) -> tuple[BackendFigures, Workload]:
    """Median of `loads` loads (a replayed load replaces the graph), then `runs` timing rounds."""
    load_times = [provider.load(bundle).seconds for _ in range(loads)]
    work = workload(bundle, provider)
    calls = _calls(provider, work)
    rounds = [{op: latency(fns, samples) for op, fns in calls.items() if fns}
              for _ in range(runs)]
    return BackendFigures(backend=name, load_s=round(statistics.median(load_times), 4),
                          runs=rounds), work


def run_bench(providers: Mapping[str, RelationProvider], bundle: KnowledgeBundle,
              samples: int = 2000, runs: int = 1) -> BenchReport:
    results = [bench_provider(name, p, bundle, samples, runs=runs)
               for name, p in providers.items()]
    backends = [figures for figures, _ in results]
    hubs = results[0][1].hubs if results else []
    falkor = next((b for b in backends if b.backend == "falkordb"), None)
    meeting = None if falkor is None else sum(
        run["pair"].p50_ms <= PAIR_TARGETS_MS["p50"] and run["pair"].p99_ms <= PAIR_TARGETS_MS["p99"]
        for run in falkor.runs if "pair" in run)
    ratios = {b.backend: round(b.median_p50("pair_by_name") / b.median_p50("pair"), 3)
              for b in backends if b.runs and "pair_by_name" in b.runs[0] and "pair" in b.runs[0]}
    return BenchReport(bundle=bundle.counts(), samples=samples, hubs=hubs, backends=backends,
                       falkordb_runs_meeting_targets=meeting, name_over_id_p50=ratios)
