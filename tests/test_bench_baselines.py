"""The benchmark's reference libraries are an optional extra: a missing one is named, with the
command that installs it, instead of an ImportError traceback."""

from __future__ import annotations

import pytest

from benchmarks.baselines import optional
from core.errors import ConfigError


def test_a_missing_reference_library_is_named_with_its_extra() -> None:
    with pytest.raises(ConfigError, match=r"kbx_no_such_library is not installed.*\.\[bench\]"):
        optional("kbx_no_such_library")


def test_an_installed_reference_library_is_returned() -> None:
    assert optional("rank_bm25").BM25Okapi is not None
