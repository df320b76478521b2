"""The third-party BM25 libraries our index is measured against, set to score as ours does.

Only the benchmark and the differential tests use them; `bm25s` and `rank_bm25` are the optional
`bench` extra (`pip install -e '.[bench]'`, included in `dev`), imported when first used so that a
missing one is named in one line instead of breaking `kbx` itself.
"""

from __future__ import annotations

import importlib
import logging
import math
from types import ModuleType
from typing import Any

import numpy as np

from core.errors import ConfigError


def optional(module: str) -> ModuleType:
    """Import a reference library of the `bench` extra, or say how to install it.

    bm25s sets its own logger to DEBUG when imported, so its records of every build passed the
    level `--log-level` gave the root logger and were printed at WARNING; its logger is put
    back to inherit the root's level once it is imported (setting it before the import, as this
    module once did, is undone by the import)."""
    try:
        imported = importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"{module} is not installed: the benchmark compares with it "
                          f"(pip install -e '.[bench]')") from exc
    logging.getLogger(module).setLevel(logging.NOTSET)
    return imported


def bm25s_index(tokens: list[list[str]], k1: float, b: float) -> Any:
    """bm25s with Lucene's method (its idf and no (k1+1) factor), built from our tokens."""
    index = optional("bm25s").BM25(method="lucene", k1=k1, b=b)
    index.index(tokens, show_progress=False)
    return index


def lucene_okapi(corpus: list[list[str]], k1: float, b: float) -> Any:
    """rank_bm25's BM25Okapi with Lucene's idf and without the (k1+1) factor, as we score."""
    okapi: Any = optional("rank_bm25").BM25Okapi

    class LuceneOkapi(okapi):  # type: ignore[misc]
        def _calc_idf(self, nd: dict[str, int]) -> None:
            self.idf = {w: math.log(1 + (self.corpus_size - f + 0.5) / (f + 0.5))
                        for w, f in nd.items()}

        def get_scores(self, query: list[str]) -> np.ndarray:
            return super().get_scores(query) / (self.k1 + 1)  # type: ignore[no-any-return]

    return LuceneOkapi(corpus, k1=k1, b=b, epsilon=0)
