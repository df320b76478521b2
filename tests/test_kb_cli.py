"""`kbx kb load|stats`, `people`, `pair`, `record`, `journey`, `path` on the real corpus and the
curated bundle (`bench kb` is in test_bench_kb.py), through the embedded FalkorDB (a load stops
the server it starts; a read leaves it to its keeper for `falkordb_linger` seconds, for the next
read)."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from core.settings import DEFAULT_BUNDLE
from providers.embedded import EmbeddedServer, free_port

pytestmark = [pytest.mark.falkordb, pytest.mark.slow]  # the curated bundle on the whole book
runner = CliRunner()


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str | None]]:
    data_dir = tmp_path_factory.mktemp("kbx-cli")
    try:
        yield {"KBX_DATA_DIR": str(data_dir), "FALKORDB_URL": None,
               "KBX_FALKORDB_PORT": str(free_port()), "KBX_PROVIDER": None}
    finally:  # a read leaves the server lingering a few seconds; stop it with the module
        EmbeddedServer(data_dir / "falkordb").stop(force=True)


@pytest.fixture(scope="module")
def loaded(env: dict[str, str | None]) -> dict[str, Any]:
    result = runner.invoke(app, ["kb", "load", "--json"], env=env)
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def kbx(env: dict[str, str | None], *args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_load_report(loaded: dict[str, Any], env: dict[str, str | None]) -> None:
    assert loaded["backend"] == "falkordb" and loaded["graph"] == "kbx:shuihu"
    assert loaded["people"] > 20 and loaded["relations"] > 20
    server = EmbeddedServer(Path(str(env["KBX_DATA_DIR"])) / "falkordb")
    assert server.running() is None  # the command stopped the server it started


def test_a_read_leaves_the_server_for_the_next_then_it_ends(loaded: dict[str, Any],
                                                            env: dict[str, str | None]) -> None:
    """Back-to-back reads share one server (the second pays no cold start); once no one has used
    it for `falkordb_linger` seconds, its keeper ends it."""
    server = EmbeddedServer(Path(str(env["KBX_DATA_DIR"])) / "falkordb")
    server.stop(force=True)
    lingering = {**env, "KBX_FALKORDB_LINGER": "1.5"}
    kbx(lingering, "pair", "林冲", "鲁智深")
    first = server.running()
    assert first is not None  # left running after the command
    kbx(lingering, "pair", "林冲", "王伦")
    assert server.running() == first  # the same server, found warm
    deadline = time.monotonic() + 10
    while server.running() is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.running() is None  # ended by its keeper, no one left to stop it


def test_pair_lin_chong_lu_zhishen(loaded: dict[str, Any], env: dict[str, str | None]) -> None:
    pair = kbx(env, "pair", "林冲", "鲁智深")
    assert (pair["a"]["id"], pair["b"]["id"]) == ("lin_chong", "lu_zhishen")
    sworn = [r for r in pair["relations"] if r["type"] == "sworn_brothers"]
    assert sworn and any(s["chapter"] == 7 and s["chunk_id"].startswith("ch007_")
                         for s in sworn[0]["sources"])
    assert set(sworn[0]) >= {"id", "type", "directed", "source", "target", "description",
                             "chapters", "sources"}
    rescue = [e for e in pair["shared_events"] if "野猪林" in e["title"]
              and any(s["chapter"] == 9 for s in e["sources"])]
    assert rescue, [e["title"] for e in pair["shared_events"]]
    assert set(rescue[0]) >= {"id", "title", "chapter", "order", "place", "participants",
                              "sources"}
    orders = [e["order"] for e in pair["shared_events"]]
    assert orders == sorted(orders)


@pytest.mark.parametrize("a, b", [("豹子头", "魯達"), ("林教頭", "花和尚"), ("林沖", "魯智深")])
def test_pair_any_script_or_alias(loaded: dict[str, Any], env: dict[str, str | None],
                                  a: str, b: str) -> None:
    assert kbx(env, "pair", a, b) == kbx(env, "pair", "林冲", "鲁智深")


def test_main_pairs_quote_the_right_chapters(loaded: dict[str, Any],
                                             env: dict[str, str | None]) -> None:
    for a, b in [("林冲", "高俅"), ("林冲", "陆谦"), ("林冲", "柴进"), ("林冲", "王伦")]:
        pair = kbx(env, "pair", a, b)
        assert pair["relations"], (a, b)
        for relation in pair["relations"]:
            for source in relation["sources"]:
                assert source["chapter"] in relation["chapters"]
                assert source["chunk_id"].startswith(f"ch{source['chapter']:03d}_")


def test_journey_from_the_white_tiger_hall_to_his_death(loaded: dict[str, Any],
                                                        env: dict[str, str | None]) -> None:
    journey = kbx(env, "journey", "林冲")
    stages = journey["stages"]
    assert journey["person"]["id"] == "lin_chong" and len(stages) >= 4
    assert stages[0]["chapters"][0] == 7  # 白虎节堂, where his fall begins
    assert any("梁山" in (stage["place"] or "") for stage in stages)
    assert stages[-1]["chapters"][-1] == 119  # his death at 六和寺 ends it
    assert all(stage["sources"] and stage["events"] for stage in stages)
    orders = [e["order"] for stage in stages for e in stage["events"]]
    assert orders == sorted(orders)


def test_path_record_people_stats(loaded: dict[str, Any], env: dict[str, str | None]) -> None:
    path = kbx(env, "path", "鲁智深", "王伦")
    assert path["found"] and path["people"][0]["id"] == "lu_zhishen"
    assert all(hop["relations"] for hop in path["hops"])
    record = kbx(env, "record", "lin_chong")
    assert record["kind"] == "person" and record["linked"] and record["sources"]
    people = kbx(env, "people")
    assert len(people) == loaded["people"] and {"id", "name", "aliases"} <= set(people[0])
    stats = kbx(env, "kb", "stats")
    assert {k: stats[k] for k in ("people", "events", "relations", "states", "chapters")} == {
        k: loaded[k] for k in ("people", "events", "relations", "states", "chapters")}


def test_unknown_name_exits_2_with_closest(loaded: dict[str, Any],
                                           env: dict[str, str | None]) -> None:
    result = runner.invoke(app, ["pair", "林冲", "林聪"], env=env)
    assert result.exit_code == 2
    assert "unknown person '林聪'; closest: 林冲" in result.output
    result = runner.invoke(app, ["record", "lin_chon"], env=env)
    assert result.exit_code == 2 and "lin_chong" in result.output


def test_text_output(loaded: dict[str, Any], env: dict[str, str | None]) -> None:
    for args in (["pair", "林冲", "鲁智深"], ["journey", "林冲"], ["path", "林冲", "王伦"],
                 ["record", "lin_chong"], ["people"], ["kb", "stats"]):
        result = runner.invoke(app, args, env=env)
        assert result.exit_code == 0, (args, result.output)
        assert result.stdout.strip()


def test_memory_provider_answers_the_same(loaded: dict[str, Any],
                                          env: dict[str, str | None]) -> None:
    through_falkordb = kbx(env, "journey", "林冲")
    assert kbx(env, "journey", "林冲", "--provider", "memory") == through_falkordb
    stats = kbx(env, "kb", "stats", "--provider", "memory")
    assert stats["backend"] == "memory" and stats["people"] == loaded["people"]


def test_broken_bundle_leaves_previous_graph(loaded: dict[str, Any], env: dict[str, str | None],
                                             tmp_path: Path) -> None:
    before = kbx(env, "pair", "林冲", "鲁智深")
    broken = tmp_path / "broken"
    shutil.copytree(DEFAULT_BUNDLE, broken)
    with (broken / "shards" / "ch001.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"record": "person", "id": "oops", "name": \n')
    result = runner.invoke(app, ["kb", "load", "--bundle", str(broken)], env=env)
    assert result.exit_code == 2
    assert "ch001.jsonl" in result.output
    assert kbx(env, "pair", "林冲", "鲁智深") == before


def test_pair_eval_gives_every_case_a_verdict(loaded: dict[str, Any], env: dict[str, str | None],
                                              tmp_path: Path) -> None:
    """A case whose names are unknown, or are two names of one person, is wrong with its reason;
    the cases after it are still judged."""
    cases = [{"id": "same", "a": "林冲", "b": "豹子头", "relation_types": ["friend"],
              "begins_chapter": 7, "begins_quote": "就當結義智深為兄",
              "shared_event": {"chapter": 7, "quote": "就當結義智深為兄", "words": []}},
             {"id": "unknown", "a": "林聪", "b": "鲁智深", "relation_types": ["friend"],
              "begins_chapter": 7, "begins_quote": "就當結義智深為兄",
              "shared_event": {"chapter": 7, "quote": "就當結義智深為兄", "words": []}}]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
                    + (Path(__file__).resolve().parent.parent / "eval" / "kb" / "pairs_dev.jsonl")
                    .read_text(encoding="utf-8").splitlines(keepends=True)[0], encoding="utf-8")
    report = kbx(env, "kb", "eval", "--pairs", str(path))
    verdicts = {v["id"]: v for v in report["pairs"]}
    assert report["summary"]["pairs"] == 3
    assert not verdicts["same"]["right"] and "two different people" in str(verdicts["same"])
    assert not verdicts["unknown"]["right"] and "林聪" in str(verdicts["unknown"])
    assert verdicts["pair-dai-li"]["right"]
