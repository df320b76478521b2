"""`kbx kb load|stats`, `kbx people|pair|record|journey|path` and `kbx bench kb`.

FalkorDB keeps what `kb load` wrote, so the other commands read the store; with
`--provider memory` each command loads the bundle in-process first.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

import typer

from cli.common import (
    BookOpt,
    book_settings,
    collector_paused,
    console,
    err_console,
    fail,
    handle_errors,
    print_json,
)
from cli.manifest_commands import manifest_command
from core.errors import NotFound
from kb.knowledge.limits import MAX_HOPS

if TYPE_CHECKING:  # imported by the commands that use them, not at `kbx` start
    from kb.knowledge.protocol import RelationProvider
    from kb.knowledge.views import Journey, Pair, PathResult, RecordView, SourceView, Stats

P = ParamSpec("P")
R = TypeVar("R")

ProviderOpt = Annotated[str | None, typer.Option(
    "--provider", help="falkordb (default; FALKORDB_URL or the embedded server) or memory")]
BundleOpt = Annotated[Path | None, typer.Option("--bundle", help="knowledge bundle directory")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]
def _checked_name(value: str) -> str:
    """A name as the API checks a person parameter (`core.validation.checked_name`)."""
    from core.validation import checked_name

    return checked_name(value, "name")


NameArg = Annotated[str, typer.Argument(
    help="a name, alias or id, either script (豹子头, 林教頭, lin_chong)", callback=_checked_name)]


def kb_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Like `handle_errors`, but an unknown name prints its own message, which already names
    the closest known names ("unknown person 'X'; closest: …"), with exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except NotFound as exc:
            raise fail(str(exc), code=2) from None

    return handle_errors(wrapper)


@contextlib.contextmanager
def session(provider: str | None, bundle: Path | None = None,
            book: str | None = None) -> Iterator[RelationProvider]:
    """An open provider of the book's graph; a memory provider gets the bundle loaded first.
    Always closed."""
    from providers.factory import open_provider

    cfg = book_settings(book, provider=provider)
    store = open_provider(cfg, start_now=True, linger=True)
    try:
        if cfg.provider == "memory":
            from kb.knowledge.loading import load_active_bundle

            store.load(load_active_bundle(cfg, directory=bundle))
        yield store
    finally:
        store.close()


def _quote(sources: list[SourceView], limit: int = 48) -> str:
    if not sources:
        return ""
    ref = sources[0]
    text = ref.quote if len(ref.quote) <= limit else ref.quote[:limit] + "…"
    return f"「{text}」 {ref.chunk_id or f'ch{ref.chapter}'}"


def load_command(provider: ProviderOpt = None, bundle: BundleOpt = None,
                 json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Validate the bundle against the corpus and load it into the store (atomically)."""
    from kb.knowledge.loading import load_active_bundle
    from providers.factory import open_provider

    cfg = book_settings(book, provider=provider)
    directory = bundle or cfg.active_bundle_dir()
    knowledge = load_active_bundle(cfg, directory=directory)
    store = open_provider(cfg)
    try:
        report = store.load(knowledge)
    finally:
        store.close()
    if json_out:
        print_json(report)
        return
    console.print(f"loaded {directory} into {report.backend} graph {report.graph!r} in "
                  f"{report.seconds * 1000:.0f} ms: {report.people} people, {report.events} "
                  f"events, {report.relations} relations, {report.states} states, "
                  f"{report.chapters} chapters", highlight=False)
    for problem in report.persistence:  # loaded, but the store's files are behind
        err_console.print(f"[bold yellow]warning:[/] {problem}", highlight=False, soft_wrap=True)


