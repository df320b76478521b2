"""`kbx bench kb` on the hand-made bundle: every operation timed in every round, pairs by name
beside pairs by id, the hubs' journeys apart, and the live graph left alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from providers.embedded import EmbeddedServer, free_port

pytestmark = pytest.mark.falkordb
KB_MINI = Path(__file__).parent / "fixtures" / "kb_mini"


def test_bench_kb_rounds_names_and_hubs(tmp_path: Path) -> None:
    env: dict[str, str | None] = {"KBX_DATA_DIR": str(tmp_path), "FALKORDB_URL": None,
                                  "KBX_FALKORDB_PORT": str(free_port()), "KBX_PROVIDER": None}
    try:
        result = CliRunner().invoke(app, ["bench", "kb", "--bundle", str(KB_MINI), "--samples",
                                          "20", "--runs", "2", "--json"], env=env)
    finally:
        EmbeddedServer(tmp_path / "falkordb").stop(force=True)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [b["backend"] for b in report["backends"]] == ["falkordb", "memory"]
    for backend in report["backends"]:
        assert len(backend["runs"]) == 2
        for run in backend["runs"]:
            for op in ("pair", "pair_by_name", "journey", "journey_hubs", "digest_hubs", "path"):
                assert 0 < run[op]["p50_ms"] <= run[op]["p99_ms"], op
    assert report["hubs"][0] == "lin_chong"  # the most events of the hand-made bundle
    assert set(report["name_over_id_p50"]) == {"falkordb", "memory"}
    assert report["falkordb_runs_meeting_targets"] in (0, 1, 2)
