"""The benchmark's reference libraries are an optional extra: a missing one is named, with the
command that installs it, instead of an ImportError traceback."""

from __future__ import annotations

import logging

import pytest

from benchmarks.baselines import bm25s_index, lucene_okapi, optional
from cli.common import configure_logging
from core.errors import ConfigError


def test_a_missing_reference_library_is_named_with_its_extra() -> None:
    with pytest.raises(ConfigError, match=r"kbx_no_such_library is not installed.*\.\[bench\]"):
        optional("kbx_no_such_library")


def test_an_installed_reference_library_scores_as_we_do() -> None:
    """(This test only asked that `BM25Okapi` was not None, which no import can fail.)"""
    tokens = [["林冲", "鲁智深"], ["宋江"], ["林冲", "林冲", "宋江"]]
    okapi = lucene_okapi(tokens, k1=1.2, b=0.75)
    scores = okapi.get_scores(["林冲"])
    assert scores[1] == 0 and scores[2] > scores[0] > 0  # twice in a short block beats once
    index = bm25s_index(tokens, 1.2, 0.75)
    found, _ = index.retrieve([["林冲"]], k=2)
    assert sorted(found[0].tolist()) == [0, 2]


@pytest.mark.parametrize(("level", "quiet"), [("WARNING", True), ("DEBUG", False)])
def test_bm25s_logs_at_the_level_asked(capsys: pytest.CaptureFixture[str], level: str,
                                       quiet: bool) -> None:
    """bm25s sets its logger to DEBUG on import, so `kbx bench retrieval` printed its debug
    lines at the default WARNING; now it follows `--log-level` like every logger."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging(level)
        bm25s_index([["林冲", "鲁智深"], ["宋江"]], 1.2, 0.75)
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])
    err = capsys.readouterr().err
    assert (err == "") is quiet, err