def stats_command(provider: ProviderOpt = None, bundle: BundleOpt = None,
                  json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Record counts of the loaded knowledge base."""
    with session(provider, bundle, book) as store:
        stats = store.stats()
    if json_out:
        print_json(stats)
        return
    _print_stats(stats)


def _print_stats(stats: Stats) -> None:
    from rich.table import Table

    from cli.tables import print_table

    table = Table(title=f"{stats.backend} graph {stats.graph!r}")
    table.add_column("records")
    table.add_column("count", justify="right")
    for name in ("people", "events", "relations", "states", "chapters", "names", "sources"):
        table.add_row(name, str(getattr(stats, name)))
    for kind, count in stats.relation_types.items():
        table.add_row(f"  relation {kind}", str(count))
    print_table(table)


def people_command(provider: ProviderOpt = None, bundle: BundleOpt = None,
                   json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Everyone in the knowledge base, by first chapter."""
    from rich.table import Table

    from cli.tables import print_table
    from kb.knowledge.views import PersonView

    with session(provider, bundle, book) as store:
        people = store.people()
    if json_out:
        print_json([PersonView.of(p) for p in people])
        return
    table = Table(title=f"{len(people)} people")
    for col in ("id", "name", "aliases", "group", "first chapter"):
        table.add_column(col)
    for p in people:
        table.add_row(p.id, p.name, "、".join(p.aliases), p.group or "",
                      "" if p.first_chapter is None else str(p.first_chapter))
    print_table(table)


AllOpt = Annotated[bool, typer.Option("--all", help="list every shared event, not only the key ones")]


def pair_command(a: NameArg, b: NameArg, provider: ProviderOpt = None,
                 bundle: BundleOpt = None, json_out: JsonOpt = False, book: BookOpt = None,
                 show_all: AllOpt = False) -> None:
    """How two people met, what they are to each other and the shared events that matter."""
    from kb.knowledge.names import pair_ids

    with session(provider, bundle, book) as store:
        result = store.pair(*pair_ids(store, a, b))
    if json_out:
        print_json(result)
        return
    _print_pair(result, show_all)


def _print_pair(pair: Pair, show_all: bool = False) -> None:
    from rich.table import Table

    from cli.tables import print_table

    console.print(f"[bold]{pair.a.name}[/] ({pair.a.id}) — [bold]{pair.b.name}[/] ({pair.b.id})")
    if pair.first_met is not None:
        console.print(f"相识：第{pair.first_met.chapter}回「{pair.first_met.quote}」"
                      f"〔{pair.first_met.chunk_id}〕", highlight=False)
    names = {pair.a.id: pair.a.name, pair.b.id: pair.b.name}
    relations = Table(title=f"{len(pair.relations)} relations")
    for col in ("type", "direction", "begins", "description", "source"):
        relations.add_column(col)
    for r in pair.relations:
        arrow = (f"{names.get(r.source, r.source)} → {names.get(r.target, r.target)}"
                 if r.directed else "↔")
        begins = f"第{r.sources[0].chapter}回" if r.sources else ""
        relations.add_row(r.label, arrow, begins, r.description, _quote(r.sources))
    print_table(relations)
    key = set(pair.key_events)
    shown = pair.shared_events if show_all else [e for e in pair.shared_events if e.id in key]
    rest = len(pair.shared_events) - len(shown)
    title = f"{len(shown)} shared events" + (f" (and {rest} more: --all)" if rest else "")
    events = Table(title=title)
    for col in ("ch", "event", "place", "source"):
        events.add_column(col)
    for e in shown:
        events.add_row(str(e.chapter), e.title, e.place or "", _quote(e.sources))
    print_table(events)


def record_command(record_id: Annotated[str, typer.Argument(help="e.g. ev_ch009_001")],
                   provider: ProviderOpt = None, bundle: BundleOpt = None,
                   json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """One record with its linked records and its sources."""
    with session(provider, bundle, book) as store:
        view = store.record(record_id)
    if json_out:
        print_json(view)
        return
    _print_record(view)


def _print_record(view: RecordView) -> None:
    from rich.table import Table

    from cli.tables import print_table

    data = view.record.model_dump(exclude={"sources"})
    console.print(f"[bold]{view.kind}[/] {data.pop('id')}")
    for key, value in data.items():
        console.print(f"  {key}: {value}", highlight=False)
    for ref in view.sources:
        console.print(f"  [dim]{ref.chunk_id}[/] 「{ref.quote}」", highlight=False)
    table = Table(title=f"{len(view.linked)} linked records")
    for col in ("kind", "id", "title", "ch", "role"):
        table.add_column(col)
    for link in view.linked:
        table.add_row(link.kind, link.id, link.title,
                      "" if link.chapter is None else str(link.chapter), link.role or "")
    print_table(table)


def journey_command(name: NameArg, provider: ProviderOpt = None, bundle: BundleOpt = None,
                    json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """A person's story in stages, in book order, each with its quotes."""
    with session(provider, bundle, book) as store:
        journey = store.journey(store.person_id(name))
    if json_out:
        print_json(journey)
        return
    _print_journey(journey)


def _print_journey(journey: Journey) -> None:
    console.print(f"[bold]{journey.person.name}[/]: {len(journey.stages)} stages")
    for number, stage in enumerate(journey.stages, start=1):
        chapters = ",".join(map(str, stage.chapters))
        place = f" @ {stage.place}" if stage.place else ""
        console.print(f"\n[bold]{number}. {stage.title}[/] (ch {chapters}){place}",
                      highlight=False)
        for event in stage.events:
            console.print(f"   · {event.title}  [dim]{_quote(event.sources)}[/]", highlight=False)
        for state in stage.states:
            console.print(f"   ◦ {state.kind}: {state.value} (from ch {state.chapter})",
                          highlight=False)


def path_command(a: NameArg, b: NameArg, max_hops: Annotated[int, typer.Option(
                     "--max-hops", min=1, max=MAX_HOPS)] = MAX_HOPS,
                 provider: ProviderOpt = None, bundle: BundleOpt = None,
                 json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """How two people are linked through others (shortest chain of relations)."""
    from core.validation import two_people

    with session(provider, bundle, book) as store:
        a_id, b_id = store.person_id(a), store.person_id(b)
        two_people(a_id, b_id, "path")  # as `kbx pair A A` and the API refuse them
        result = store.path(a_id, b_id, max_hops)
    if json_out:
        print_json(result)
        return
    _print_path(result)


def _print_path(result: PathResult) -> None:
    if not result.found:
        console.print(f"no chain of at most {result.max_hops} relations links "
                      f"{result.source.name} and {result.target.name}")
        return
    names = {p.id: p.name for p in result.people}
    console.print(f"[bold]{len(result.hops)} hop(s)[/]: "
                  + " → ".join(p.name for p in result.people))
    for hop in result.hops:
        labels = "、".join(r.label for r in hop.relations)
        console.print(f"  {names[hop.source]} —[{labels}]— {names[hop.target]}  "
                      f"[dim]{_quote(hop.relations[0].sources) if hop.relations else ''}[/]",
                      highlight=False)


def bench_kb_command(samples: Annotated[int, typer.Option("--samples", min=10)] = 2000,
                     runs: Annotated[int, typer.Option("--runs", min=1, max=10,
                                                       help="timing rounds")] = 3,
                     bundle: BundleOpt = None, json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Load time; pair (by id and by name), journey (everyone; the hubs apart) and path latency
    (p50 / p99): FalkorDB and networkx side by side, one column per timing round."""
    from rich.table import Table

    from cli.tables import print_table
    from kb.knowledge.loading import load_active_bundle
    from providers.bench import OPERATIONS, run_bench
    from providers.factory import open_provider
    from providers.falkordb_provider import FalkorDBProvider

    cfg = book_settings(book)
    knowledge = load_active_bundle(cfg, directory=bundle)
    memory = open_provider(cfg, "memory")
    falkor = open_provider(cfg, "falkordb", graph=f"kbx:{cfg.corpus_name}:bench")
    try:
        report = run_bench({"falkordb": falkor, "memory": memory}, knowledge, samples, runs)
    finally:
        if isinstance(falkor, FalkorDBProvider):
            falkor.drop()
        falkor.close()
        memory.close()
    if json_out:
        print_json(report)
        return
    table = Table(title=f"relation providers: {report.samples} calls per operation and round, "
                        "latency p50 / p99 in ms")
    for col in ("backend", "load ms", "operation", *(f"round {i + 1}" for i in range(runs))):
        table.add_column(col, justify="right")
    for b in report.backends:
        for number, op in enumerate(o for o in OPERATIONS if o in b.runs[0]):
            table.add_row(b.backend if number == 0 else "",
                          f"{b.load_s * 1000:.0f}" if number == 0 else "", op,
                          *(f"{run[op].p50_ms:.3f} / {run[op].p99_ms:.3f}" for run in b.runs))
    print_table(table)
    console.print(f"hubs (most events): {', '.join(report.hubs)}", highlight=False)
    console.print("pair by name / pair by id (median p50): " + ", ".join(
        f"{k} {v:.2f}×" for k, v in report.name_over_id_p50.items()), highlight=False)
    console.print(f"pair targets (FalkorDB): p50 ≤ {report.pair_targets_ms['p50']} ms, "
                  f"p99 ≤ {report.pair_targets_ms['p99']} ms — met in "
                  f"{report.falkordb_runs_meeting_targets} of {runs} rounds", highlight=False)


PairsOpt = Annotated[Path | None, typer.Option("--pairs", help="pairs dev set (eval/kb/pairs_dev.jsonl)")]
JourneysOpt = Annotated[Path | None, typer.Option("--journeys",
                                                  help="journeys dev set (eval/kb/journeys_dev.jsonl)")]


def eval_command(pairs: PairsOpt = None, journeys: JourneysOpt = None,
                 provider: ProviderOpt = None, bundle: BundleOpt = None,
                 json_out: JsonOpt = False, book: BookOpt = None) -> None:
    """Pairs right (relation, where it begins, a shared event) and journeys' key-stage recall,
    against a reader's expectations (rules in kb/knowledge/evaluation.py)."""
    from rich.table import Table

    from cli.tables import print_table
    from core.errors import NotFound, QueryRejected
    from ingest.chunking import chunk_corpus
    from ingest.corpus import read_corpus
    from ingest.locate import QuoteError, QuoteLocator
    from kb.knowledge.evaluation import (
        JourneyCase,
        PairCase,
        PairVerdict,
        judge_journey,
        judge_pair,
        read_cases,
    )
    from kb.knowledge.names import pair_ids
    cfg = book_settings(book, provider=provider)
    locator = QuoteLocator(chunk_corpus(read_corpus(cfg.corpus), cfg.chunk_size))

    def block_of(chapter: int, quote: str) -> str | None:
        try:
            return locator.locate(quote, chapter).chunk_id
        except QuoteError:
            return None

    pair_cases = read_cases(pairs, PairCase) if pairs else []
    journey_cases = read_cases(journeys, JourneyCase) if journeys else []
    with session(provider, bundle, book) as store:
        def verdict(case: PairCase) -> PairVerdict:
            try:
                pair = store.pair(*pair_ids(store, case.a, case.b))
            except (NotFound, QueryRejected) as exc:
                # One pair the store cannot name, or whose two names are one person there, is a
                # wrong verdict with its reason; it does not stop the rest of the file.
                return PairVerdict.unresolved(case.id, str(exc))
            return judge_pair(case, pair, block_of)

        pair_verdicts = [verdict(c) for c in pair_cases]
        journey_verdicts = [judge_journey(c, store.journey(store.person_id(c.person)),
                                          block_of) for c in journey_cases]
    found = sum(len(v.found) for v in journey_verdicts)
    total = found + sum(len(v.missed) for v in journey_verdicts)
    summary = {"pairs": len(pair_verdicts), "pairs_right": sum(v.right for v in pair_verdicts),
               "journeys": len(journey_verdicts), "key_stages": total,
               "key_stage_recall": round(found / total, 3) if total else None,
               "journeys_ending": sum(v.ends for v in journey_verdicts)}
    if json_out:
        print_json({"summary": summary, "pairs": [v.model_dump() | {"right": v.right}
                                                  for v in pair_verdicts],
                    "journeys": [v.model_dump() for v in journey_verdicts]})
        return
    table = Table(title=f"pairs right {summary['pairs_right']}/{summary['pairs']}")
    for col in ("pair", "relation", "begins", "shared event"):
        table.add_column(col)
    for v in pair_verdicts:
        table.add_row(v.id, *("✓" if x else "✗" for x in (v.relation, v.begins, v.shared_event)))
    print_table(table)
    for v in pair_verdicts:
        if v.note:
            console.print(f"{v.id}: {v.note}", highlight=False)
    stages = Table(title=f"key-stage recall {summary['key_stage_recall']} ({found}/{total}); "
                         f"ending at the last key stage {summary['journeys_ending']}/"
                         f"{summary['journeys']}")
    for col in ("journey", "found", "missed", "ends"):
        stages.add_column(col)
    for j in journey_verdicts:
        stages.add_row(j.id, "、".join(j.found), "、".join(j.missed), "✓" if j.ends else "✗")
    print_table(stages)


def register(app: typer.Typer, bench_app: typer.Typer | None = None) -> None:
    """Add the knowledge-base commands to `app` and `kb` to the `bench` group."""
    kb_app = typer.Typer(help="The knowledge base: load the bundle into the store, stats.",
                         no_args_is_help=True, rich_markup_mode=None)
    kb_app.command("load")(kb_errors(load_command))
    kb_app.command("stats")(kb_errors(collector_paused()(stats_command)))
    kb_app.command("eval")(kb_errors(eval_command))
    kb_app.command("manifest")(kb_errors(manifest_command))
    app.add_typer(kb_app, name="kb")
    for name, command in (("people", people_command), ("pair", pair_command),
                          ("record", record_command), ("journey", journey_command),
                          ("path", path_command)):
        app.command(name)(kb_errors(collector_paused()(command)))
    if bench_app is None:
        bench_app = typer.Typer(help="Benchmarks.", no_args_is_help=True, rich_markup_mode=None)
        app.add_typer(bench_app, name="bench")
    bench_app.command("kb")(kb_errors(bench_kb_command))
